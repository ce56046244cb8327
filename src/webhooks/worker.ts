import { inTransaction } from '../db/transaction';
import { setMaxListeners } from 'node:events';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import { deliveriesRepo, type ClaimCandidate, type DeliveryStatus } from './deliveries-repo';
import { leaseMs } from './policy';
import { recordAttempts, type FinishedAttempt } from './record';
import { createWebhookSender } from './send';
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
  /** Stops taking work, waits up to `graceMs` for attempts in flight, then interrupts the rest. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Sends webhook deliveries from the database. The rows are the queue: a delivery is claimed with a
 * lease, each attempt is recorded as a row, and a failed attempt goes back to `pending` with its
 * next due time. Nothing lives only in memory, so a kill -9 at any moment loses no event: at the
 * next start (and on every sweep) due rows and expired leases are taken up again. An attempt
 * interrupted by a crash is sent again under the same number (the receiver may see it twice, and
 * deduplicates on the event id).
 *
 * p-retry is not used: its waits are timers inside one process, which a restart forgets and a fake
 * clock cannot move. Retries here are rows with `next_attempt_at`, found by the same sweep.
 */
export function createDeliveryWorker(deps: WorkerDeps, options: WorkerOptions = {}): DeliveryWorker {
  const maxInFlight = options.maxInFlight ?? 64;
  const perEndpoint = options.perEndpoint ?? PER_ENDPOINT;
  const { timeoutMs, retryDelaysMs, blockPrivate } = deps.config.webhooks;
  const repo = deliveriesRepo(deps.db);
  const webhooks = webhooksRepo(deps.db);
  const sender = createWebhookSender();

  const inFlight = new Map<string, Promise<void>>();
  const perWebhook = new Map<string, number>();
  const shutdown = new AbortController();
  // Every attempt in flight listens on this one signal; up to maxInFlight listeners is the design,
  // not a leak, so Node's default of 10 must not print a "possible memory leak" warning.
  setMaxListeners(maxInFlight + 1, shutdown.signal);
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  let wakeup = false;
  let idleWaiters: (() => void)[] = [];
  let stopping: Promise<void> | null = null;
  // Endpoints take turns at the front of each claim, so with more work than slots none waits on the others.
  let turn = 0;

  function notifyIfIdle() {
    if (inFlight.size > 0 || wakeup || finished.length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  // Coalesced into one sweep after the code that woke it, in the same turn of the event loop: the
  // wake-up already comes after the commit (db/after-commit.ts).
  function wake() {
    if (state !== 'running' || wakeup) return;
    wakeup = true;
    queueMicrotask(() => {
      wakeup = false;
      if (state === 'running') sweep();
      notifyIfIdle();
    });
  }

  /**
   * For each endpoint with due rows and free slots, its oldest due rows up to its free slots,
   * leased (in the caller's transaction, or one of its own). Each query reads only what it takes
   * (deliveries-repo.ts), so a claim costs the same with ten rows waiting or a hundred thousand.
   */
  function claim(): ClaimCandidate[] {
    return inTransaction(deps.db, () => {
      const now = deps.clock.now();
      const full = [...perWebhook].filter(([, n]) => n >= perEndpoint).map(([id]) => id);
      const endpoints = repo.endpointsWithDue(now, full);
      const start = endpoints.length > 0 ? turn++ % endpoints.length : 0;
      const taken: ClaimCandidate[] = [];
      for (let k = 0; k < endpoints.length && inFlight.size + taken.length < maxInFlight; k++) {
        const webhookId = endpoints[(start + k) % endpoints.length]!;
        const room = Math.min(perEndpoint - (perWebhook.get(webhookId) ?? 0), maxInFlight - inFlight.size - taken.length);
        taken.push(...repo.dueOf({ webhookId, now, inFlight: [...inFlight.keys()], limit: room }));
      }
      repo.leaseMany(
        taken.map((c) => c.id),
        now + leaseMs(timeoutMs),
      );
      return taken;
    });
  }

  function sweep(): number {
    if (state !== 'running' || inFlight.size >= maxInFlight) return 0;
    // Under load every endpoint's slots are taken most of the time, and a sweep follows every
    // commit: then nothing could be claimed, and the claim's transaction and its endpoints query
    // are skipped.
    if (webhooks.activeIds().every((id) => (perWebhook.get(id) ?? 0) >= perEndpoint)) return 0;
    try {
      const claimed = claim();
      for (const delivery of claimed) send(delivery);
      return claimed.length;
    } catch (err) {
      deps.log.error('webhook sweep failed', { err });
      return 0;
    }
  }

  /** The attempt is over (recorded or not): its slot is free. */
  function release(delivery: ClaimCandidate) {
    inFlight.delete(delivery.id);
    const left = (perWebhook.get(delivery.webhookId) ?? 1) - 1;
    if (left > 0) perWebhook.set(delivery.webhookId, left);
    else perWebhook.delete(delivery.webhookId);
  }

  // Finished attempts wait here for the next turn of the event loop. Then ONE transaction records
  // them all and claims the deliveries that take their slots: at a steady rate or through a
  // backlog, a delivery costs a share of one commit instead of a commit to claim and one to record.
  let finished: { delivery: ClaimCandidate; attempt: FinishedAttempt; done: (status: DeliveryStatus | null | Error) => void }[] = [];
  function flush() {
    const batch = finished;
    finished = [];
    let statuses: (DeliveryStatus | null | Error)[] = [];
    let claimed: ClaimCandidate[] = [];
    try {
      inTransaction(deps.db, () => {
        statuses = recordAttempts(deps, retryDelaysMs, batch.map((f) => f.attempt));
        for (const f of batch) release(f.delivery);
        if (state === 'running' && inFlight.size < maxInFlight) claimed = claim();
      });
    } catch (err) {
      // Nothing was written; the attempts' leases make a later sweep send them again.
      for (const f of batch) if (inFlight.has(f.delivery.id)) release(f.delivery);
      statuses = batch.map(() => err as Error);
      wake();
    }
    batch.forEach((f, i) => f.done(statuses[i]!));
    for (const delivery of claimed) send(delivery);
    notifyIfIdle();
  }
  function recordSoon(delivery: ClaimCandidate, attempt: FinishedAttempt): Promise<DeliveryStatus | null> {
    if (finished.length === 0) setImmediate(flush);
    return new Promise((resolve, reject) => finished.push({ delivery, attempt, done: (status) => (status instanceof Error ? reject(status) : resolve(status)) }));
  }

  function send(delivery: ClaimCandidate) {
    const number = delivery.attemptCount + 1;
    const at = deps.clock.now();
    perWebhook.set(delivery.webhookId, (perWebhook.get(delivery.webhookId) ?? 0) + 1);
    const attempt = sender
      .post({
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
        signal: shutdown.signal,
      })
      .then(async (outcome) => {
        // After stop() the database may be closed; the lease makes the next start send it again.
        if (state === 'stopped') {
          release(delivery);
          return;
        }
        const status = await recordSoon(delivery, { deliveryId: delivery.id, webhookId: delivery.webhookId, number, at, outcome });
        const fields = { deliveryId: delivery.id, webhookId: delivery.webhookId, eventId: delivery.eventId, attempt: number, status, responseCode: outcome.responseCode, error: outcome.error, durationMs: outcome.durationMs };
        if (outcome.succeeded) deps.log.debug('webhook delivered', fields);
        else deps.log.warn('webhook attempt failed', fields);
      })
      .catch((err: unknown) => deps.log.error('webhook attempt could not be recorded', { deliveryId: delivery.id, err }))
      .finally(notifyIfIdle);
    inFlight.set(delivery.id, attempt);
  }

  return {
    wake,
    sweep: () => (state === 'running' ? sweep() : 0),
    async idle() {
      // The outbox queues its wake-up as a microtask after a commit; let any such wake-up land first.
      await Promise.resolve();
      if (inFlight.size === 0 && !wakeup) return;
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    stop(graceMs = timeoutMs + 1_000) {
      stopping ??= (async () => {
        state = 'stopping';
        const allSettled = () => Promise.allSettled([...inFlight.values()]);
        let timer: NodeJS.Timeout | undefined;
        const graceOver = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), graceMs);
        });
        const result = await Promise.race([allSettled(), graceOver]);
        clearTimeout(timer);
        if (result === 'late') {
          // Interrupted attempts are recorded as failed and keep their retries; then nothing more is written.
          shutdown.abort();
          await allSettled();
        }
        state = 'stopped';
        sender.close();
        notifyIfIdle();
      })();
      return stopping;
    },
  };
}
