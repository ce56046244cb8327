import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { throttleRepo } from './throttle-repo';

// Failed sign-ins (console) and wrong PINs (counter) are counted per bucket — a client address, an
// account, a device, an org — and a bucket that fails too often in its window is locked for a
// while. Kept in the database: a restart must not hand out a fresh budget.
//
// A check that takes time (a password's scrypt) is counted when it starts (reserveAttempt), not
// when its verdict is known: attempts sent side by side then each see the ones before them, and
// the one past the limit is refused before any work is done. A check that is over at once (a PIN
// lookup) counts its failure afterwards (recordFailure). The same table counts uses of a quota
// (takeQuota): sign-up emails per recipient and per client address.

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

/**
 * Counts one attempt in each bucket before it is checked. Returns 0 when it may go ahead, else the
 * seconds to wait: a bucket is locked, or already holds its policy's limit — which locks it now.
 * A refused attempt counts nowhere. Synchronous, in one transaction: no other request can slip
 * between the look and the count.
 */
export function reserveAttempt(deps: ThrottleDeps, entries: { bucket: string; policy: ThrottlePolicy }[]): number {
  const now = deps.clock.now();
  return inTransaction(deps.db, () => {
    const repo = throttleRepo(deps.db);
    const current = entries.map((entry) => ({ ...entry, row: repo.find(entry.bucket) }));
    let wait = 0;
    for (const { row } of current) if (row?.lockedUntil && row.lockedUntil > now) wait = Math.max(wait, secondsUntil(row.lockedUntil, now));
    if (wait > 0) return wait;
    const counted = current.map(({ bucket, policy, row }) => ({ bucket, policy, fresh: !row || now - row.windowStart >= policy.windowMs, row }));
    for (const { bucket, policy, fresh, row } of counted) {
      if (fresh || row!.failures < policy.maxFailures) continue;
      repo.save({ bucket, failures: 0, windowStart: now, lockedUntil: now + policy.lockMs });
      wait = Math.max(wait, secondsUntil(now + policy.lockMs, now));
    }
    if (wait > 0) return wait;
    for (const { bucket, fresh, row } of counted) repo.save({ bucket, failures: fresh ? 1 : row!.failures + 1, windowStart: fresh ? now : row!.windowStart, lockedUntil: row?.lockedUntil ?? null });
    return 0;
  });
}

/** The attempts a bucket holds in its current window (failed ones, and reserved ones not yet known). */
export function attemptsCounted(deps: ThrottleDeps, bucket: string, policy: ThrottlePolicy): number {
  const row = throttleRepo(deps.db).find(bucket);
  return row && deps.clock.now() - row.windowStart < policy.windowMs ? row.failures : 0;
}

/** A reserved attempt that turned out right: it is given back, so it never counts as a failure. */
export function refundAttempt(deps: ThrottleDeps, buckets: string[]): void {
  inTransaction(deps.db, () => {
    const repo = throttleRepo(deps.db);
    for (const bucket of buckets) {
      const row = repo.find(bucket);
      if (row && row.failures > 0) repo.save({ ...row, failures: row.failures - 1 });
    }
  });
}

/** `limit` uses per fixed window that starts with its first use; the next use waits for the window's end. */
export interface Quota {
  limit: number;
  windowMs: number;
}

/** A use a quota refused: which bucket was full, and for how many more seconds. */
export interface QuotaRefusal {
  bucket: string;
  waitSeconds: number;
}

/**
 * Takes one use from each bucket's quota, or from none: null when taken, else the first full
 * bucket (in the order given) and the seconds until its window ends.
 */
export function takeQuota(deps: ThrottleDeps, entries: { bucket: string; quota: Quota }[]): QuotaRefusal | null {
  const now = deps.clock.now();
  return inTransaction(deps.db, () => {
    const repo = throttleRepo(deps.db);
    const current = entries.map(({ bucket, quota }) => {
      const row = repo.find(bucket);
      return { bucket, quota, row: row && now - row.windowStart < quota.windowMs ? row : undefined };
    });
    const full = current.find(({ quota, row }) => row && row.failures >= quota.limit);
    if (full) return { bucket: full.bucket, waitSeconds: secondsUntil(full.row!.windowStart + full.quota.windowMs, now) };
    for (const { bucket, row } of current) repo.save({ bucket, failures: (row?.failures ?? 0) + 1, windowStart: row?.windowStart ?? now, lockedUntil: null });
    return null;
  });
}

const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

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
