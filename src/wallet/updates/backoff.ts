import { retryDelay, type BackoffPolicy } from '../../queue/retry';

// When to try a failed pass update again: 30 s, 1, 2, 4 … minutes, at most an hour apart; after
// MAX_ATTEMPTS the row rests until the next balance change revives it. Devices also re-check passes
// by themselves about once a day, so giving up late costs freshness, never data.
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 60 * 60_000;
export const MAX_ATTEMPTS = 12;

export const PASS_UPDATE_RETRY: BackoffPolicy = { retries: MAX_ATTEMPTS - 1, minTimeout: FIRST_RETRY_MS, factor: 2, maxTimeout: MAX_RETRY_MS };

/** Delay before the next try after `attempts` failed ones, or null to stop trying. */
export function retryDelayMs(attempts: number): number | null {
  return retryDelay(PASS_UPDATE_RETRY, attempts);
}
