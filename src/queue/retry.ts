import type { Options } from 'p-retry';

// When a failed row is tried again, as a pure function of its policy and how many attempts failed,
// so the record step, the tests and a reader compute the same schedule.
//
// p-retry itself does not run these retries: its waits are timers inside one process, which a
// restart forgets and the injected clock cannot move, and its delay function is not exported. A
// retry here is the row's next due time, found by the queue's next sweep. The exponential form
// takes p-retry's option names and computes its delay the same way (without `randomize`: one
// process works each row, so there is no herd to spread). A permanent failure needs no
// `AbortError` either: the record step writes it as the row's final state.

/** p-retry's options, with their meaning: the n-th retry waits minTimeout × factor^(n−1), at most maxTimeout; after `retries` retries the row is given up. */
export type BackoffPolicy = Required<Pick<Options, 'retries' | 'factor' | 'minTimeout' | 'maxTimeout'>>;

/** One wait per retry, in order (an operator's setting such as WEBHOOK_RETRY_DELAYS_MS); after the last the row is given up. */
export interface ListedPolicy {
  delaysMs: readonly number[];
}

export type RetryPolicy = BackoffPolicy | ListedPolicy;

/** The wait after the `failedAttempts`-th failed attempt (1 for the first), or null when none is left. */
export function retryDelay(policy: RetryPolicy, failedAttempts: number): number | null {
  if ('delaysMs' in policy) return policy.delaysMs[failedAttempts - 1] ?? null;
  if (failedAttempts > policy.retries) return null;
  return Math.min(policy.maxTimeout, Math.round(policy.minTimeout * policy.factor ** (failedAttempts - 1)));
}

/** When the next attempt is due after the `failedAttempts`-th failed at `failedAt`; null when the row is given up. */
export function nextAttemptAt(policy: RetryPolicy, failedAttempts: number, failedAt: number): number | null {
  const wait = retryDelay(policy, failedAttempts);
  return wait === null ? null : failedAt + wait;
}
