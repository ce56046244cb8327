import type Database from 'better-sqlite3';

/** The SQLite connection every repo and service takes (db/open.ts makes it). */
export type Db = Database.Database;
