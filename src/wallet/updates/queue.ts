// The wallet's share of a balance change (main.ts subscribes it to onChange.balanceChanged), and
// the resend after a Google save.
import { wakeAfterCommit } from '../../db/after-commit';
import type { WriteDeps } from '../../deps';
import { walletRepo } from '../repo';
import { passUpdatesRepo } from './repo';

type QueueDeps = Pick<WriteDeps, 'db' | 'clock' | 'afterCommit'>;

/**
 * Records that the customer's pass changed and must be pushed to their wallets. Call it INSIDE
 * the transaction that changes the balance: the row commits with the balance or not at all, and
 * nothing is sent from here (no network inside a transaction). Once the transaction commits, the
 * pass-update worker is woken; its minute sweep is the safety net. Repeated changes before the
 * push coalesce into one row.
 */
export function queuePassUpdate(deps: QueueDeps, customerId: string): void {
  if (!deps.db.inTransaction) throw new Error('queuePassUpdate must run inside the transaction of the balance change');
  // The pass's new update sequence number is what devices' serial-number lists compare against.
  walletRepo(deps.db).markPassChanged(customerId, deps.clock.now());
  queueSend(deps, customerId);
}

/**
 * Sends the pass as it is now, though it did not change: a wallet took a copy that may be older
 * (Google creates the object from the save link it was given, whatever happened since). Apple
 * devices asked again learn that nothing changed for them. Inside a transaction, like above.
 */
export function queuePassResend(deps: QueueDeps, customerId: string): void {
  if (!deps.db.inTransaction) throw new Error('queuePassResend must run inside a transaction');
  queueSend(deps, customerId);
}

function queueSend(deps: QueueDeps, customerId: string): void {
  passUpdatesRepo(deps.db).queue(customerId, deps.clock.now());
  wakeAfterCommit(deps.db, 'passUpdates', () => deps.afterCommit.passUpdatesQueued());
}
