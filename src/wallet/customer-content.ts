import type { Card } from '../cards/model';
import { customerLang } from '../customers/language';
import type { Customer } from '../customers/model';
import type { Db } from '../db/connection';
import { remindedExpiring } from '../loyalty/expiring';
import { orgsRepo } from '../orgs/repo';
import { readOrgSettings } from '../orgs/settings';
import { passContent, type PassContent, type PassLocale } from './pass-content';

/**
 * What a customer's pass shows, with what only the database knows: the shop's name, the
 * customer's language, the currency and the units the customer was reminded will expire. Every
 * pass a customer holds (Apple, Google, the web pass) and their emails start from here.
 */
export function customerPassContent(db: Db, card: Card, customer: Customer): PassContent {
  const organizationName = orgsRepo(db).findOrg(card.orgId)?.name ?? card.name;
  const locale = { lang: customerLang(db, customer), currency: cardCurrency(db, card) };
  return passContent(card, { ...customer, expiring: remindedExpiring(db, customer, card) }, organizationName, locale);
}

/** The money a card's amounts are in: the card's own spend currency, else the shop's (null: none named). */
export function cardCurrency(db: Db, card: Pick<Card, 'orgId' | 'accrual'>): string | null {
  return card.accrual?.spend?.currency ?? readOrgSettings(db, card.orgId).currency;
}

/** A pass as the shop's customers see it by default: the shop's language and currency (the console's preview). */
export function shopPassLocale(db: Db, card: Pick<Card, 'orgId' | 'accrual'>): PassLocale {
  return { lang: readOrgSettings(db, card.orgId).language, currency: cardCurrency(db, card) };
}
