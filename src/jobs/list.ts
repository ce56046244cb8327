import { optimizeDatabase } from '../db/maintenance';
import type { AppDeps } from '../deps';
import { sweepTestCustomers } from '../customers/test-mode';
import { sweepIdempotencyKeys } from '../idempotency/service';
import { sweepWebhookHistory } from '../webhooks/history';
import type { DeliveryWorker } from '../webhooks/worker';
import type { PassUpdateWorker } from '../wallet/updates/worker';
import type { MailWorker } from '../mail/worker';
import { sweepGoogleNonces } from '../wallet/sweeps';
import type { Job } from './jobs';
import { CONSOLE_SESSIONS, sweepSessions } from '../web/sessions';
import { COUNTER_SESSIONS_SWEEP } from '../counter/session';
import { sweepFailures } from '../web/throttle';
import { backupJob } from '../backups/job';
import { importRunner } from '../import/runner';
import { sweepImportDrafts } from '../import/service';
import { mergeSearchIndexIfErased } from '../privacy/search-merge';
import { runLoyaltySweeps } from '../sweeps/run';

/** Long-lived workers some jobs drive, besides their own after-commit wake-ups. */
export interface ServerWorkers {
  webhooks: Pick<DeliveryWorker, 'sweep'>;
  passUpdates: Pick<PassUpdateWorker, 'wake'>;
  mail: Pick<MailWorker, 'sweep'>;
}

/** Every scheduled job of the server, in one list. */
export function serverJobs(deps: AppDeps, workers: ServerWorkers): Job[] {
  return [
    {
      // Due retries, expired leases (a crashed or killed server's claims) and deliveries written by
      // another process. The query is one index probe, so every second costs nothing.
      name: 'webhook-deliveries',
      schedule: '* * * * * *',
      run: () => ({ started: workers.webhooks.sweep() }),
    },
    // Retries that came due, and rows whose worker died holding them (expired lease). A wake, not
    // an awaited run: a slow APNs must hold up neither the start nor the next tick.
    { name: 'wallet-pass-updates', schedule: '* * * * *', run: () => workers.passUpdates.wake() },
    // Mail retries that came due, import batches' throttled rows, and leases of a stopped server.
    { name: 'mail-sends', schedule: '*/5 * * * * *', run: () => ({ started: workers.mail.sweep() }) },
    { name: 'wallet-nonce-sweep', schedule: '23 * * * *', run: () => ({ deleted: sweepGoogleNonces(deps) }) },
    { name: 'idempotency-sweep', schedule: '*/10 * * * *', run: () => ({ deleted: sweepIdempotencyKeys(deps) }) },
    // Delivery history is kept 30 days; every minute (at second 30), a bounded amount per run.
    { name: 'webhook-history-sweep', schedule: '30 * * * * *', run: () => sweepWebhookHistory(deps) },
    // Test customers live 30 days; hourly keeps them at most an hour past that.
    { name: 'test-customer-sweep', schedule: '41 * * * *', run: () => ({ removed: sweepTestCustomers(deps) }) },
    // Ended sessions and old failed sign-ins: refused anyway, removed so the tables stay small.
    { name: 'session-sweep', schedule: '29 * * * *', run: () => ({ sessions: sweepSessions(deps, [CONSOLE_SESSIONS, COUNTER_SESSIONS_SWEEP]), failures: sweepFailures(deps, 24 * 3_600_000) }) },
    // Started imports, at start too: one interrupted by a restart goes on where its last chunk ended.
    { name: 'customer-imports', schedule: '* * * * *', run: () => importRunner(deps).wake() },
    { name: 'import-draft-sweep', schedule: '37 * * * *', run: () => ({ deleted: sweepImportDrafts(deps) }) },
    // Not at start: the planner's statistics can wait for their hour.
    { name: 'database-maintenance', schedule: '17 * * * *', catchUpAtStart: false, run: () => optimizeDatabase(deps.db) },
    backupJob(deps),
    // An erased customer's words leave the search index in a merge after the erasure; one cut
    // short by a stop is finished at the next start (not awaited: it runs in steps meanwhile).
    { name: 'search-index-merge', schedule: '43 4 * * *', run: () => mergeSearchIndexIfErased(deps) },
    // The loyalty programme: units that expired, reminders of those about to, birthday treats. Each
    // run catches up on everything due since the last one; at start too, for the time it was down.
    { name: 'loyalty-sweeps', schedule: '7 * * * *', run: () => runLoyaltySweeps(deps) },
  ];
}
