import type { Card } from '../cards/model';
import { customerLang } from '../customers/language';
import type { Customer } from '../customers/model';
import type { Db } from '../db/connection';
import type { Lang } from '../i18n/langs';
import { remindedExpiring } from '../loyalty/expiring';
import { orgsRepo } from '../orgs/repo';
import { readOrgSettings } from '../orgs/settings';
import { passContent, type PassContent, type PassLocale } from './pass-content';
import { passMessageOf } from './pass-messages';

/**
 * What a customer's pass shows, with what only the database knows: the shop's name, the
 * customer's language, the currency, the units the customer was reminded will expire, the shop's
 * latest message to them and its locations. Every pass a customer holds (Apple, Google, the web
 * pass) and their emails start from here. `lang`: the page's language, for a page that shows the
 * pass.
 */
export function customerPassContent(db: Db, card: Card, customer: Customer, lang?: Lang): PassContent {
  const organizationName = orgsRepo(db).findOrg(card.orgId)?.name ?? card.name;
  // A page the customer reads may be in another language than their pass (the language switcher's ?lang=).
  const locale = { lang: lang ?? customerLang(db, customer), currency: cardCurrency(db, card) };
  const stored = passMessageOf(db, customer.id);
  const message = stored ? { id: stored.id, header: stored.header, body: stored.body } : null;
  const shop = { locations: readOrgSettings(db, card.orgId).locations };
  return passContent(card, { ...customer, expiring: remindedExpiring(db, customer, card), message }, organizationName, locale, shop);
}

/** The money a card's amounts are in: the card's own spend currency, else the shop's (null: none named). */
export function cardCurrency(db: Db, card: Pick<Card, 'orgId' | 'accrual'>): string | null {
  return card.accrual?.spend?.currency ?? readOrgSettings(db, card.orgId).currency;
}

/** A pass as the shop's customers see it by default: the shop's language and currency (the console's preview). */
export function shopPassLocale(db: Db, card: Pick<Card, 'orgId' | 'accrual'>): PassLocale {
  return { lang: readOrgSettings(db, card.orgId).language, currency: cardCurrency(db, card) };
}
