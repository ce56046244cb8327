import type { Db } from './open';
import { afterBatchCommit } from './write-batch';

// Per database, the wake-ups already queued for the current transaction.
const queued = new WeakMap<Db, Set<string>>();

/**
 * Runs `wake` once the current transaction has committed, at most once per transaction for each
 * `name`. Every write here is one synchronous transaction, so a microtask queued inside it runs
 * only after the commit (or the rollback, after which the woken worker simply finds nothing new).
 * Inside a batch of API requests (db/write-batch.ts) the commit comes after the turn: the wake-up
 * waits for it.
 */
export function wakeAfterCommit(db: Db, name: string, wake: () => void): void {
  let names = queued.get(db);
  if (!names) queued.set(db, (names = new Set()));
  if (names.has(name)) return;
  names.add(name);
  const run = () => {
    names.delete(name);
    wake();
  };
  if (!afterBatchCommit(db, run)) queueMicrotask(run);
}
