import Database from 'better-sqlite3';
import path from 'node:path';
import { createPrivateFile, makePrivate, privateDir } from '../lib/private-files';
import { PAGE_CACHE_SIZE, type Db } from './connection';
import { migrate } from './migrate';
import { BEFORE_SCHEMA_NAME, beforeSchemaName, keepNewest, KEPT_COPIES } from './file-names';
import { sealDatabaseCopy } from './file-check';

export type { Db } from './connection';

export interface OpenOptions {
  /** NORMAL survives a process crash in WAL mode; FULL also survives power loss at some write cost. */
  synchronous?: 'NORMAL' | 'FULL';
  /** Where the copy made before a schema upgrade goes (BACKUP_DIR); default `backups` beside the file. */
  backupDir?: string;
  /** Told where that copy is. */
  log?: { warn(msg: string, fields?: Record<string, unknown>): void };
  clock?: { now(): number };
}

/** Every pragma lives here, so every connection (server, CLI, tests) behaves the same. */
export function applyPragmas(db: Db, options: OpenOptions = {}): void {
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  // At least 5 s, as Litestream asks of an application that shares the database with it: a write
  // waits while Litestream (or the CLI in another process) briefly holds a lock.
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  // Deleted and overwritten content is zeroed, not left in free space: an erased customer's email
  // must not stay readable in the file (backups keep it until they are rotated out).
  db.pragma('secure_delete = ON');
  // Checkpoints are SQLite's own: passive, every 1000 pages, inside a commit. They never truncate
  // the WAL file, so a burst of writes could leave it large on disk; past 64 MB it is cut back to
  // that size after the next checkpoint that empties it. Under Litestream, Litestream checkpoints.
  db.pragma('journal_size_limit = 67108864');
  // 2 MB of page cache, not the driver's 16 MB: a server on a Pi (connection.ts says why).
  db.pragma(`cache_size = ${PAGE_CACHE_SIZE}`);
}

/** The data folder or its database file cannot be used: a file where the folder belongs, no permission, not a database. */
export class DatabaseOpenError extends Error {}

/** Opens (creating if needed) the database file and brings its schema up to date. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  let db: Db | undefined;
  try {
    if (file !== ':memory:') {
      // The data folder and the database are the server's user's alone, whatever the umask: a new
      // database is created 600 (its -wal and -shm take that mode from it); one an earlier version
      // made 644 is tightened, its -wal and -shm once SQLite has opened them.
      privateDir(path.dirname(file));
      if (!createPrivateFile(file, { exclusive: true })) makePrivate(file);
    }
    db = new Database(file);
    applyPragmas(db, options);
    if (file !== ':memory:') makePrivate(`${file}-wal`, `${file}-shm`);
  } catch (err) {
    db?.close();
    throw new DatabaseOpenError((err as Error).message, { cause: err });
  }
  try {
    migrate(db, undefined, { beforeUpgrade: (from, to) => copyBeforeUpgrade(db!, file, from, to, options) });
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * Before a schema upgrade the database is copied (docs/upgrading.md), so an upgrade that goes wrong,
 * or a release that has to be rolled back, has the old database to return to. VACUUM INTO writes a
 * consistent copy in one statement (the migration has not begun). Without the copy nothing is
 * migrated: the start stops with the reason.
 */
function copyBeforeUpgrade(db: Db, file: string, from: number, to: number, options: OpenOptions): void {
  if (file === ':memory:') return;
  const dir = options.backupDir ?? path.join(path.dirname(file), 'backups');
  const target = path.join(dir, beforeSchemaName(to, (options.clock ?? Date).now()));
  try {
    privateDir(dir);
    createPrivateFile(target);
    db.prepare('VACUUM INTO ?').run(target);
    sealDatabaseCopy(target);
  } catch (err) {
    throw new DatabaseOpenError(`cannot keep a copy of the database before upgrading its schema from version ${from} to ${to}, so it was not upgraded: ${(err as Error).message} (BACKUP_DIR is ${dir})`, { cause: err });
  }
  options.log?.warn(`database upgrading the schema from version ${from} to ${to}; the database as it was is kept at ${target}`, { copy: target, from, to });
  // The newest three such copies stay (they hold customers as they were, erased ones too).
  const removed = keepNewest(dir, BEFORE_SCHEMA_NAME, KEPT_COPIES, (name, err) => options.log?.warn(`database: could not remove the old copy ${name}`, { err }));
  if (removed.length > 0) options.log?.warn(`database: older copies made before an upgrade removed (the newest ${KEPT_COPIES} are kept): ${removed.join(', ')}`, { removed });
}
