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
  // better-sqlite3 builds SQLite with a 16 MB page cache per connection, which a busy server
  // filled within seconds: 18 MB of its ~120 MB under the earn load. 4 MB holds the pages a
  // request touches again (index interiors, the tails the ledger and outbox append to); the rest
  // come from the OS page cache (issue 13's bench: the same rates, 15 MB less memory).
  db.pragma('cache_size = -4000');
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
    // Before anything prepares a statement: each one must commit an open batch before it runs;
    // transaction functions begin IMMEDIATE (db/transactions.ts says why).
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
