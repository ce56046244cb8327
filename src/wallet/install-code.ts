import type { Customer } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { matchingCode, selectorRange } from '../customers/secret-codes';
import type { Db } from '../db/connection';

/** The customer behind an install code (of `cardId` when given). A wrong code and a code of another card look the same. */
export function findCustomerByInstallCode(db: Db, code: string | undefined, cardId?: string): Customer | undefined {
  const range = code ? selectorRange(code) : null;
  if (!code || !range) return undefined;
  const customers = customersRepo(db);
  const match = matchingCode(code, customers.withInstallSelector(range));
  const customer = match && customers.findByPassUserId(match.id);
  if (!customer || (cardId !== undefined && customer.cardId !== cardId)) return undefined;
  return customer;
}
