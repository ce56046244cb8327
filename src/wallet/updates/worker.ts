// Sends what the pass-update queue asks for, after commit and outside any transaction: one APNs
// push per registered Apple device and one PATCH of the Google object. A failure never touches
// the balance; the row is retried later with backoff. A push is only "something changed, ask
// again", so sending one twice after a partial failure is harmless. A card change arrives as one
// card-level row: the worker expands it into per-pass rows a batch at a time (queue.ts
// expandCardChange) and sends the card's Google classes their new name, colour and logo. Each of
// the three is a row queue (queue/row-queue.ts).
import { inTransaction } from '../../db/transaction';
import { cardsRepo } from '../../cards/repo';
import type { Config } from '../../config';
import { customersRepo } from '../../customers/repo';
import type { Db } from '../../db/connection';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/log';
import { createApnsClient, isDeadRegistration, type ApnsClient, type ApnsClientOptions } from '../apple/apns';
import { googleObjectPatch } from '../google/customer-objects';
import { createGoogleTokenSource, type GoogleTokenSource } from '../google/oauth';
import { patchLoyaltyObject } from '../google/objects';
import { refreshInstallStatus } from '../install-status';
import { walletRepo } from '../repo';
import type { WalletServices } from '../services';
import { createRowQueue, type RowQueue } from '../../queue/row-queue';
import { retryDelayMs } from './backoff';
import { cardUpdatesRepo, type ClassUpdateRow } from './card-repo';
import { sendClassUpdate, type ClassUpdateDeps } from './class-updates';
import { expandCardChange } from './queue';
import { passUpdatesRepo, type PassUpdateRow } from './repo';
import { customerPassContent } from '../customer-content';

export interface PassUpdateWorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
  wallet: WalletServices;
}

export interface PassUpdateWorkerOptions {
  /** Extra CAs for the APNs connection (tests talk to a local fake); production uses the system store. */
  apnsCa?: ApnsClientOptions['ca'];
  apnsTimeoutMs?: number;
  googleTimeoutMs?: number;
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
  /** Lets the updates in flight finish (and records them), then closes the APNs session. */
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
  // The Objects API base may be given with or without the documented /walletobjects/v1 suffix.
  const googleApiBase = config.google.objectsApiUrl.replace(/\/walletobjects\/v1\/?$/, '');

  let apns: ApnsClient | undefined;
  const tokens: GoogleTokenSource | undefined = wallet.google
    ? createGoogleTokenSource({ serviceAccount: wallet.google.serviceAccount, now: clock.now, timeoutMs: options.googleTimeoutMs })
    : undefined;
  const classDeps: ClassUpdateDeps = { db, config, wallet, tokens, googleApiBase, ...(options.googleTimeoutMs !== undefined ? { timeoutMs: options.googleTimeoutMs } : {}) };
  const counts: PassUpdateRunResult = { processed: 0, succeeded: 0, failed: 0 };

  function apnsClient(): ApnsClient | undefined {
    const apple = wallet.apple;
    if (!apple) return undefined;
    apns ??= createApnsClient({
      url: config.apple.apnsUrl,
      cert: apple.signerCert,
      key: apple.signerKey,
      ...(apple.signerKeyPassphrase !== undefined ? { passphrase: apple.signerKeyPassphrase } : {}),
      topic: apple.passTypeId,
      ...(config.apple.apnsPushType ? { pushType: config.apple.apnsPushType } : {}),
      ...(options.apnsTimeoutMs !== undefined ? { timeoutMs: options.apnsTimeoutMs } : {}),
      ...(options.apnsCa !== undefined ? { ca: options.apnsCa } : {}),
    });
    return apns;
  }

  /** Pushes to every Apple device holding the pass; returns the failures worth retrying. */
  async function pushApple(customerId: string): Promise<string[]> {
    const client = apnsClient();
    if (!client || !wallet.apple) return [];
    const passTypeId = wallet.apple.passTypeId;
    const pushTokens = [...new Set(walletRepo(db).registrationsOf(customerId, passTypeId).map((r) => r.pushToken))];
    const results = await Promise.all(
      pushTokens.map((token) => client.push(token).then((result) => ({ token, result }), (error: unknown) => ({ token, error: error as Error }))),
    );
    const errors: string[] = [];
    for (const outcome of results) {
      if ('error' in outcome) errors.push(`APNs: ${outcome.error.message}`);
      else if (isDeadRegistration(outcome.result)) dropDeadToken(outcome.token, passTypeId);
      else if (outcome.result.status !== 200) errors.push(`APNs answered ${outcome.result.status}${outcome.result.reason ? ` ${outcome.result.reason}` : ''}`);
    }
    return errors;
  }

  function dropDeadToken(pushToken: string, passTypeId: string): void {
    inTransaction(db, () => {
      for (const customerId of walletRepo(db).deleteRegistrationsByToken(pushToken, passTypeId)) refreshInstallStatus(db, clock, customerId);
    });
    log.info('wallet: APNs reports a dead device; registration removed', { passTypeId });
  }

  /** PATCHes the Google object when a save link for it was handed out. 404: not saved yet. */
  async function patchGoogle(customerId: string): Promise<string[]> {
    if (!wallet.google || !tokens) return [];
    const object = walletRepo(db).googleObjectOf(customerId);
    const customer = customersRepo(db).findByPassUserId(customerId);
    const card = customer && cardsRepo(db).findById(customer.cardId);
    if (!object || !customer || !card) return [];
    try {
      const accessToken = await tokens.getToken();
      const content = customerPassContent(db, card, customer);
      const result = await patchLoyaltyObject({
        objectId: object.objectId,
        patch: googleObjectPatch(content),
        accessToken,
        baseUrl: googleApiBase,
        ...(options.googleTimeoutMs !== undefined ? { timeoutMs: options.googleTimeoutMs } : {}),
      });
      if (result.status === 200 || result.status === 404) return [];
      if (result.status === 401) tokens.invalidate();
      return [`Google answered ${result.status}`];
    } catch (err) {
      return [`Google: ${(err as Error).message}`];
    }
  }

  const passes = createRowQueue<PassUpdateRow, PassOutcome>(deps, {
    name: 'wallet pass updates',
    concurrency: options.inFlight ?? PASS_UPDATES_IN_FLIGHT,
    leaseMs,
    key: (row) => row.customerId,
    claim: ({ now, leaseUntil, limit }) => passRepo.claimDue(now, leaseUntil, limit),
    async work(row) {
      // Deleted customers take their rows with them; this only covers a race with the deletion.
      if (!customersRepo(db).findByPassUserId(row.customerId)) return 'gone';
      return [...(await pushApple(row.customerId)), ...(await patchGoogle(row.customerId))];
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
  const queueDeps = { db, clock, afterCommit: { eventsWritten() {}, passUpdatesQueued: () => passes.wake(), mailQueued() {} } };
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
      await apns?.close();
    },
  };
}
