// Sends what the pass-update queue asks for, after commit and outside any transaction: one APNs
// push per registered Apple device and one PATCH of the Google object. A failure never touches
// the balance; the row is retried later with backoff. A push is only "something changed, ask
// again", so sending one twice after a partial failure is harmless. A card change arrives as one
// card-level row: the worker expands it into per-pass rows a batch at a time (queue.ts
// expandCardChange) and sends the card's Google classes their new name, colour and logo. Each of
// the three is a row queue (queue/row-queue.ts); the connections to the wallets are senders.ts's.
import type { Config } from '../../config';
import { customersRepo } from '../../customers/repo';
import type { Db } from '../../db/connection';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/log';
import type { WalletServices } from '../services';
import { createRowQueue, type RowQueue } from '../../queue/row-queue';
import { retryDelayMs } from './backoff';
import { cardUpdatesRepo, type ClassUpdateRow } from './card-repo';
import { sendClassUpdate, type ClassUpdateDeps } from './class-updates';
import { expandCardChange } from './queue';
import { passUpdatesRepo, type PassUpdateRow } from './repo';
import { createWalletSenders, type WalletSenderOptions, type WalletSenders } from './senders';

export interface PassUpdateWorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
  wallet: WalletServices;
}

export interface PassUpdateWorkerOptions extends WalletSenderOptions {
  /** The connections to the wallets, shared with the other queues that send (main.ts); else the worker makes its own and closes them at stop. */
  senders?: WalletSenders;
  /** How long a claimed row is ours; after a crash the sweep takes it up again once this passes. */
  leaseMs?: number;
  /** Passes updated at once (each pushes to all of its devices together). */
  inFlight?: number;
}

export interface PassUpdateRunResult {
  processed: number;
  succeeded: number;
  failed: number;
}

export interface PassUpdateWorker {
  /** After a commit that queued updates: start sending now (fire and forget). */
  wake(): void;
  /** Sends every due update; resolves when the queue has nothing due (cron sweep, tests). */
  runDue(): Promise<PassUpdateRunResult>;
  /** Resolves once no update is under way (e.g. after a wake-up). */
  idle(): Promise<void>;
  /** Lets the updates in flight finish (and records them), then closes the APNs session unless it was given. */
  stop(): Promise<void>;
}

/** Passes waiting for their push or PATCH (due now or waiting for a retry): /healthz's passUpdateBacklog. */
export function passUpdateBacklog(db: Db): number {
  return passUpdatesRepo(db).pendingCount();
}

/**
 * Passes updated at once: a card change's thousands of pushes share the one APNs connection (HTTP/2
 * streams) without waiting on one round trip at a time, and Google sees a handful of PATCHes at once.
 */
const PASS_UPDATES_IN_FLIGHT = 8;

/** The errors worth retrying (none: done), or 'gone' when the customer was deleted meanwhile. */
type PassOutcome = string[] | 'gone';

const errorsOf = (outcome: PromiseSettledResult<string[]>): string[] => (outcome.status === 'fulfilled' ? outcome.value : [String((outcome.reason as Error)?.message ?? outcome.reason)]);

