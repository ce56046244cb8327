import type { Db } from './connection';

/**
 * Runs `fn` in one transaction, committed when it returns and rolled back when it throws (inside
 * another transaction: a savepoint of it). `fn` must be synchronous: no await and no network call
 * may happen while a transaction is open.
 *
 * BEGIN IMMEDIATE: the write lock is taken when the transaction begins, waiting up to busy_timeout
 * for it. A deferred transaction takes it at its first write, after its reads, and when another
 * process holds it then (the CLI writing beside the server) SQLite fails that write at once with
 * "database is locked" instead of waiting.
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
