// The wallet's share of a balance change (main.ts subscribes it to onChange.balanceChanged) and of
// a card change (onChange.cardChanged), and the resend after a Google save.
import { cardsRepo } from '../../cards/repo';
import { inTransaction } from '../../db/transaction';
import { wakeAfterCommit } from '../../db/after-commit';
import type { WriteDeps } from '../../deps';
import { walletRepo } from '../repo';
import { cardUpdatesRepo } from './card-repo';
import { passUpdatesRepo } from './repo';

type QueueDeps = Pick<WriteDeps, 'db' | 'clock' | 'afterCommit'>;

/**
 * Records that the customer's pass changed and must be pushed to their wallets. Call it INSIDE
 * the transaction that changes the balance: the row commits with the balance or not at all, and
 * nothing is sent from here (no network inside a transaction). Once the transaction commits, the
 * pass-update worker is woken; its minute sweep is the safety net. Repeated changes before the
 * push coalesce into one row.
 *
 * Only what can be received is written. Most passes are on no wallet (no wallet configured, or
 * the customer never added it), and for them an update row and a new sequence number would be
 * written, claimed and deleted on every balance change for nobody:
 * - the Apple sequence number (the device's "changed since" tag) only when a device registered
 *   the pass. A device that registers later is covered by registerDevice, which gives the pass a
 *   new number in the registration's transaction: whatever changed before that (even after the
 *   device downloaded its copy) is then listed for it, as if every change had been numbered.
 *   Writes are serialised, so a change and a registration cannot miss each other.
 * - the push/PATCH row when an Apple device registered the pass or a Google save link was handed
 *   out (an object that may exist at Google). A link handed out later carries the balance of then.
 */
export function queuePassUpdate(deps: QueueDeps, customerId: string): void {
  if (!deps.db.inTransaction) throw new Error('queuePassUpdate must run inside the transaction of the balance change');
  const { apple, google } = passUpdatesRepo(deps.db).receivers(customerId);
  // The pass's new update sequence number is what devices' serial-number lists compare against.
  if (apple) walletRepo(deps.db).markPassChanged(customerId, deps.clock.now());
  if (apple || google) queueSend(deps, customerId);
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

/**
 * Records that every pass of the card must show a change of the card (name, design, logo, reward,
 * levels). Inside the transaction of the card change, like queuePassUpdate: it writes two rows
 * whatever the number of customers — one to expand into per-pass updates (expandCardChange), one
 * for the Google class — and the worker does the rest after the commit.
 */
export function queueCardUpdate(deps: QueueDeps, cardId: string): void {
  if (!deps.db.inTransaction) throw new Error('queueCardUpdate must run inside the transaction of the card change');
  const now = deps.clock.now();
  const repo = cardUpdatesRepo(deps.db);
  repo.queueFanout(cardId, now);
  repo.queueClass(cardId, now);
  wakeAfterCommit(deps.db, 'passUpdates', () => deps.afterCommit.passUpdatesQueued());
}

/** Every pass of the org must show an org-wide change (its locations): a card update for each of its cards, archived ones included (their members keep their passes). */
export function queueOrgUpdate(deps: QueueDeps, orgId: string): void {
  for (const card of cardsRepo(deps.db).listForOrg(orgId)) queueCardUpdate(deps, card.id);
}

/** Customers looked at per expansion transaction: a few milliseconds of the write lock each. */
export const FANOUT_BATCH = 500;

/**
 * Expands one batch of the oldest pending card change into per-pass updates (queuePassUpdate for
 * each customer a wallet holds), and records how far it got, in one transaction: a crash loses
 * nothing and repeats nothing that committed. False when no card change is pending.
 */
export function expandCardChange(deps: QueueDeps, batchSize = FANOUT_BATCH): boolean {
  return inTransaction(deps.db, () => {
    const repo = cardUpdatesRepo(deps.db);
    const pending = repo.nextFanout();
    if (!pending) return false;
    const slice = repo.customerSlice(pending.cardId, pending.after, batchSize);
    for (const customer of slice) if (customer.held) queuePassUpdate(deps, customer.id);
    if (slice.length < batchSize) repo.removeFanout(pending.cardId);
    else repo.advanceFanout(pending.cardId, slice[slice.length - 1]!.position, deps.clock.now());
    return true;
  });
}
