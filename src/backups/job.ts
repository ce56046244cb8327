import type { AppDeps } from '../deps';
import type { Job } from '../jobs/jobs';
import { backupDue } from './schedule';
import { runBackup } from './service';

/**
 * The daily backup (BACKUP_HOUR in the shop's time zone; `off` turns it off). Looked at every
 * minute rather than scheduled at the hour: the shop's time zone can change in the console, and a
 * server that was off at the hour catches up within a minute of starting, without holding its start.
 */
export function backupJob(deps: AppDeps): Job {
  return {
    name: 'daily-backup',
    schedule: '50 * * * * *',
    catchUpAtStart: false,
    run: async () => (backupDue(deps.db, deps.clock.now(), deps.config.backups.hour) ? await runBackup(deps, 'schedule') : 'not due'),
  };
}
