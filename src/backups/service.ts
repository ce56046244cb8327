import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { inTransaction } from '../db/transaction';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import { copyDatabaseOffThread } from './integrity-worker';
import { BACKUP_NAME, BEFORE_SCHEMA_NAME, backupName, keepNewest, KEPT_COPIES, REPLACED_NAME } from '../db/file-names';
import { createPrivateFile, privateDir } from '../lib/private-files';
import { backupRunsRepo, type BackupRun, type StartedBy } from './repo';

// The server's own backups (docs/backups.md#daily-backups): a consistent online copy of the live database into
// BACKUP_DIR, checked, then the oldest beyond BACKUP_KEEP removed. A failure is logged and recorded
// (the console shows it) and never reaches a request: the server keeps serving.

export interface BackupDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Pick<Config, 'backups' | 'dataDir'>;
}

/** One backup at a time per database: the console's button during the nightly run waits for that run. */
const running = new WeakMap<Db, Promise<BackupRun>>();

export function runBackup(deps: BackupDeps, startedBy: StartedBy): Promise<BackupRun> {
  const current = running.get(deps.db);
  if (current) return current;
  const run = makeBackup(deps, startedBy).finally(() => running.delete(deps.db));
  running.set(deps.db, run);
  return run;
}

async function makeBackup(deps: BackupDeps, startedBy: StartedBy): Promise<BackupRun> {
  const { dir, keep } = deps.config.backups;
  const startedAt = deps.clock.now();
  // Two backups within a second (the button pressed twice) would share a name: the later one takes
  // the next free second, so names stay unique and still sort by time.
  let at = startedAt;
  while (existsSync(path.join(dir, backupName(at)))) at += 1000;
  const name = backupName(at);
  const partial = path.join(dir, `.${name}.partial`);
  let run: BackupRun;
  try {
    privateDir(dir);
    await writeCheckedCopy(deps.db, partial, path.join(dir, name));
    run = { startedBy, startedAt, finishedAt: deps.clock.now(), file: name, sizeBytes: statSync(path.join(dir, name)).size, error: null };
  } catch (err) {
    try {
      rmSync(partial, { force: true });
    } catch {
      // The folder itself is the problem (a file in its place): there is no partial copy.
    }
    run = { startedBy, startedAt, finishedAt: deps.clock.now(), file: null, sizeBytes: null, error: (err as Error).message };
  }
  const removed = run.error ? [] : rotate(deps.config, keep, deps.log);
  try {
    inTransaction(deps.db, () => backupRunsRepo(deps.db).record(run));
  } catch (err) {
    deps.log.error('backup: could not record the run', { err });
  }
  if (run.error) deps.log.error('backup failed', { dir, error: run.error, startedBy });
  else deps.log.info('backup written', { file: path.join(dir, run.file!), sizeBytes: run.sizeBytes, removed, startedBy });
  return run;
}

/**
 * A consistent copy of the live database at `target`, integrity-checked and self-contained, written
 * through `partial` and renamed into place: the target is never a half-written file. The copy is a
 * snapshot of the moment it starts; the server goes on answering and writing meanwhile.
 */
export async function writeCheckedCopy(db: Db, partial: string, target: string): Promise<void> {
  // Readable by the server's user only, as the database is (SQLite would create it 644).
  createPrivateFile(partial);
  await copyDatabaseOffThread(db.name, partial);
  renameSync(partial, target);
}

/**
 * After a backup: the newest `keep` backups stay, and the newest KEPT_COPIES of the copies made
 * before a schema upgrade (in the backup folder) and of the databases a restore replaced (in the
 * data folder). Only files named so are ever removed: a file of the operator's stays.
 */
function rotate(config: Pick<Config, 'backups' | 'dataDir'>, keep: number, log: Logger): string[] {
  const warn = (file: string, err: unknown) => log.warn('backup: could not remove an old copy', { file, err });
  return [
    ...keepNewest(config.backups.dir, BACKUP_NAME, keep, warn),
    ...keepNewest(config.backups.dir, BEFORE_SCHEMA_NAME, KEPT_COPIES, warn),
    ...keepNewest(config.dataDir, REPLACED_NAME, KEPT_COPIES, warn),
  ];
}
