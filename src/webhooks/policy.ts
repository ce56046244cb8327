/**
 * How long a claim holds a delivery. An attempt ends by its timeout, so a lease outliving the
 * timeout by a margin (for the DNS lookup and the write that records the attempt) can only
 * expire when its worker died; then the next sweep sends the delivery again. The retry schedule is
 * WEBHOOK_RETRY_DELAYS_MS, one wait per retry (queue/retry.ts).
 */
export function leaseMs(timeoutMs: number): number {
  return timeoutMs + 2_000;
}
