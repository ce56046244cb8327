import type { Clock } from '../lib/clock';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until one request is allowed again (only when refused). */
  retryAfterSeconds: number;
}

/**
 * Token buckets in memory, one per key (or client address): `limit` requests per second with
 * bursts up to `limit`. One process serves the machine, so memory is the right home for them.
 */
export function createRateLimiter(clock: Clock) {
  const buckets = new Map<string, { tokens: number; at: number; limit: number }>();
  let lastSweep = clock.now();

  function sweep(now: number) {
    // A bucket that has refilled completely carries no information; drop it to bound memory.
    if (now - lastSweep < 10_000) return;
    lastSweep = now;
    for (const [id, bucket] of buckets) if (bucket.tokens + ((now - bucket.at) / 1000) * bucket.limit >= bucket.limit) buckets.delete(id);
  }

  return {
    take(id: string, limit: number): RateDecision {
      const now = clock.now();
      sweep(now);
      const bucket = buckets.get(id) ?? { tokens: limit, at: now, limit };
      bucket.tokens = Math.min(limit, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * limit);
      bucket.at = now;
      bucket.limit = limit;
      buckets.set(id, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true, limit, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 };
      }
      const waitMs = ((1 - bucket.tokens) / limit) * 1000;
      return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
