import type { Db } from './open';
import { perConnection } from './per-connection';
import { currentBatch, rollbackCount } from './write-batch';

/**
 * Rows that every request reads and that hardly ever change (API keys, cards, webhook subscribers), kept per
 * connection. The cache holds while nothing may have changed them:
 * - no write through their repo on this connection (the repo calls `changed()`),
 * - no commit by another connection (the CLI's `key revoke` in another process: SQLite's
 *   data_version, one read of shared memory),
 * - no rollback on this connection since (a write the repo announced that did not last).
 * Values are frozen: every caller shares them.
 */
export interface RowCache<V> {
  /** The cached value, or `load()` (cached unless undefined). */
  get(key: string, load: () => V | undefined): V | undefined;
  /** Puts a newer copy of a row the caller has just written in a way that needs no `changed()`. */
  replace(key: string, value: V): void;
  /** A write through the repo may have changed a cached row: start over at the next read. */
  changed(): void;
}

/**
 * SQLite's data_version, read once per batch: inside one transaction no other connection's commit
 * can show (a write batch holds the write lock; a read batch reads one snapshot), so a request of
 * the batch reuses what the first one read. Outside a batch, read every time.
 */
const dataVersionOf = perConnection((db: Db) => {
  const statement = db.prepare<[], number>('PRAGMA data_version').pluck();
  let readIn: object | null = null;
  let version = -1;
  return () => {
    const batch = currentBatch(db);
    if (batch === null || batch !== readIn) {
      version = statement.get()!;
      readIn = batch;
    }
    return version;
  };
});

export function createRowCache<V extends object>(db: Db, max = 10_000): RowCache<V> {
  const dataVersion = dataVersionOf(db);
  let rows = new Map<string, V>();
  let ownWrites = 0;
  // What the rows were read under.
  let stamp = { dataVersion: -1, rollbacks: -1, ownWrites: -1 };

  function current(): Map<string, V> {
    const version = dataVersion();
    const rollbacks = rollbackCount(db);
    if (version !== stamp.dataVersion || rollbacks !== stamp.rollbacks || ownWrites !== stamp.ownWrites || rows.size >= max) {
      rows = new Map();
      stamp = { dataVersion: version, rollbacks, ownWrites };
    }
    return rows;
  }

  return {
    get(key, load) {
      const cached = current();
      let value = cached.get(key);
      if (value === undefined) {
        value = load();
        if (value !== undefined) cached.set(key, deepFreeze(value));
      }
      return value;
    },
    replace(key, value) {
      current().set(key, deepFreeze(value));
    },
    changed() {
      ownWrites++;
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
