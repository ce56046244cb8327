// The shop's latest message on a customer's passes, and Google's notification budget. The
// messages feature decides who gets a message; this is how a pass holds it: one row per pass
// holder, read by the Apple pass (a back field), the web pass (on top) and a Google save link.
import type { Db } from '../db/connection';
import type { PassMessage } from './pass-content';
import { passMessagesRepo, type StoredPassMessage } from './pass-messages-repo';
import { walletRepo } from './repo';

/** Google allows this many notifying updates of one pass in GOOGLE_NOTIFY_WINDOW_MS. */
export const GOOGLE_NOTIFY_BUDGET = 3;
export const GOOGLE_NOTIFY_WINDOW_MS = 24 * 3_600_000;

/** The message the customer's passes show, if the shop ever sent them one. */
export function passMessageOf(db: Db, customerId: string): StoredPassMessage | undefined {
  return passMessagesRepo(db).find(customerId);
}

/**
 * Puts `message` on the customer's passes, inside the transaction that sends it (the sender read
 * what they showed before with its audience: a pass notifies only for new words). An Apple pass
 * gets the next update number, so the devices' "changed since" lists name it (the push follows).
 */
export function setPassMessage(db: Db, customerId: string, message: PassMessage, now: number, options: { apple: boolean }): void {
  if (!db.inTransaction) throw new Error('setPassMessage must run inside the transaction that sends the message');
  passMessagesRepo(db).set(customerId, message, now);
  if (options.apple) walletRepo(db).markPassChanged(customerId, now);
}

/** How many notifying updates the customer's Google pass may still get now (Google refuses more). */
export function googleNotificationsLeft(db: Db, customerId: string, now: number): number {
  return Math.max(0, GOOGLE_NOTIFY_BUDGET - passMessagesRepo(db).notifiedSince(customerId, now - GOOGLE_NOTIFY_WINDOW_MS));
}

/** A notifying update reached the customer's Google pass now; inside the transaction that records it. */
export function recordGoogleNotification(db: Db, customerId: string, now: number): void {
  passMessagesRepo(db).recordNotification(customerId, now, now - GOOGLE_NOTIFY_WINDOW_MS);
}
