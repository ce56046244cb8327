import { cardsRepo } from '../cards/repo';
import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import { ApiError } from '../lib/errors';
import type { Clock } from '../lib/clock';
import type { Namespace } from './model';
import { purgeRepo } from './purge-repo';
import { customersRepo } from './repo';

// The test-key sandbox: test customers live apart from live ones,
// at most 100 per org, removed 30 days after creation. Their passes say so (wallet/test-mode.ts).

export const TEST_CUSTOMER_LIMIT = 100;
export const TEST_CUSTOMER_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** 409 TEST_CUSTOMER_LIMIT (`error` is the code too) when a test key would create customer 101. Matching is never limited. */
export function assertRoomForTestCustomer(db: Db, n: Namespace): void {
  if (n.livemode) return;
  if (customersRepo(db).count(n) < TEST_CUSTOMER_LIMIT) return;
  throw new ApiError(409, 'TEST_CUSTOMER_LIMIT', {
    errorName: 'TEST_CUSTOMER_LIMIT',
    detail: `this organisation already has ${TEST_CUSTOMER_LIMIT} test customers; existing ones can still be matched and updated, and each is removed 30 days after its creation`,
  });
}

/**
 * Removes test customers older than 30 days with everything that belongs to them (ledger rows,
 * events, deliveries), one transaction per customer so the sweep never holds the write lock long.
 * A pass already on a phone simply stops updating.
 */
export function sweepTestCustomers(deps: { db: Db; clock: Clock }): number {
  const ids = customersRepo(deps.db).testCustomerIdsCreatedBefore(deps.clock.now() - TEST_CUSTOMER_LIFETIME_MS);
  for (const id of ids) inTransaction(deps.db, () => removeTestCustomer(deps.db, id));
  return ids.length;
}

/** The test customers of a card about to be deleted (onChange.cardDeleting), inside its transaction. */
export function removeTestCustomersOfCard(deps: { db: Db }, cardId: string): void {
  for (const id of cardsRepo(deps.db).testCustomerIds(cardId)) removeTestCustomer(deps.db, id);
}

/** A test customer with everything that belongs to them (ledger rows by cascade, events, deliveries). Inside the caller's transaction. */
export function removeTestCustomer(db: Db, id: string): void {
  purgeRepo(db).removeTestCustomerEvents(id);
  customersRepo(db).remove(id);
}
