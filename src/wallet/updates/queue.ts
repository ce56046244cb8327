// The one call the balance-change code makes for wallet passes.
import type { Db } from '../../db/open';
import type { Clock } from '../../lib/clock';
import { passUpdatesRepo } from './repo';

/**
 * Records that the customer's pass changed and must be pushed to their wallets. Call it INSIDE
 * the transaction that changes the balance: the row commits with the balance or not at all, and
 * nothing is sent from here (no network inside a transaction). After the commit, call
 * `deps.afterCommit.passUpdatesQueued?.()` so the worker starts at once; otherwise its
 * minute sweep finds the row. Repeated changes before the push coalesce into one row.
 */
export function queuePassUpdate(db: Db, clock: Clock, customerId: string): void {
  if (!db.inTransaction) throw new Error('queuePassUpdate must run inside the transaction of the balance change');
  passUpdatesRepo(db).queue(customerId, clock.now());
}
