import type { Card } from '../cards/model';
import type { Customer } from '../customers/model';
import type { Db } from '../db/connection';
import { remindedExpiring } from '../loyalty/expiring';
import { orgsRepo } from '../orgs/repo';
import { readOrgSettings } from '../orgs/settings';
import { passContent, type PassContent } from './pass-content';
import { passMessageOf } from './pass-messages';

/**
 * What a customer's pass shows, with what only the database knows: the shop's name, the units
 * the customer was reminded will expire, the shop's latest message to them and its locations.
 * Every pass a customer holds (Apple, Google, the web pass) and their card email start from here.
 */
export function customerPassContent(db: Db, card: Card, customer: Customer): PassContent {
  const organizationName = orgsRepo(db).findOrg(card.orgId)?.name ?? card.name;
  const stored = passMessageOf(db, customer.id);
  const message = stored ? { id: stored.id, header: stored.header, body: stored.body } : null;
  return passContent(card, { ...customer, expiring: remindedExpiring(db, customer, card), message }, organizationName, { locations: readOrgSettings(db, card.orgId).locations });
}
