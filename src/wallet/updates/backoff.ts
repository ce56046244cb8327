// When to try a failed pass update again: a pure function, so tests and the worker agree.
// 30 s, 1, 2, 4 … minutes, at most an hour apart; after MAX_ATTEMPTS the row rests until the
// next balance change revives it. Devices also re-check passes by themselves about once a day,
// so giving up late costs freshness, never data.
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 60 * 60_000;
export const MAX_ATTEMPTS = 12;

/** Delay before the next try after `attempts` failed ones, or null to stop trying. */
export function retryDelayMs(attempts: number): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}
