import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { migrate } from './migrate';
import { installWriteBatches } from './write-batch';

export type Db = Database.Database;

export interface OpenOptions {
  /** NORMAL survives a process crash in WAL mode; FULL also survives power loss at some write cost. */
  synchronous?: 'NORMAL' | 'FULL';
}

/** Every pragma lives here, so every connection (server, CLI, tests) behaves the same. */
export function applyPragmas(db: Db, options: OpenOptions = {}): void {
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
}

/**
 * Every transaction function of a connection begins with BEGIN IMMEDIATE: it takes the write lock
 * when it starts, waiting up to busy_timeout for it. A deferred transaction takes it at its first
 * write, after its reads, and if another connection holds it then (the checkpoint thread's
 * RESTART checkpoint, the CLI in another process) SQLite fails the write at once with "database is
 * locked": it calls no busy handler to upgrade a read to a write. The few read-only transactions
 * wait for a writer too, which in one process costs nothing.
 */
function immediateTransactions(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = (<F extends (...args: any[]) => unknown>(fn: F): Database.Transaction<F> => {
    const variants = transaction(fn);
    const run: Database.Transaction<F>['immediate'] = (...args) => variants.immediate(...args);
    return Object.assign(run, {
      default: variants.immediate,
      deferred: variants.deferred,
      immediate: variants.immediate,
      exclusive: variants.exclusive,
      database: db,
    });
  }) as Db['transaction'];
}

/**
 * Hourly upkeep: folds the WAL back into the database file (so it cannot grow without bound on a
 * quiet machine) and refreshes the query planner's statistics.
 */
export function maintainDatabase(db: Db): void {
  // A sample of each index is enough for the planner: a full ANALYZE of a table with a million
  // customers would hold the event loop for seconds.
  db.pragma('analysis_limit = 1000');
  // optimize first: the statistics it may write go to the WAL, which the checkpoint then empties.
  db.pragma('optimize');
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/** The data folder or its database file cannot be used: a file where the folder belongs, no permission, not a database. */
export class DatabaseOpenError extends Error {}

/** Opens (creating if needed) the database file and brings its schema up to date. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  let db: Db | undefined;
  try {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    db = new Database(file);
    applyPragmas(db, options);
    immediateTransactions(db);
    // Before anything prepares a statement: each one must commit an open batch before it runs.
    installWriteBatches(db);
  } catch (err) {
    db?.close();
    throw new DatabaseOpenError((err as Error).message, { cause: err });
  }
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
