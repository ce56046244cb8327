import type { Db } from './connection';

// better-sqlite3's db.transaction(fn) builds five wrapper functions and their properties on every
// call; one wrapper per connection that runs whatever function it is given does the same job.
const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

function runnerOf(db: Db): (fn: () => unknown) => unknown {
  let runner = runners.get(db);
  if (!runner) {
    runner = db.transaction((fn: () => unknown) => fn()).immediate;
    runners.set(db, runner);
  }
  return runner;
}

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
  return runnerOf(db)(fn) as T;
}
