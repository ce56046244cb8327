// Retry timing as pure functions, so tests (and readers) can check the schedule without a clock.

/**
 * When attempt `attemptNumber + 1` is due after attempt `attemptNumber` failed at `failedAt`; null
 * when none is left. One wait per retry: the default `10000,60000` gives the 3 attempts of spec 8.
 */
export function nextAttemptAt(attemptNumber: number, failedAt: number, retryDelaysMs: readonly number[]): number | null {
  const wait = retryDelaysMs[attemptNumber - 1];
  return wait === undefined ? null : failedAt + wait;
}

/**
 * How long a claim holds a delivery. An attempt ends by its timeout, so a lease outliving the
 * timeout by a margin (for the DNS lookup and the write that records the attempt) can only
 * expire when its worker died; then the next sweep sends the delivery again.
 */
export function leaseMs(timeoutMs: number): number {
  return timeoutMs + 2_000;
}
