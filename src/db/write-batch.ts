import type Database from 'better-sqlite3';
import { installTransactions, type TransactionControl } from './transactions';

type Db = Database.Database;

/**
 * Group commit for the integration API. Under load a commit is most of what a write costs: every
 * page it touched (the ledger row, the balance, the event, its delivery, each of their indexes) is
 * appended to the WAL, one system call a page, ~18 pages for an earn. The requests whose bytes
 * arrive in one turn of the event loop therefore share one transaction:
 *
 * - The first request of a turn opens it (BEGIN IMMEDIATE for a write, DEFERRED for a read); each
 *   write still runs in its own synchronous transaction function, which db/transactions.ts turns
 *   into a savepoint, so it lands whole or not at all (its ledger row, balance, events and deliveries
 *   together), and a refusal rolls back only its own savepoint. A balance change takes no savepoint
 *   (transactionRefusingFirst): it refuses before it writes, and should it fail after writing, the
 *   whole batch rolls back instead of committing.
 * - An API request's work is queued (queueWrite, queueRead) once its checks have passed, and runs
 *   after the turn (setImmediate), with the turn's other queued work one request after another,
 *   just before the commit.
 * - Then one COMMIT writes each touched page once. Only then do the requests answer: no client
 *   hears of a write that a kill -9 could still lose. Should the commit fail, every request of that
 *   batch answers 500 and nothing of it was written.
 * - Wake-ups (db/after-commit.ts) wait for that commit, so no worker sends what is not committed.
 * - Anything else that touches the connection while a batch is open (a worker's transaction, a
 *   console page, a scheduled job, the CLI code paths) runs its queued work and commits the batch
 *   first: outside a unit the connection behaves exactly as without batches, and never sees
 *   uncommitted rows.
 *
 * A read joins an open write batch (it may then see its rows, and answers after its commit like
 * a write); reads alone share a read transaction, one instead of one per statement.
 */
export interface WriteBatches {
  /** One request's share of the batches: run its database work with read/write, then await settled(). */
  unit(): BatchUnit;
}

export interface BatchUnit {
  /** Runs `fn` in the open batch, opening a read batch when none is. Synchronous work only. */
  read<T>(fn: () => T): T;
  /** Runs `fn` in the open write batch, opening one (after committing an open read batch) when none is. */
  write<T>(fn: () => T): T;
  /**
   * Queues `fn` for the open write batch (opening one as write does) and runs it just before the
   * batch commits, after the work queued before it. The work of a turn then runs one request after
   * another, with SQLite's pages and code still in the CPU's caches: an earn took 0.91 of the CPU
   * it took run as its body arrived, between other requests' parsing and answers (issue 13).
   * Resolves with what `fn` returns, or rejects with what it throws, once it has run; should the
   * batch be lost before its turn (SQLite rolled it back, or a write spoiled it), it rejects with
   * a BatchCommitError and never runs. settled() still tells whether it was committed.
   */
  queueWrite<T>(fn: () => T): Promise<T>;
  /**
   * Queues `fn` as queueWrite does, for the open batch (after the work queued before it), or a new
   * read batch: a read of a customer took 0.82 of the CPU it took run at once.
   */
  queueRead<T>(fn: () => T): Promise<T>;
  /**
   * Resolves once every batch this unit ran in has ended; rejects if a write batch among them
   * failed to commit. Null when it ran in none. Reads wait for the end of their turn too: the
   * answers of a turn then leave together, and a client woken by the first finds the others
   * already there (a socket write that wakes an idle client cost a quarter of a read's CPU).
   */
  settled(): Promise<void> | null;
}

/** A batch's commit failed (or SQLite rolled it back): none of its writes were kept. */
export class BatchCommitError extends Error {}

interface Batch {
  mode: 'read' | 'write';
  /** Settles when the batch has committed, or rejects when a write batch failed to. */
  done: Promise<void>;
  resolve(): void;
  reject(err: Error): void;
  afterCommit: (() => void)[];
  /** The requests' queued work that has not run yet, in order. */
  queue: QueuedWork[];
}

