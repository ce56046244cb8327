import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../lib/errors';
import type { RateLimiter } from './rate-limit';

/**
 * Takes one request from a bucket: the X-RateLimit headers go on every /api response, and a
 * refusal becomes 429 RATE_LIMITED with Retry-After. `who` words the limit in the message.
 */
export function takeOrRefuse(ctx: Context, limiter: RateLimiter, bucket: string, limit: number, who: string): void {
  const decision = limiter.take(bucket, limit);
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  if (!decision.allowed) {
    throw new ApiError(429, 'RATE_LIMITED', {
      errorName: 'RATE_LIMITED',
      exactMessage: `RATE_LIMITED: ${who} may make ${limit} requests per second; retry after ${decision.retryAfterSeconds} s`,
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    });
  }
}

/** Requests without a valid key share a bucket per client address, so guessing keys is slow too. */
export function limitAnonymous(ctx: Context, deps: Pick<AppDeps, 'config'>, limiter: RateLimiter): void {
  takeOrRefuse(ctx, limiter, `ip:${ctx.ip}`, deps.config.rateLimit.anonymous, 'unauthenticated clients');
}
