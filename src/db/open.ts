import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Db } from './connection';
import { migrate } from './migrate';

export type { Db } from './connection';

export interface OpenOptions {
  /** NORMAL survives a process crash in WAL mode; FULL also survives power loss at some write cost. */
  synchronous?: 'NORMAL' | 'FULL';
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
