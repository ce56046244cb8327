import type { Card } from '../cards/model';
import type { Customer } from '../customers/model';
import type { Db } from '../db/connection';
import { remindedExpiring } from '../loyalty/expiring';
import { orgsRepo } from '../orgs/repo';
import { passContent, type PassContent } from './pass-content';

/**
 * What a customer's pass shows, with what only the database knows: the shop's name and the units
 * the customer was reminded will expire. Every pass a customer holds (Apple, Google, the web pass)
 * and their card email start from here.
 */
export function customerPassContent(db: Db, card: Card, customer: Customer): PassContent {
  const organizationName = orgsRepo(db).findOrg(card.orgId)?.name ?? card.name;
  return passContent(card, { ...customer, expiring: remindedExpiring(db, customer, card) }, organizationName);
}
