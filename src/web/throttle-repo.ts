import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export interface FailureBucket {
  bucket: string;
  failures: number;
  windowStart: number;
  lockedUntil: number | null;
}

function createThrottleRepo(db: Db) {
  const read = db.prepare<[string], { bucket: string; failures: number; window_start: number; locked_until: number | null }>('SELECT * FROM auth_failures WHERE bucket = ?');
  const upsert = db.prepare(
    `INSERT INTO auth_failures (bucket, failures, window_start, locked_until) VALUES (@bucket, @failures, @windowStart, @lockedUntil)
     ON CONFLICT (bucket) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start, locked_until = excluded.locked_until`,
  );
  const remove = db.prepare('DELETE FROM auth_failures WHERE bucket = ?');
  const lockedLike = db.prepare<{ prefix: string; now: number }, { bucket: string; failures: number; window_start: number; locked_until: number | null }>(
    'SELECT * FROM auth_failures WHERE substr(bucket, 1, length(@prefix)) = @prefix AND locked_until > @now ORDER BY locked_until',
  );
  const removeStale = db.prepare('DELETE FROM auth_failures WHERE window_start < @cutoff AND (locked_until IS NULL OR locked_until < @now)');
  return {
    find(bucket: string): FailureBucket | undefined {
      const row = read.get(bucket);
      return row && { bucket: row.bucket, failures: row.failures, windowStart: row.window_start, lockedUntil: row.locked_until };
    },
    save(row: FailureBucket) {
      upsert.run(row);
    },
    remove(bucket: string) {
      remove.run(bucket);
    },
    /** The buckets starting with `prefix` that are locked at `now`. */
    lockedWithPrefix(prefix: string, now: number): FailureBucket[] {
      return lockedLike.all({ prefix, now }).map((row) => ({ bucket: row.bucket, failures: row.failures, windowStart: row.window_start, lockedUntil: row.locked_until }));
    },
    removeStale(cutoff: number, now: number): number {
      return removeStale.run({ cutoff, now }).changes;
    },
  };
}

export const throttleRepo = perConnection(createThrottleRepo);