export function createPassUpdateWorker(deps: PassUpdateWorkerDeps, options: PassUpdateWorkerOptions = {}): PassUpdateWorker {
  const { db, clock, log, config, wallet } = deps;
  const passRepo = passUpdatesRepo(db);
  const cardRepo = cardUpdatesRepo(db);
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const senders = options.senders ?? createWalletSenders(deps, options);
  const classDeps: ClassUpdateDeps = {
    db,
    config,
    wallet,
    tokens: senders.tokens,
    googleApiBase: senders.googleApiBase,
    ...(options.googleTimeoutMs !== undefined ? { timeoutMs: options.googleTimeoutMs } : {}),
  };
  const counts: PassUpdateRunResult = { processed: 0, succeeded: 0, failed: 0 };
  const passes = createRowQueue<PassUpdateRow, PassOutcome>(deps, {
    name: 'wallet pass updates',
    concurrency: options.inFlight ?? PASS_UPDATES_IN_FLIGHT,
    leaseMs,
    key: (row) => row.customerId,
    claim: ({ now, leaseUntil, limit }) => passRepo.claimDue(now, leaseUntil, limit),
    async work(row) {
      // Deleted customers take their rows with them; this only covers a race with the deletion.
      if (!customersRepo(db).findByPassUserId(row.customerId)) return 'gone';
      return [...(await senders.pushApple(row.customerId)).errors, ...(await senders.patchGoogle(row.customerId))];
    },
    record(row, outcome, now) {
      counts.processed += 1;
      if (outcome.status === 'fulfilled' && outcome.value === 'gone') {
        passRepo.remove(row.customerId);
        counts.succeeded += 1;
        return;
      }
      const errors = errorsOf(outcome as PromiseSettledResult<string[]>);
      if (errors.length === 0) {
        // Unless a newer change arrived meanwhile: then the row stays, due again.
        passRepo.complete(row.customerId, row.generation, now);
        counts.succeeded += 1;
        return;
      }
      const delay = retryDelayMs(row.attempts + 1);
      passRepo.fail(row.customerId, delay === null ? null : now + delay, errors.join('; '), now);
      counts.failed += 1;
      log.warn('wallet: pass update failed', { customerId: row.customerId, attempt: row.attempts + 1, retryInMs: delay, errors });
    },
    backlog: () => passUpdateBacklog(db),
  });

  /** A card change sent to Google's classes; a failure is retried later with the same backoff. */
  const classes = createRowQueue<ClassUpdateRow, string[]>(deps, {
    name: 'wallet card classes',
    concurrency: 1,
    leaseMs,
    key: (row) => row.cardId,
    claim: ({ now, leaseUntil, limit }) => cardRepo.claimDueClasses(now, leaseUntil, limit),
    work: (row) => sendClassUpdate(classDeps, row.cardId),
    record(row, outcome, now) {
      const errors = errorsOf(outcome);
      if (errors.length === 0) return cardRepo.completeClass(row.cardId, row.generation, now);
      const delay = retryDelayMs(row.attempts + 1);
      cardRepo.failClass(row.cardId, delay === null ? null : now + delay, errors.join('; '), now);
      log.warn('wallet: card class update failed', { cardId: row.cardId, attempt: row.attempts + 1, retryInMs: delay, errors });
    },
    backlog: () => cardRepo.pendingClasses(),
  });

  // Expanding a card change queues pass updates, and wakes their queue after each batch's commit.
  const queueDeps = { db, clock, afterCommit: { eventsWritten() {}, passUpdatesQueued: () => passes.wake(), mailQueued() {}, messagesQueued() {} } };
  /**
   * A card change becomes per-pass rows, one batch of customers per round (expandCardChange). It
   * needs no lease: each batch is one transaction that reads the card's position and moves it on,
   * so two workers could only take turns, each customer once.
   */
  const fanouts = createRowQueue<{ cardId: string }, void>(deps, {
    name: 'wallet card fan-outs',
    concurrency: 1,
    leaseMs,
    key: (row) => row.cardId,
    claim: () => {
      const next = cardRepo.nextFanout();
      return next ? [{ cardId: next.cardId }] : [];
    },
    // Expanding a card of 100,000 customers takes hundreds of rounds: requests are served in between.
    work: () => new Promise<void>((resolve) => setImmediate(resolve)),
    record: () => void expandCardChange(queueDeps),
    backlog: () => cardRepo.pendingFanouts(),
  });

  const queues: RowQueue[] = [fanouts, classes, passes];
  const busy = () => queues.some((q) => q.busy());
  async function idle(): Promise<void> {
    // One queue's outcome can wake another (a fan-out batch queues passes): wait until all rest.
    do await Promise.all(queues.map((q) => q.idle()));
    while (busy());
  }

  return {
    wake() {
      for (const q of queues) q.wake();
    },
    async runDue() {
      const before = { ...counts };
      for (;;) {
        const started = queues.reduce((n, q) => n + q.sweep(), 0);
        if (started === 0 && !busy()) break;
        await idle();
      }
      return { processed: counts.processed - before.processed, succeeded: counts.succeeded - before.succeeded, failed: counts.failed - before.failed };
    },
    idle,
    async stop() {
      await Promise.all(queues.map((q) => q.stop()));
      if (!options.senders) await senders.close();
    },
  };
}
