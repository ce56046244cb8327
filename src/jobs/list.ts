import type { AppDeps } from '../http/deps';
import { sweepIdempotencyKeys } from '../idempotency/service';
import type { PassUpdateWorker } from '../wallet/updates/worker';
import { sweepGoogleNonces } from '../wallet/sweeps';
import type { Job } from './jobs';

/** Background workers the jobs drive besides their own after-commit wake-ups. */
export interface ServerWorkers {
  passUpdates: Pick<PassUpdateWorker, 'wake'>;
}

/** Every scheduled job of the server, in one list. */
export function serverJobs(deps: AppDeps, workers: ServerWorkers): Job[] {
  return [
    // Retries that came due, and rows whose worker died holding them (expired lease). A wake, not
    // an awaited run: a slow APNs must hold up neither the start nor the next tick.
    { name: 'wallet-pass-updates', schedule: '* * * * *', run: () => workers.passUpdates.wake() },
    { name: 'wallet-nonce-sweep', schedule: '23 * * * *', run: () => ({ deleted: sweepGoogleNonces(deps) }) },
    { name: 'idempotency-sweep', schedule: '*/10 * * * *', run: () => ({ deleted: sweepIdempotencyKeys(deps) }) },
    {
      // Keeps the WAL file from growing without bound on a quiet machine and refreshes planner statistics.
      name: 'database-maintenance',
      schedule: '17 * * * *',
      run: () => {
        deps.db.pragma('wal_checkpoint(TRUNCATE)');
        deps.db.pragma('optimize');
      },
    },
  ];
}
