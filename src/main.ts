import type { Server } from 'node:http';
import type { Config } from './config';
import { checkpointOffThread } from './db/checkpoints';
import { openDatabase, type Db } from './db/open';
import { createApp, createHttpServer } from './http/app';
import type { AppDeps, AfterCommitHooks, ChangeHooks } from './deps';
import { importRunner } from './import/runner';
import { runJob, startJobs } from './jobs/jobs';
import { serverJobs } from './jobs/list';
import { systemClock, type Clock } from './lib/clock';
import { createLogger, type Logger } from './lib/log';
import { createDemoOrgIfEmpty, type DemoCredentials } from './seed/demo';
import { fanOutToWebhooks } from './webhooks/fanout';
import { createDeliveryWorker } from './webhooks/worker';
import { loadWalletServices, missingWalletSettings, publicUrlWarning, type WalletServices } from './wallet/services';
import { queueCardUpdate, queueOrgUpdate, queuePassUpdate } from './wallet/updates/queue';
import { createPassUpdateWorker } from './wallet/updates/worker';
import { createWalletSenders } from './wallet/updates/senders';
import { createMessageWorker } from './messages/worker';
import { createMailWorker } from './mail/worker';
import { removeTestCustomersOfCard } from './customers/test-mode';
import { resetBirthdays } from './customers/birthdays';
import { movedDataWarning } from './backups/moved-data';
import { MAIL_TLS_OFF_WARNING, mailSetup } from './mail/service';

/** How long a shutdown waits for open requests before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 5000;

/**
 * How features take their share of each other's changes, inside the change's transaction (see
 * ChangeHooks): the outbox and the ledger announce, webhooks and the wallet write their rows. Wired
 * here so no feature imports another; the test harness, the bench and every other process that
 * writes take their hooks from this one function, so none runs without fan-out or pass updates.
 */
export function changeHooks(): ChangeHooks {
  return {
    eventEmitted: (deps, event) => void fanOutToWebhooks(deps, event),
    balanceChanged: (deps, customerId) => queuePassUpdate(deps, customerId),
    cardChanged: (deps, cardId) => queueCardUpdate(deps, cardId),
    orgPassesChanged: (deps, orgId) => queueOrgUpdate(deps, orgId),
    cardDeleting: (deps, cardId) => removeTestCustomersOfCard(deps, cardId),
    birthdayQuestionChanged: (deps, cardId, questionKey) => resetBirthdays(deps, cardId, questionKey),
  };
}

export interface RunningServer {
  url: string;
  db: Db;
  demo: DemoCredentials | null;
  stop(): Promise<void>;
}

/** Composition root: config → db → app → background work. Returns once the server listens. */
export async function startServer(config: Readonly<Config>, options: { clock?: Clock; log?: Logger } = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  // Wallet credentials first: a broken setting stops the start before anything is opened.
  const wallet = loadWalletServices(config, clock);
  logWalletState(wallet, log, clock);
  const mailSettings = mailSetup(config);
  log.info('email', mailSettings ?? { state: 'off: set SMTP_URL and MAIL_FROM to send customers their cards (README, "Email")' });
  if (mailSettings?.tls === 'off') log.warn(`email: ${MAIL_TLS_OFF_WARNING}`);
  const urlWarning = publicUrlWarning(config, wallet);
  if (urlWarning) log.warn(urlWarning);
  const moved = movedDataWarning(config, process.cwd());
  if (moved) log.warn(moved);
  const db = openDatabase(config.dbFile, { synchronous: config.dbSynchronous, backupDir: config.backups.dir, log, clock });
  // Bulk work's checkpoints (imports, the search index's merge, the sweeps) off the event loop.
  const closeCheckpoints = checkpointOffThread(db, log);
  const webhooks = createDeliveryWorker({ db, clock, log, config });
  // One APNs connection and one Google token for the pass updates and the shop's messages.
  const senders = createWalletSenders({ db, clock, log, config, wallet });
  const passUpdates = createPassUpdateWorker({ db, clock, log, config, wallet }, { senders });
  const messages = createMessageWorker({ db, clock, log }, senders);
  const mail = createMailWorker({ db, clock, log, config });
  // A committed change reaches a healthy receiver (and a wallet) at once; the sweep jobs are the safety net.
  const afterCommit: AfterCommitHooks = {
    eventsWritten: () => webhooks.wake(),
    passUpdatesQueued: () => passUpdates.wake(),
    mailQueued: () => mail.wake(),
    messagesQueued: () => messages.wake(),
  };
  const deps: AppDeps = { db, clock, log, config, afterCommit, onChange: changeHooks() };

  // Listen first: if the port is taken, nothing is written — in particular no demo org whose
  // credentials would never be shown (they are printed once, after a successful start).
  const app = createApp(deps, { wallet });
  let server: Server;
  try {
    server = await new Promise((resolve, reject) => {
      const s = createHttpServer(app).listen(config.port, config.host, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    await closeCheckpoints();
    db.close();
    throw err;
  }

  const demo = await createDemoOrgIfEmpty(deps);
  const jobs = serverJobs(deps, { webhooks, passUpdates, mail, messages });
  // Catch up on whatever was due while the server was down, then keep to the schedule.
  for (const job of jobs) if (job.catchUpAtStart !== false) await runJob(job, log);
  const scheduler = startJobs(jobs, log);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  let stopping: Promise<void> | null = null;
  return {
    url,
    db,
    demo,
    stop() {
      stopping ??= (async () => {
        await scheduler.stop();
        await new Promise<void>((resolve) => {
          // A client that stalls mid-request (a body that never completes) would hold the close
          // for minutes (Node's requestTimeout), until a supervisor kills the process with the
          // database open. After a short grace its connection is cut; a request whose body never
          // arrived has written nothing.
          const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
          server.close(() => {
            clearTimeout(cut);
            resolve();
          });
          server.closeIdleConnections();
        });
        // After the last request, each row queue stops (queue/row-queue.ts): work in flight finishes,
        // or is cut off after its grace, and every outcome is recorded before the database closes
        // (a mail accepted now is never sent again); an import's chunk in progress commits.
        await Promise.all([webhooks.stop(), passUpdates.stop(), messages.stop(), mail.stop(), importRunner(deps).stop()]);
        // The wallet connections outlive the two queues that send through them.
        await senders.close();
        await closeCheckpoints();
        db.close();
      })();
      return stopping;
    },
  };
}

function logWalletState(wallet: WalletServices, log: Logger, clock: Clock): void {
  log.info('wallet passes', { apple: wallet.apple ? wallet.apple.passTypeId : 'off', google: wallet.google ? wallet.google.issuerId : 'off' });
  const missing = missingWalletSettings(wallet);
  const off = [missing.apple.length ? 'Apple Wallet' : '', missing.google.length ? 'Google Wallet' : ''].filter(Boolean);
  if (off.length) {
    log.info(`wallet: set these to issue ${off.join(' and ')} passes; until then customers are offered the web pass (see "Wallet passes" in the README)`, { missingSettings: missing });
  }
  const expires = wallet.apple?.certificateNotAfter.getTime();
  // Apple pass certificates last a year; an expired one silently stops every pass update.
  if (expires !== undefined && expires - clock.now() < 30 * 24 * 3600_000) {
    log.warn('wallet: the Apple pass certificate expires soon; renew it in the developer portal', { expires: new Date(expires).toISOString() });
  }
}
