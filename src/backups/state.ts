import path from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { startsAsSqlite } from '../db/file-check';
import { listBackups, type BackupFile } from '../db/file-names';
import { backupRunsRepo } from './repo';

// What the console, the dashboard and /healthz say about backups, read from the backup folder
// itself: the database's record of runs travels with the database, so after a restore (or on a new
// machine) it tells of files that are not there. The record is still what says a run failed.

export interface BackupState {
  /** The newest backup in BACKUP_DIR that is an SQLite file; null when the folder has none. */
  newest: BackupFile | null;
  /** The last run's failure, unless a backup in the folder is newer than it. */
  lastError: { at: number; message: string } | null;
}

/** A backup is missing or too old after this long: the dashboard warns. */
export const BACKUP_STALE_MS = 48 * 3_600_000;

export function backupState(deps: { db: Db; config: Pick<Config, 'backups'> }): BackupState {
  let newest: BackupFile | null = null;
  for (const file of listBackups(deps.config.backups.dir)) {
    try {
      // A file given a backup's name by hand (an empty one, a copy that was cut short) is not one.
      if (file.sizeBytes > 0 && startsAsSqlite(path.join(deps.config.backups.dir, file.name))) {
        newest = file;
        break;
      }
    } catch {
      // Removed or unreadable since the listing: not a backup to count on.
    }
  }
  const last = backupRunsRepo(deps.db).last();
  // Names carry whole seconds: a run is newer than a file when it started after that second.
  const failed = last?.error && (newest === null || newest.at < Math.floor(last.startedAt / 1000) * 1000);
  return { newest, lastError: failed ? { at: last.startedAt, message: last.error! } : null };
}

/** No backup in the folder, or the newest older than BACKUP_STALE_MS. */
export const backupIsStale = (state: BackupState, now: number) => state.newest === null || now - state.newest.at > BACKUP_STALE_MS;
