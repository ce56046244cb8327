import { InFlightList } from '../lib/in-flight-list';
import type { Db } from './connection';

// Per database, the wake-ups already queued for the current transaction.
const queued = new WeakMap<Db, InFlightList<string>>();

/**
 * Runs `wake` once the current transaction has ended, at most once per transaction for each
 * `name`. Every write is one synchronous transaction, so a microtask queued inside it runs only
 * after its commit (or its rollback, after which the woken worker simply finds nothing new).
 */
export function wakeAfterCommit(db: Db, name: string, wake: () => void): void {
  let names = queued.get(db);
  if (!names) queued.set(db, (names = new InFlightList()));
  if (names.has(name)) return;
  names.add(name);
  queueMicrotask(() => {
    names.delete(name);
    wake();
  });
}
