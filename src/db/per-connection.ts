import type { Db } from './connection';

/** Wraps a repo factory so its statements are prepared once per connection, then reused. */
export function perConnection<T>(factory: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let repo = cache.get(db);
    if (!repo) {
      repo = factory(db);
      cache.set(db, repo);
    }
    return repo;
  };
}
