import type Database from 'better-sqlite3';

type Db = Database.Database;
type Fn = (...args: any[]) => unknown;

export interface TransactionHooks {
  /** Called before a transaction function begins (write-batch.ts commits an open batch there). */
  beforeUse(): void;
  /** Called when a transaction function's transaction or savepoint rolled back. */
  rolledBack(): void;
  /** Called before a BEGIN, COMMIT, ROLLBACK or ROLLBACK TO (not a SAVEPOINT or RELEASE, which change no row). */
  boundary(): void;
  /**
   * How many statements that write have run on the connection (an exec or pragma counts when it
   * starts, a prepared statement once it has run without an error): a statement that failed
   * changed nothing, since SQLite undoes a failed statement's own changes.
   */
  writesSoFar(): number;
}

/** The connection's own control statements, unguarded, for the one other user of them (write-batch.ts). */
export interface TransactionControl {
  begin: { deferred: Database.Statement; immediate: Database.Statement };
  commit: Database.Statement;
  rollback: Database.Statement;
  /**
   * The error of a transactionRefusingFirst function that failed after it had written, in the
   * open transaction: that transaction must roll back whole. Null when none did.
   */
  spoiled(): Error | null;
  /** Forgets a spoiled transaction: called as a new one begins. */
  beginAfresh(): void;
}

const refusingFirst = new WeakMap<Db, <T>(fn: () => T) => T>();

/**
 * Runs `fn` in a transaction, as `db.transaction(fn)()` does, but takes no savepoint of its own
 * inside an open transaction (a write batch): a savepoint copies every page the function then
 * changes into SQLite's sub-journal, ~5 % of an earn's CPU (issue 13), only to undo a function
 * that fails part way.
 *
 * For a function that throws its refusals before its first write, as changeBalance does. If it
 * throws before any statement of it wrote, nothing is undone and the transaction goes on (a
 * statement that failed changed nothing). If it throws after one did, the whole open transaction
 * is spoiled: it rolls back instead of committing, and so do the other requests of its batch (they
 * answer 500), so no half-written change is ever kept, even if a caller catches the error.
 */
export function transactionRefusingFirst<T>(db: Db, fn: () => T): T {
  const run = refusingFirst.get(db);
  return run ? run(fn) : db.transaction(fn)();
}

/**
 * The connection's `db.transaction(fn)`, as better-sqlite3 defines it — BEGIN … COMMIT, or a
 * savepoint when a transaction is already open, rolled back when `fn` throws, never around a
 * promise — with two differences:
 *
 * - The default variant begins IMMEDIATE: it takes the write lock when it starts, waiting up to
 *   busy_timeout for it. A deferred transaction takes it at its first write, after its reads,
 *   and if another connection holds it then (the CLI in another process) SQLite fails the write
 *   at once with "database is locked": it calls no busy handler to upgrade a read to a write.
 *   The few read-only transactions wait for a writer too, which in one process costs nothing.
 * - Making one is cheap. The code writes `db.transaction(() => …)()` where it writes, and
 *   better-sqlite3 defines four variants with their properties on every call: on an earn that
 *   cost more than the ledger row's insert.
 */
export function installTransactions(db: Db, hooks: TransactionHooks): TransactionControl {
  const statement = (sql: string) => Object.getPrototypeOf(db).prepare.call(db, sql) as Database.Statement;
  const begin = { deferred: statement('BEGIN DEFERRED'), immediate: statement('BEGIN IMMEDIATE'), exclusive: statement('BEGIN EXCLUSIVE') };
  // The savepoint name better-sqlite3 uses: no code of ours names one like it.
  const savepoint = statement('SAVEPOINT `\t_bs3.\t`');
  const release = statement('RELEASE `\t_bs3.\t`');
  const rollbackTo = statement('ROLLBACK TO `\t_bs3.\t`');
  const commit = statement('COMMIT');
  const rollback = statement('ROLLBACK');

  let spoiled: Error | null = null;

  function run(mode: keyof typeof begin, fn: Fn, self: unknown, args: unknown[]): unknown {
    hooks.beforeUse();
    const nested = db.inTransaction;
    if (nested) savepoint.run();
    else {
      hooks.boundary();
      spoiled = null;
      begin[mode].run();
    }
    try {
      const result = fn.apply(self, args);
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') throw new TypeError('Transaction function cannot return a promise');
      if (nested) release.run();
      else if (spoiled) throw new Error('the transaction was rolled back: a write in it failed after writing part of its rows', { cause: spoiled });
      else {
        hooks.boundary();
        commit.run();
      }
      return result;
    } catch (err) {
      hooks.boundary();
      // SQLite may have rolled the whole transaction back already (disk full, I/O error).
      if (db.inTransaction) {
        if (nested) {
          rollbackTo.run();
          release.run();
        } else rollback.run();
      }
      hooks.rolledBack();
      throw err;
    }
  }

  db.transaction = (<F extends Fn>(fn: F) => {
    if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
    const variant = (mode: keyof typeof begin) =>
      function (this: unknown, ...args: unknown[]) {
        return run(mode, fn, this, args);
      };
    const immediate = variant('immediate');
    return Object.assign(immediate, { default: immediate, deferred: variant('deferred'), immediate, exclusive: variant('exclusive'), database: db });
  }) as Db['transaction'];

  refusingFirst.set(db, <T>(fn: () => T): T => {
    if (!db.inTransaction) return run('immediate', fn, undefined, []) as T;
    hooks.beforeUse();
    const writesBefore = hooks.writesSoFar();
    try {
      const result = fn();
      if (result && typeof (result as unknown as PromiseLike<unknown>).then === 'function') throw new TypeError('Transaction function cannot return a promise');
      return result;
    } catch (err) {
      // Undone by the rollback of the whole transaction, which counts as one.
      if (hooks.writesSoFar() !== writesBefore && db.inTransaction) spoiled ??= err as Error;
      throw err;
    }
  });

  return {
    begin,
    commit,
    rollback,
    spoiled: () => spoiled,
    beginAfresh: () => {
      spoiled = null;
    },
  };
}
