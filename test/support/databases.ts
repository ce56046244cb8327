import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { applyPragmas, type Db } from '../../src/db/open';

/** Bare database files in one temp folder (no migration run), for tests of the migrations themselves. */
export function scratchDatabases(prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  let n = 0;
  return {
    dir,
    /** A new, empty database file with the server's pragmas. */
    fresh(): Db {
      const db = new Database(path.join(dir, `db-${++n}.sqlite`));
      applyPragmas(db);
      return db;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const userVersion = (db: Db) => db.pragma('user_version', { simple: true }) as number;

/** The SQL a repo factory prepares on `db`, in order (for query-plan tests of its statements). */
export function statementsPreparedBy(db: Db, factory: (db: Db) => unknown): string[] {
  const prepared: string[] = [];
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    prepared.push(sql);
    return prepare.call(this, sql);
  } as typeof prepare;
  try {
    factory(db);
  } finally {
    Database.prototype.prepare = prepare;
  }
  return prepared;
}
