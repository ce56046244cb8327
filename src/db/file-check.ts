import Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { PAGE_CACHE_SIZE } from './connection';

/** Why a file cannot serve as a wallet-loyalty database; the message completes "<file> …". */
export class DatabaseFileError extends Error {}

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** Tables every wallet-loyalty database has had since its first schema. */
const OWN_TABLES = ['orgs', 'admins', 'cards', 'customers', 'transactions'];

/** Whether the file begins with SQLite's header (an empty or foreign file does not). */
export function startsAsSqlite(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(HEADER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(HEADER);
  } finally {
    closeSync(fd);
  }
}

/** Throws unless `integrity_check` said ok (its first lines, and how many there were). */
export function assertIntact(result: { first: string | undefined; count: number }): void {
  const first = result.first ?? 'no answer';
  if (first !== 'ok') throw new DatabaseFileError(`fails SQLite's integrity check (${first}${result.count > 1 ? `, and ${result.count - 1} more` : ''})`);
}

/**
 * Checks a copy of a database that no other program has open (a backup just written, or the copy a
 * restore is about to put in place): an SQLite file, whole (integrity_check), with wallet-loyalty's
 * tables. Returns its schema version. Opens it for writing only to leave it in rollback-journal
 * mode, so the copy is one self-contained file that any sqlite3 can read, also from a read-only
 * medium; the server puts its database back into WAL mode when it opens it. `integrity` runs the
 * check: here, on this thread (the CLI's restore); the server's backups run it on another thread
 * (backups/integrity-worker.ts), after this function has made the copy self-contained.
 */
export function sealDatabaseCopy(file: string, options: { integrity?: 'here' | 'elsewhere' } = {}): { schemaVersion: number } {
  if (!startsAsSqlite(file)) throw new DatabaseFileError('is not an SQLite database');
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 0 });
    // The check reads each page about once: the small page cache of every connection of ours.
    db.pragma(`cache_size = ${PAGE_CACHE_SIZE}`);
    if (options.integrity !== 'elsewhere') {
      const result = db.pragma('integrity_check') as { integrity_check: string }[];
      assertIntact({ first: result[0]?.integrity_check, count: result.length });
    }
    const tables = new Set((db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    if (schemaVersion < 1 || OWN_TABLES.some((t) => !tables.has(t))) throw new DatabaseFileError('is an SQLite database, but not one of wallet-loyalty');
    db.pragma('journal_mode = DELETE');
    return { schemaVersion };
  } catch (err) {
    if (err instanceof DatabaseFileError) throw err;
    // SQLITE_CORRUPT, SQLITE_NOTADB: a header that promised a database and pages that are not one.
    throw new DatabaseFileError(`fails SQLite's integrity check (${(err as Error).message})`);
  } finally {
    db?.close();
  }
}