interface QueuedWork {
  fn: () => unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

const installed = new WeakMap<Db, WriteBatches & { afterCommit(wake: () => void): boolean; rollbacks(): number; open(): object | null; viewStamp(): number }>();

/** The group commit of a connection opened by openDatabase. */
export function writeBatches(db: Db): WriteBatches {
  const batches = installed.get(db);
  if (!batches) throw new Error('writeBatches: this connection was not opened by openDatabase');
  return batches;
}

/**
 * How many transactions (and savepoints, and batches) of this connection have rolled back: a
 * cache of rows read inside one of them may hold what was undone (db/row-cache.ts).
 */
export function rollbackCount(db: Db): number {
  return installed.get(db)?.rollbacks() ?? 0;
}

/**
 * The open batch (one transaction), or null: what a batch's statements read cannot change under
 * them until it ends, except by their own writes (db/row-cache.ts reads SQLite's data_version
 * once per batch).
 */
export function currentBatch(db: Db): object | null {
  return installed.get(db)?.open() ?? null;
}

/**
 * The connection's view stamp: a number that changes whenever what the connection reads may
 * change, before any statement that writes runs (and any exec, pragma, backup, serialize or
 * close, which it does not look into), and at every BEGIN, COMMIT, ROLLBACK and ROLLBACK TO.
 * Two reads inside one transaction with the same stamp between them read the same rows: while a
 * transaction is open no other connection's commit shows to it (WAL reads one snapshot, and a
 * write upgrades only if that snapshot is current). On a connection not opened by openDatabase
 * the stamp is NaN, which equals nothing.
 */
export function viewStamp(db: Db): () => number {
  return installed.get(db)?.viewStamp ?? (() => Number.NaN);
}

/** Queues `wake` for after the open batch ends; false when no batch is open (the caller's own transaction decides then). */
export function afterBatchCommit(db: Db, wake: () => void): boolean {
  return installed.get(db)?.afterCommit(wake) ?? false;
}

/**
 * Installs group commit on a new connection, before anything prepares a statement on it: every
 * statement prepared afterwards (and every transaction, exec and pragma) first commits an open
 * batch when it runs outside a unit.
 */
export function installWriteBatches(db: Db): void {
  let open: Batch | null = null;
  let rollbacks = 0;
  let stamp = 0;
  const viewMayChange = () => {
    stamp++;
  };
  /** Units running right now (synchronously, so 0 or 1, more only when nested). */
  let depth = 0;

  /** Outside a unit the open batch is committed first, so other users never see or join it. */
  const guard = () => {
    if (open && depth === 0) flush();
  };
  // The batch's own statements are the connection's unguarded ones (db/transactions.ts).
  const control = guardConnection(db, guard, () => rollbacks++, viewMayChange);
  const { begin: beginModes, commit, rollback } = control;
  const begin = { read: beginModes.deferred, write: beginModes.immediate };

  function settle(batch: Batch, failure: Error | null): void {
    if (open === batch) open = null;
    if (failure) rollbacks++;
    // A read batch saw committed rows only (a write batch ends it before writing), so its answers
    // stand even if its commit failed: the informational key touch is all it could lose.
    if (failure && batch.mode === 'write') batch.reject(failure);
    else batch.resolve();
    // After a failure too: a worker woken for nothing finds nothing new, and the wake-ups'
    // bookkeeping (one per name and transaction) starts over.
    for (const wake of batch.afterCommit) wake();
  }

  /** True while flush runs the queued work: its statements never end the batch they run in. */
  let flushing = false;

  function flush(): void {
    const batch = open;
    if (!batch || flushing) return;
    runQueued(batch);
    if (!db.inTransaction) {
      settle(batch, new BatchCommitError('the batch was rolled back by SQLite before its commit'));
      return;
    }
    viewMayChange();
    const spoiled = control.spoiled();
    if (spoiled) {
      rollback.run();
      settle(batch, new BatchCommitError(`the batch was rolled back: a write in it failed after writing part of its rows (${spoiled.message})`, { cause: spoiled }));
      return;
    }
    try {
      commit.run();
    } catch (err) {
      if (db.inTransaction) rollback.run();
      settle(batch, new BatchCommitError(`the batch could not be committed: ${(err as Error).message}`, { cause: err }));
      return;
    }
    settle(batch, null);
  }

  function runQueued(batch: Batch): void {
    flushing = true;
    depth++;
    try {
      // Queued work may queue more: it runs in this batch too.
      for (let i = 0; i < batch.queue.length; i++) {
        const job = batch.queue[i]!;
        if (!db.inTransaction || control.spoiled()) {
          job.reject(new BatchCommitError("the batch was lost before this request's work ran: it was not run"));
          continue;
        }
        try {
          job.resolve(job.fn());
        } catch (err) {
          job.reject(err);
        }
      }
      batch.queue = [];
    } finally {
      depth--;
      flushing = false;
    }
  }

  function openBatch(mode: Batch['mode']): Batch {
    viewMayChange();
    control.beginAfresh();
    begin[mode].run();
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Awaited by the units that joined it; a read batch nobody awaits must not be an unhandled rejection.
    done.catch(() => {});
    const batch: Batch = { mode, done, resolve, reject, afterCommit: [], queue: [] };
    open = batch;
    setImmediate(() => {
      if (open === batch) flush();
    });
    return batch;
  }

  /** The batch a unit's work of `mode` joins: the open one, unless it must end first, or a new one. */
  function batchFor(mode: Batch['mode'], joined: Batch[]): Batch {
    // A batch spoiled by a write that failed half way will roll back: nothing more joins it.
    if (open && !flushing && ((open.mode === 'read' && mode === 'write') || control.spoiled())) flush();
    const batch = open ?? openBatch(mode);
    if (!joined.includes(batch)) joined.push(batch);
    return batch;
  }

  function queue<T>(mode: Batch['mode'], fn: () => T, joined: Batch[]): Promise<T> {
    // Inside another connection user's own transaction (nothing here opens one around a unit): run as is.
    if (!open && db.inTransaction) {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(err);
      }
    }
    const batch = batchFor(mode, joined);
    return new Promise<T>((resolve, reject) => batch.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject }));
  }

  /** Runs a unit's work in a batch of at least `mode`, noting the batches it joined. */
  function inBatch<T>(mode: Batch['mode'], fn: () => T, joined: Batch[]): T {
    // Inside another connection user's own transaction (nothing here opens one around a unit): run as is.
    if (!open && db.inTransaction) return fn();
    const batch = batchFor(mode, joined);
    depth++;
    try {
      return fn();
    } finally {
      depth--;
      // An error SQLite answers by rolling back the whole transaction (disk full, I/O error) ends
      // the batch: every request in it fails, whatever this one did.
      if (open === batch && !db.inTransaction) flush();
    }
  }

  installed.set(db, {
    unit() {
      // The batches this unit ran in (a request's parts may fall in different turns).
      const joined: Batch[] = [];
      return {
        read: (fn) => inBatch('read', fn, joined),
        write: (fn) => inBatch('write', fn, joined),
        queueRead: (fn) => queue('read', fn, joined),
        queueWrite: (fn) => queue('write', fn, joined),
        settled: () => (joined.length === 0 ? null : joined.length === 1 ? joined[0]!.done : Promise.all(joined.map((b) => b.done)).then(() => undefined)),
      };
    },
    rollbacks: () => rollbacks,
    open: () => open,
    viewStamp: () => stamp,
    afterCommit(wake) {
      if (!open) return false;
      open.afterCommit.push(wake);
      return true;
    },
  });
}

