import type { Customer } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { erasedCodeMarker, matchingCode, selectorRange } from '../customers/secret-codes';
import type { Db } from '../db/connection';

/** Whether `code` was the install code of a customer whose data was erased (of `cardId` when given): their card was removed. */
export function isErasedInstallCode(db: Db, code: string | undefined, cardId?: string): boolean {
  if (!code || !selectorRange(code)) return false;
  const erased = customersRepo(db).erasedByInstallMarker(erasedCodeMarker(code));
  return erased !== undefined && (cardId === undefined || erased.card_id === cardId);
}

/** The customer behind an install code (of `cardId` when given). A wrong code and a code of another card look the same. */
export function findCustomerByInstallCode(db: Db, code: string | undefined, cardId?: string): Customer | undefined {
  const range = code ? selectorRange(code) : null;
  if (!code || !range) return undefined;
  const customers = customersRepo(db);
  const match = matchingCode(code, customers.withInstallSelector(range));
  const customer = match && customers.findByPassUserId(match.id);
  if (!customer || customer.erasedAt !== null || (cardId !== undefined && customer.cardId !== cardId)) return undefined;
  return customer;
}
