import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export type StartedBy = 'schedule' | 'console';

export interface BackupRun {
  startedBy: StartedBy;
  startedAt: number;
  finishedAt: number;
  /** The file's name in BACKUP_DIR; null when nothing was kept. */
  file: string | null;
  sizeBytes: number | null;
  /** Null: written and integrity-checked. */
  error: string | null;
}

interface RawRun {
  started_by: StartedBy;
  started_at: number;
  finished_at: number;
  file: string | null;
  size_bytes: number | null;
  error: string | null;
}

const map = (r: RawRun): BackupRun => ({ startedBy: r.started_by, startedAt: r.started_at, finishedAt: r.finished_at, file: r.file, sizeBytes: r.size_bytes, error: r.error });

/** Runs kept for the console's history; older ones say nothing the files do not. */
const KEPT_RUNS = 100;

function createBackupRunsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO backup_runs (started_by, started_at, finished_at, file, size_bytes, error)
     VALUES (@startedBy, @startedAt, @finishedAt, @file, @sizeBytes, @error)`,
  );
  const trim = db.prepare('DELETE FROM backup_runs WHERE id <= (SELECT max(id) FROM backup_runs) - @kept');
  const last = db.prepare<[], RawRun>('SELECT * FROM backup_runs ORDER BY id DESC LIMIT 1');
  const lastStart = db.prepare<[], { at: number | null }>('SELECT max(started_at) AS at FROM backup_runs');
  return {
    record(run: BackupRun) {
      insert.run(run);
      trim.run({ kept: KEPT_RUNS });
    },
    last: (): BackupRun | undefined => {
      const row = last.get();
      return row && map(row);
    },
    lastStartedAt: (): number | null => lastStart.get()!.at,
  };
}

export const backupRunsRepo = perConnection(createBackupRunsRepo);
