import { setMaxListeners } from 'node:events';
import type { Config } from '../config';
import type { Db } from '../db/open';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import { deliveriesRepo, type ClaimCandidate } from './deliveries-repo';
import { leaseMs } from './policy';
import { recordAttempt } from './record';
import { postWebhook } from './send';
import { signatureHeader } from './signature';

export interface WorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
}

export interface WorkerOptions {
  /** Attempts in flight at once, over all endpoints. */
  maxInFlight?: number;
  /** Attempts in flight at once to one endpoint: a slow endpoint holds at most this many slots. */
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

const BATCH = 100;

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
  const perEndpoint = options.perEndpoint ?? 4;
  const { timeoutMs, retryDelaysMs, blockPrivate } = deps.config.webhooks;
  const repo = deliveriesRepo(deps.db);

  const inFlight = new Map<string, Promise<void>>();
  const perWebhook = new Map<string, number>();
  const shutdown = new AbortController();
  // Every attempt in flight listens on this one signal; up to maxInFlight listeners is the design,
  // not a leak, so Node's default of 10 must not print a "possible memory leak" warning.
  setMaxListeners(maxInFlight + 1, shutdown.signal);
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  let wakeup: NodeJS.Immediate | null = null;
  let idleWaiters: (() => void)[] = [];
  let stopping: Promise<void> | null = null;

  function notifyIfIdle() {
    if (inFlight.size > 0 || wakeup !== null) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function wake() {
    if (state !== 'running' || wakeup !== null) return;
    wakeup = setImmediate(() => {
      wakeup = null;
      sweep();
      notifyIfIdle();
    });
  }

  /** One transaction: pick due rows with room for them and lease them. */
  function claim(): ClaimCandidate[] {
    return deps.db.transaction(() => {
      const now = deps.clock.now();
      const full = [...perWebhook].filter(([, n]) => n >= perEndpoint).map(([id]) => id);
      const candidates = repo.due({ now, inFlight: [...inFlight.keys()], fullWebhooks: full, limit: BATCH });
      const counts = new Map(perWebhook);
      const taken: ClaimCandidate[] = [];
      for (const candidate of candidates) {
        if (inFlight.size + taken.length >= maxInFlight) break;
        const n = counts.get(candidate.webhookId) ?? 0;
        if (n >= perEndpoint) continue;
        counts.set(candidate.webhookId, n + 1);
        repo.lease(candidate.id, now + leaseMs(timeoutMs));
        taken.push(candidate);
      }
      return taken;
    })();
  }

  function sweep(): number {
    let started = 0;
    try {
      // Repeat while claims succeed: endpoints that filled up drop out of the next query,
      // so rows of other endpoints behind them in the order still get their turn.
      while (state === 'running' && inFlight.size < maxInFlight) {
        const claimed = claim();
        if (claimed.length === 0) break;
        for (const delivery of claimed) send(delivery);
        started += claimed.length;
      }
    } catch (err) {
      deps.log.error('webhook sweep failed', { err });
    }
    return started;
  }

  function send(delivery: ClaimCandidate) {
    const number = delivery.attemptCount + 1;
    const at = deps.clock.now();
    perWebhook.set(delivery.webhookId, (perWebhook.get(delivery.webhookId) ?? 0) + 1);
    const attempt = postWebhook({
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
      .then((outcome) => {
        // After stop() the database may be closed; the lease makes the next start send it again.
        if (state === 'stopped') return;
        const status = recordAttempt(deps, retryDelaysMs, { deliveryId: delivery.id, webhookId: delivery.webhookId, number, at, outcome });
        const fields = { deliveryId: delivery.id, webhookId: delivery.webhookId, eventId: delivery.eventId, attempt: number, status, responseCode: outcome.responseCode, error: outcome.error, durationMs: outcome.durationMs };
        if (outcome.succeeded) deps.log.debug('webhook delivered', fields);
        else deps.log.warn('webhook attempt failed', fields);
      })
      .catch((err: unknown) => deps.log.error('webhook attempt could not be recorded', { deliveryId: delivery.id, err }))
      .finally(() => {
        inFlight.delete(delivery.id);
        const left = (perWebhook.get(delivery.webhookId) ?? 1) - 1;
        if (left > 0) perWebhook.set(delivery.webhookId, left);
        else perWebhook.delete(delivery.webhookId);
        // A slot is free: rows that waited for room (or a retry due at once) go now.
        wake();
        notifyIfIdle();
      });
    inFlight.set(delivery.id, attempt);
  }

  return {
    wake,
    sweep: () => (state === 'running' ? sweep() : 0),
    async idle() {
      // The outbox queues its wake-up as a microtask after a commit; let any such wake-up land first.
      await Promise.resolve();
      if (inFlight.size === 0 && wakeup === null) return;
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    stop(graceMs = timeoutMs + 1_000) {
      stopping ??= (async () => {
        state = 'stopping';
        if (wakeup) clearImmediate(wakeup);
        wakeup = null;
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
        notifyIfIdle();
      })();
      return stopping;
    },
  };
}