const STATEMENT_METHODS = ['run', 'get', 'all', 'iterate'] as const;
const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK)\b/i;

/**
 * Calls `guard` before anything runs SQL on the connection, `rolledBack` when a transaction
 * function fails, and `viewMayChange` before anything that may change what the connection reads.
 */
function guardConnection(db: Db, guard: () => void, rolledBack: () => void, viewMayChange: () => void): TransactionControl {
  // Through the prototype at each call, so a wrapper installed there later (a test's) still runs.
  const prototype = Object.getPrototypeOf(db) as Db;
  db.prepare = ((source: string) => {
    const statement = prototype.prepare.call(db, source);
    // An INSERT … RETURNING writes through get or all as well; SQLite counts BEGIN, COMMIT and
    // ROLLBACK as read-only, but each starts another view of the data.
    const writes = !statement.readonly || TRANSACTION_CONTROL.test(source);
    for (const name of STATEMENT_METHODS) {
      const method = statement[name] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[name] = writes
        ? function guarded(this: unknown, ...args: unknown[]) {
            guard();
            viewMayChange();
            const result = method.apply(statement, args);
            // Counted as the call returns: for an iterator, before any of its rows is read.
            writesSoFar++;
            return result;
          }
        : function guarded(this: unknown, ...args: unknown[]) {
            guard();
            return method.apply(statement, args);
          };
    }
    return statement;
  }) as Db['prepare'];
  let writesSoFar = 0;
  const control = installTransactions(db, { beforeUse: guard, rolledBack, boundary: viewMayChange, writesSoFar: () => writesSoFar });
  for (const name of ['exec', 'pragma', 'backup', 'serialize', 'close'] as const) {
    const method = (db[name] as (...args: unknown[]) => unknown).bind(db);
    (db as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      guard();
      viewMayChange();
      // Counted before: an exec may fail after some of its statements ran.
      writesSoFar++;
      return method(...args);
    };
  }
  return control;
}
