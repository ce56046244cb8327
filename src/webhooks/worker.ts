import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import { createRowQueue } from '../queue/row-queue';
import type { ListedPolicy } from '../queue/retry';
import { deliveriesRepo, type ClaimCandidate } from './deliveries-repo';
import { leaseMs } from './policy';
import { recordAttempt } from './record';
import { createWebhookSender, type SendOutcome } from './send';
import { signatureHeader } from './signature';
import { webhooksRepo } from './repo';

export interface WorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
}

/**
 * Attempts in flight at once to one endpoint by default: a slow endpoint holds at most this many
 * slots, and a receiver sees about this many kept-alive connections from us. Enough to work
 * through a backlog without waiting on one round trip at a time, and far below what any web
 * server accepts from one client.
 */
export const PER_ENDPOINT = 8;

export interface WorkerOptions {
  /** Attempts in flight at once, over all endpoints. */
  maxInFlight?: number;
  /** Attempts in flight at once to one endpoint (PER_ENDPOINT). */
  perEndpoint?: number;
}

export interface DeliveryWorker {
  /** New deliveries were committed: send them now (coalesced; never runs inside the caller's transaction). */
  wake(): void;
  /** Claims every due delivery there is room for and starts sending it; returns how many started. */
  sweep(): number;
  /** Resolves once nothing is in flight and no wake-up is pending. */
  idle(): Promise<void>;
  /** Stops taking work, waits up to `graceMs` for attempts in flight, then interrupts the rest; every attempt is recorded. */
  stop(graceMs?: number): Promise<void>;
}

/** Deliveries not yet delivered nor given up (due now or waiting for a retry): /healthz's webhookBacklog. */
export function webhookBacklog(db: Db): number {
  return deliveriesRepo(db).pendingCount();
}

/** One attempt's result: when it started (injected clock) and how it went. */
interface Attempt {
  at: number;
  outcome: SendOutcome;
}

/**
 * Sends webhook deliveries from the database through the row queue (queue/row-queue.ts): a
 * delivery is claimed with a lease, each attempt is recorded as a row, and a failed attempt goes
 * back to `pending`, due after the configured wait (WEBHOOK_RETRY_DELAYS_MS). A kill -9 at any
 * moment loses no event: at the next start (and on every sweep) due rows and expired leases are
 * taken up again. An attempt interrupted by a crash is sent again under the same number (the
 * receiver may see it twice, and deduplicates on the event id).
 *
 * What is the webhooks' own: each endpoint holds at most `perEndpoint` slots, and endpoints take
 * turns at the front of each claim, so with more work than slots none waits on the others.
 */
export function createDeliveryWorker(deps: WorkerDeps, options: WorkerOptions = {}): DeliveryWorker {
  const perEndpoint = options.perEndpoint ?? PER_ENDPOINT;
  const { timeoutMs, retryDelaysMs, blockPrivate } = deps.config.webhooks;
  const policy: ListedPolicy = { delaysMs: retryDelaysMs };
  const repo = deliveriesRepo(deps.db);
  const webhooks = webhooksRepo(deps.db);
  const sender = createWebhookSender();
  let turn = 0;

  const slotsTaken = (working: readonly ClaimCandidate[]) => {
    const taken = new Map<string, number>();
    for (const d of working) taken.set(d.webhookId, (taken.get(d.webhookId) ?? 0) + 1);
    return taken;
  };

  const queue = createRowQueue<ClaimCandidate, Attempt>(deps, {
    name: 'webhooks',
    concurrency: options.maxInFlight ?? 64,
    leaseMs: leaseMs(timeoutMs),
    stopGraceMs: timeoutMs + 1_000,
    key: (delivery) => delivery.id,
    // Under load every endpoint's slots are taken most of the time, and a sweep follows every
    // commit: then nothing could be claimed, and the claim's transaction and its endpoints query
    // are skipped. While no endpoint's slots are all taken, every endpoint has room, and the
    // endpoints need not be read to say so.
    hasRoom(working) {
      const taken = slotsTaken(working);
      if (![...taken.values()].some((n) => n >= perEndpoint)) return true;
      return webhooks.activeIds().some((id) => (taken.get(id) ?? 0) < perEndpoint);
    },
    // For each endpoint with due rows and free slots, its oldest due rows up to its free slots.
    // Each query reads only what it takes (deliveries-repo.ts), so a claim costs the same with ten
    // rows waiting or a hundred thousand.
    claim({ now, leaseUntil, limit, working }) {
      const taken = slotsTaken(working);
      const full = [...taken].filter(([, n]) => n >= perEndpoint).map(([id]) => id);
      const endpoints = repo.endpointsWithDue(now, full);
      const start = endpoints.length > 0 ? turn++ % endpoints.length : 0;
      const inFlight = working.map((d) => d.id);
      const claimed: ClaimCandidate[] = [];
      for (let k = 0; k < endpoints.length && claimed.length < limit; k++) {
        const webhookId = endpoints[(start + k) % endpoints.length]!;
        const room = Math.min(perEndpoint - (taken.get(webhookId) ?? 0), limit - claimed.length);
        claimed.push(...repo.dueOf({ webhookId, now, inFlight, limit: room }));
      }
      repo.leaseMany(
        claimed.map((c) => c.id),
        leaseUntil,
      );
      return claimed;
    },
    async work(delivery, signal) {
      const at = deps.clock.now();
      const outcome = await sender.post({
        url: delivery.url,
        body: delivery.payload,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Wallet-Loyalty-Webhooks/1',
          'X-Loyalty-Event-Id': delivery.eventId,
          'X-Loyalty-Event-Type': delivery.eventType,
          // Signed at send time: a retry or replay carries a fresh timestamp within the receiver's tolerance.
          'X-Loyalty-Signature': signatureHeader(delivery.secret, Math.floor(at / 1000), delivery.payload),
        },
        timeoutMs,
        blockPrivate,
        // Past the stop's grace the attempt is cut off, and recorded as interrupted: it keeps its retries.
        signal,
      });
      return { at, outcome };
    },
    record(delivery, result, now) {
      // The sender answers every failure as an outcome; a rejection would be a fault of ours, and
      // counts as a failed attempt rather than one that never happened.
      const { at, outcome }: Attempt =
        result.status === 'fulfilled' ? result.value : { at: now, outcome: { succeeded: false, responseCode: null, error: String((result.reason as Error)?.message ?? result.reason), durationMs: 0 } };
      const number = delivery.attemptCount + 1;
      const status = recordAttempt(deps, policy, { deliveryId: delivery.id, webhookId: delivery.webhookId, number, at, outcome });
      const fields = { deliveryId: delivery.id, webhookId: delivery.webhookId, eventId: delivery.eventId, attempt: number, status, responseCode: outcome.responseCode, error: outcome.error, durationMs: outcome.durationMs };
      if (outcome.succeeded) deps.log.debug('webhook delivered', fields);
      else deps.log.warn('webhook attempt failed', fields);
    },
    backlog: () => webhookBacklog(deps.db),
    close: () => sender.close(),
  });

  return { wake: queue.wake, sweep: queue.sweep, idle: queue.idle, stop: queue.stop };
}
