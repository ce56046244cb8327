import Database from 'better-sqlite3';
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { latestVersion } from '../db/migrate';
import type { Clock } from '../lib/clock';
import { DatabaseFileError, sealDatabaseCopy } from '../db/file-check';
import { keepNewest, KEPT_COPIES, REPLACED_NAME, replacedName, utcStamp } from '../db/file-names';
import { makePrivate, privateDir } from '../lib/private-files';

// `wallet-loyalty restore <file>` (docs/backups.md#restore): every refusal leaves the data folder as it was.

export class RestoreError extends Error {}

/**
 * Holds the database with an exclusive lock, or says who else has it open. A server, a Litestream
 * replicating it, a CLI command: each holds SQLite's shared lock on the file for as long as its
 * connection is open (WAL mode keeps it), and the operating system drops it when the process ends,
 * even on kill -9. So this asks SQLite's own locks, which cannot go stale the way a pid file can.
 * Null when the file is not a readable database at all (what a restore is often for): no server
 * can be running on it either.
 */
function takeExclusively(dbFile: string): Database.Database | null {
  const db = new Database(dbFile, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (err) {
    db.close();
    const code = (err as { code?: string }).code ?? '';
    if (code === 'SQLITE_BUSY') {
      throw new RestoreError(`${dbFile} is open in another program (a running server, or Litestream): stop it first (e.g. systemctl stop wallet-loyalty), then restore`);
    }
    if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) return null;
    throw new RestoreError(`cannot open the current database ${dbFile}: ${(err as Error).message}`);
  }
  try {
    // Recent writes into the file itself, so the database moved aside is whole on its own; if the
    // WAL cannot be checkpointed (a damaged file), it moves aside with it instead.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // kept in its -wal, which moves with the file
  }
  return db;
}

export interface RestoreResult {
  dbFile: string;
  /** Where the database it replaced now is; null when the data folder had none (a new machine). */
  replaced: string | null;
  /** Older replaced databases removed: the newest KEPT_COPIES stay. */
  removed: string[];
  schemaVersion: number;
}

export function restoreDatabase(input: { source: string; dbFile: string; clock: Clock }): RestoreResult {
  const source = path.resolve(input.source);
  const { dbFile } = input;
  const dataDir = path.dirname(dbFile);
  if (!existsSync(source) || !statSync(source).isFile()) throw new RestoreError(`no file ${input.source}`);
  if (source === dbFile) throw new RestoreError(`${input.source} is the database itself`);
  // A database still open elsewhere keeps recent writes in its -wal file: the main file alone
  // would be an older, possibly torn, state. Backups (the server's, `backup`, `litestream restore`) have none.
  if (existsSync(`${source}-wal`)) throw new RestoreError(`${input.source} has a write-ahead log beside it (${path.basename(source)}-wal): it is a database in use, not a backup; make a backup of it with wallet-loyalty backup`);

  const exists = existsSync(dbFile);
  const current = exists ? takeExclusively(dbFile) : null;
  const now = input.clock.now();
  const staged = path.join(dataDir, `.restore-${utcStamp(now)}.db`);
  try {
    privateDir(dataDir);
    // Checked on a copy in the data folder: the backup file itself is never written, and the copy
    // moves into place with a rename (same file system), so a crash leaves the old or the new whole.
    // The copy keeps the backup's mode: it is made the server's user's alone, as the database is.
    copyFileSync(source, staged);
    makePrivate(staged);
    let schemaVersion: number;
    try {
      ({ schemaVersion } = sealDatabaseCopy(staged));
    } catch (err) {
      if (err instanceof DatabaseFileError) throw new RestoreError(`${input.source} ${err.message}; nothing was changed`);
      throw err;
    }
    const latest = latestVersion();
    if (schemaVersion > latest) {
      throw new RestoreError(`${input.source} has schema version ${schemaVersion}, newer than this wallet-loyalty (${latest}): restore it with the newer version that wrote it; nothing was changed`);
    }
    let replaced: string | null = null;
    if (exists) {
      current?.close();
      replaced = path.join(dataDir, replacedName(now));
      renameSync(dbFile, replaced);
      // Whatever the WAL still holds belongs to the database moved aside.
      if (existsSync(`${dbFile}-wal`)) renameSync(`${dbFile}-wal`, `${replaced}-wal`);
      // A database of an earlier version may still be 644.
      makePrivate(replaced, `${replaced}-wal`);
    }
    // The WAL's index of the old database must not meet the new one.
    rmSync(`${dbFile}-shm`, { force: true });
    renameSync(staged, dbFile);
    const removed = keepNewest(dataDir, REPLACED_NAME, KEPT_COPIES, () => {
      // Left for the next backup's rotation to try again; the restore itself is done.
    });
    return { dbFile, replaced, removed, schemaVersion };
  } finally {
    if (current?.open) current.close();
    try {
      rmSync(staged, { force: true });
    } catch {
      // The data folder could not be made (a file in its place): there is no copy to remove, and the
      // error that stopped the restore is the one to report.
    }
  }
}
