// Sends the shop's messages to the wallets, after the commit, one delivery row per pass: the fifth
// row queue of queue/row-queue.ts. Apple: the usual empty push to each device holding the pass,
// which then fetches the pass with the message in a back field (its changeMessage shows the words
// on the lock screen when they are new to the pass). Google: addMessage on the saved object,
// TEXT_AND_NOTIFY while that pass had fewer than 3 notifying updates from us in 24 hours and the
// words are new to it, else TEXT (shown, no notification); a quota refusal (429) of a notifying
// message is tried again at once as TEXT. Any other failure is retried with the pass updates' backoff.
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import { createRowQueue, type RowQueue } from '../queue/row-queue';
import { googleNotificationsLeft, recordGoogleNotification } from '../wallet/pass-messages';
import { retryDelayMs } from '../wallet/updates/backoff';
import type { WalletSenders } from '../wallet/updates/senders';
import { messagesRepo, type DueDelivery } from './repo';

export interface MessageWorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
}

export interface MessageWorkerOptions {
  /** Passes sent to at once: pushes share the APNs connection, Google sees a handful of requests at once. */
  inFlight?: number;
  leaseMs?: number;
}

/** How a row's attempt ended. */
type Outcome =
  | { status: 'delivered' | 'shown'; notifiedGoogle?: boolean }
  | { status: 'failed'; error: string }
  | { status: 'retry'; error: string };

const DEFAULT_IN_FLIGHT = 16;

export type MessageWorker = Pick<RowQueue, 'wake' | 'sweep' | 'drain' | 'idle' | 'stop' | 'backlog'>;

/** Delivery rows waiting to be sent, due now or waiting for a retry. */
export const messageBacklog = (db: Db): number => messagesRepo(db).pendingCount();

export function createMessageWorker(deps: MessageWorkerDeps, senders: WalletSenders, options: MessageWorkerOptions = {}): MessageWorker {
  const { db, clock, log } = deps;
  const repo = messagesRepo(db);

  async function toApple(row: DueDelivery): Promise<Outcome> {
    const result = await senders.pushApple(row.customerId);
    if (result.off) return { status: 'failed', error: 'Apple Wallet is not set up on this server' };
    if (result.errors.length > 0) return { status: 'retry', error: result.errors.join('; ') };
    if (result.pushed === 0) return { status: 'failed', error: 'no Apple device holds the pass any more' };
    return { status: row.mayNotify ? 'delivered' : 'shown' };
  }

  async function toGoogle(row: DueDelivery): Promise<Outcome> {
    const notify = row.mayNotify && googleNotificationsLeft(db, row.customerId, clock.now()) > 0;
    const message = (messageType: 'TEXT' | 'TEXT_AND_NOTIFY') => ({ id: row.messageId, header: row.header, body: row.body, messageType });
    let result = await senders.addGoogleMessage(row.customerId, message(notify ? 'TEXT_AND_NOTIFY' : 'TEXT'));
    let notified = notify;
    if (notify && typeof result === 'object' && result.status === 429) {
      // Google's count of this pass's notifications is over its budget (updates we did not make, or
      // made before a restore): the message still goes on the pass, without a notification.
      result = await senders.addGoogleMessage(row.customerId, message('TEXT'));
      notified = false;
    }
    if (result === 'off') return { status: 'failed', error: 'Google Wallet is not set up on this server' };
    if (result === 'none') return { status: 'failed', error: 'no saved Google Wallet pass any more' };
    if (result.status === 200) return notified ? { status: 'delivered', notifiedGoogle: true } : { status: 'shown' };
    if (result.status === 404) return { status: 'failed', error: 'Google has no such pass (it was removed)' };
    return { status: 'retry', error: `Google answered ${result.status}` };
  }

  return createRowQueue<DueDelivery, Outcome>(deps, {
    name: 'pass messages',
    concurrency: options.inFlight ?? DEFAULT_IN_FLIGHT,
    leaseMs: options.leaseMs ?? 5 * 60_000,
    key: (row) => String(row.id),
    claim: ({ now, leaseUntil, limit }) => repo.claimDue(now, leaseUntil, limit),
    work: (row) => (row.channel === 'apple' ? toApple(row) : toGoogle(row)),
    record(row, settled, now) {
      const outcome: Outcome = settled.status === 'fulfilled' ? settled.value : { status: 'retry', error: String((settled.reason as Error)?.message ?? settled.reason) };
      if (outcome.status !== 'failed' && outcome.status !== 'retry') {
        repo.finish(row.id, outcome.status, null, now);
        if (outcome.notifiedGoogle) recordGoogleNotification(db, row.customerId, now);
        return;
      }
      const delay = outcome.status === 'retry' ? retryDelayMs(row.attempts + 1) : null;
      if (delay === null) repo.finish(row.id, 'failed', outcome.error, now);
      else repo.retry(row.id, now + delay, outcome.error, now);
      log.warn('messages: a pass was not reached', { messageId: row.messageId, channel: row.channel, attempt: row.attempts + 1, retryInMs: delay, error: outcome.error });
    },
    backlog: () => messageBacklog(db),
  });
}
