import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { throttleRepo } from './throttle-repo';

// Failed sign-ins (console) and wrong PINs (counter) are counted per bucket — a client address, an
// account, a device, an org — and a bucket that fails too often in its window is locked for a
// while (decisions §8). Kept in the database: a restart must not hand out a fresh budget.

export interface ThrottlePolicy {
  /** Failures allowed in the window; the next one locks. */
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export interface ThrottleDeps {
  db: Db;
  clock: Clock;
}

/** How many seconds the first locked bucket stays locked, or 0 when none is. */
export function lockedForSeconds(deps: ThrottleDeps, buckets: string[]): number {
  const now = deps.clock.now();
  let longest = 0;
  for (const bucket of buckets) {
    const row = throttleRepo(deps.db).find(bucket);
    if (row?.lockedUntil && row.lockedUntil > now) longest = Math.max(longest, Math.ceil((row.lockedUntil - now) / 1000));
  }
  return longest;
}

/** Counts one failure in each bucket; one past its limit is locked. Returns the lock in seconds (0 when none). */
export function recordFailure(deps: ThrottleDeps, entries: { bucket: string; policy: ThrottlePolicy }[]): number {
  const now = deps.clock.now();
  return inTransaction(deps.db, () => {
    let longest = 0;
    for (const { bucket, policy } of entries) {
      const repo = throttleRepo(deps.db);
      const current = repo.find(bucket);
      const fresh = !current || now - current.windowStart >= policy.windowMs;
      const failures = fresh ? 1 : current.failures + 1;
      const lockedUntil = failures > policy.maxFailures ? now + policy.lockMs : (current?.lockedUntil ?? null);
      repo.save({ bucket, failures: failures > policy.maxFailures ? 0 : failures, windowStart: fresh || failures > policy.maxFailures ? now : current.windowStart, lockedUntil });
      if (lockedUntil && lockedUntil > now) longest = Math.max(longest, Math.ceil((lockedUntil - now) / 1000));
    }
    return longest;
  });
}

/** A success clears the account's (or device's) own count; address buckets keep theirs. */
export function clearFailures(deps: ThrottleDeps, buckets: string[]): void {
  inTransaction(deps.db, () => {
    for (const bucket of buckets) throttleRepo(deps.db).remove(bucket);
  });
}

/** The hourly sweep: windows long over and locks long expired carry no information. */
export function sweepFailures(deps: ThrottleDeps, olderThanMs: number): number {
  const now = deps.clock.now();
  return throttleRepo(deps.db).removeStale(now - olderThanMs, now);
}

/** "3 minutes", "40 seconds": for the message a locked-out person reads. */
export function waitText(seconds: number): string {
  if (seconds >= 90) return `${Math.ceil(seconds / 60)} minutes`;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
