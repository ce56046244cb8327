// Sends what the pass-update queue asks for, after commit and outside any transaction: one APNs
// push per registered Apple device and one PATCH of the Google object. A failure never touches
// the balance; the row is retried later with backoff. A push is only "something changed, ask
// again", so sending one twice after a partial failure is harmless. A card change arrives as one
// card-level row: the worker expands it into per-pass rows a batch at a time (queue.ts
// expandCardChange) and sends the card's Google classes their new name, colour and logo.
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
  batchSize?: number;
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
  /** Resolves once no run is under way (e.g. after a wake-up). */
  idle(): Promise<void>;
  /** Lets the current update finish, hands back unstarted claims, closes the APNs session. */
  stop(): Promise<void>;
}

export function createPassUpdateWorker(deps: PassUpdateWorkerDeps, options: PassUpdateWorkerOptions = {}): PassUpdateWorker {
  const { db, clock, log, config, wallet } = deps;
  const queue = passUpdatesRepo(db);
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const batchSize = options.batchSize ?? 25;
  // The Objects API base may be given with or without the documented /walletobjects/v1 suffix.
  const googleApiBase = config.google.objectsApiUrl.replace(/\/walletobjects\/v1\/?$/, '');

  let apns: ApnsClient | undefined;
  const tokens: GoogleTokenSource | undefined = wallet.google
    ? createGoogleTokenSource({ serviceAccount: wallet.google.serviceAccount, now: clock.now, timeoutMs: options.googleTimeoutMs })
    : undefined;

  let draining: Promise<PassUpdateRunResult> | null = null;
  let again = false;
  let stopped = false;
  const cardQueue = cardUpdatesRepo(db);
  const classDeps: ClassUpdateDeps = { db, config, wallet, tokens, googleApiBase, ...(options.googleTimeoutMs !== undefined ? { timeoutMs: options.googleTimeoutMs } : {}) };
  // Expanding a card change queues pass updates; this worker is the one that sends them, and its
  // drain looks again on its own, so the wake-up it would get is not needed.
  const queueDeps = { db, clock, afterCommit: { eventsWritten() {}, passUpdatesQueued() {}, mailQueued() {} } };

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

  async function processRow(row: PassUpdateRow): Promise<boolean> {
    if (!customersRepo(db).findByPassUserId(row.customerId)) {
      // Deleted customers take their rows with them; this only covers a race with the deletion.
      inTransaction(db, () => queue.remove(row.customerId));
      return true;
    }
    const errors = [...(await pushApple(row.customerId)), ...(await patchGoogle(row.customerId))];
    const now = clock.now();
    if (errors.length === 0) {
      queue.complete(row.customerId, row.generation, now);
      return true;
    }
    const delay = retryDelayMs(row.attempts + 1);
    inTransaction(db, () => queue.fail(row.customerId, delay === null ? null : now + delay, errors.join('; '), now));
    log.warn('wallet: pass update failed', { customerId: row.customerId, attempt: row.attempts + 1, retryInMs: delay, errors });
    return false;
  }

  /** Sends a card change to Google's classes; a failure is retried later with backoff. */
  async function processClass(row: ClassUpdateRow): Promise<void> {
    const errors = await sendClassUpdate(classDeps, row.cardId);
    const now = clock.now();
    if (errors.length === 0) return cardQueue.completeClass(row.cardId, row.generation, now);
    const delay = retryDelayMs(row.attempts + 1);
    inTransaction(db, () => cardQueue.failClass(row.cardId, delay === null ? null : now + delay, errors.join('; '), now));
    log.warn('wallet: card class update failed', { cardId: row.cardId, attempt: row.attempts + 1, retryInMs: delay, errors });
  }

  async function drain(): Promise<PassUpdateRunResult> {
    const result: PassUpdateRunResult = { processed: 0, succeeded: 0, failed: 0 };
    do {
      again = false;
      for (;;) {
        if (stopped) return result;
        // A card change first becomes per-pass rows, one batch of customers per round. Everything
        // is claimed before the first await, so a change committed meanwhile finds its row leased.
        const expanded = expandCardChange(queueDeps);
        const now = clock.now();
        const [classRow] = cardQueue.claimDueClasses(now, now + leaseMs, 1);
        const batch = queue.claimDue(now, now + leaseMs, batchSize);
        if (!expanded && !classRow && batch.length === 0) break;
        if (classRow) await processClass(classRow);
        for (const [i, row] of batch.entries()) {
          if (stopped) {
            // Hand the rest back at once instead of leaving them leased until the lease expires.
            inTransaction(db, () => batch.slice(i).forEach((r) => queue.releaseLease(r.customerId, clock.now())));
            return result;
          }
          const ok = await processRow(row);
          result.processed += 1;
          if (ok) result.succeeded += 1;
          else result.failed += 1;
        }
        // Expanding a card of 100,000 customers takes hundreds of rounds: let requests in between.
        if (expanded) await new Promise((resolve) => setImmediate(resolve));
      }
    } while (again);
    return result;
  }

  function runDue(): Promise<PassUpdateRunResult> {
    if (stopped) return Promise.resolve({ processed: 0, succeeded: 0, failed: 0 });
    if (draining) {
      // A drain is under way: make it look once more before it finishes, and wait for it.
      again = true;
      return draining;
    }
    draining = drain().finally(() => {
      draining = null;
    });
    return draining;
  }

  return {
    wake() {
      runDue().catch((err: unknown) => log.error('wallet: pass update run failed', { err }));
    },
    runDue,
    async idle() {
      // A committed change wakes the worker from a microtask; let any such wake-up land first.
      await Promise.resolve();
      while (draining) await draining.catch(() => undefined);
    },
    async stop() {
      stopped = true;
      await draining?.catch(() => undefined);
      await apns?.close();
    },
  };
}
