import type { Socket } from 'node:net';
import type { Context } from 'koa';
import { hashKey } from '../keys/key-format';
import { authenticateKey } from '../keys/service';
import { sameLengthTextEqual } from '../lib/secrets';
import type { Scope } from '../keys/scopes';
import type { AppDeps } from '../deps';
import { ApiError } from '../lib/errors';
import { setHeader } from './headers';
import type { RateLimiter } from './rate-limit';
import type { Auth } from './route';

/**
 * Takes one request from a bucket: the X-RateLimit headers go on every /api response, and a
 * refusal becomes 429 RATE_LIMITED with Retry-After. `who` words the limit in the message.
 */
function takeOrRefuse(ctx: Context, limiter: RateLimiter, bucket: string, limit: number, who: string): void {
  const decision = limiter.take(bucket, limit);
  setHeader(ctx, 'X-RateLimit-Limit', String(decision.limit));
  setHeader(ctx, 'X-RateLimit-Remaining', String(decision.remaining));
  if (!decision.allowed) {
    throw new ApiError(429, 'RATE_LIMITED', {
      errorName: 'RATE_LIMITED',
      exactMessage: `RATE_LIMITED: ${who} may make ${limit} requests per second; retry after ${decision.retryAfterSeconds} s`,
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    });
  }
}

/** Requests without a valid key share a bucket per client address, so guessing keys is slow too. */
export function limitAnonymous(ctx: Context, deps: AppDeps, limiter: RateLimiter): void {
  takeOrRefuse(ctx, limiter, `ip:${ctx.ip}`, deps.config.rateLimit.anonymous, 'unauthenticated clients');
}

/**
 * The last key a connection sent and its digest. An integrator sends one key request after request
 * on a kept-alive connection; remembering it spares the SHA-256 of every request after the first
 * (3 % of the CPU of a read of a customer, issue 13). The key is still looked up by its digest each
 * time, so a revoked key is refused from the next request. The remembered key is compared with
 * what the connection sends next in constant time: behind a reverse proxy one connection carries
 * many clients' requests, and a guess must not learn how much of another client's key it matched.
 */
const lastKeyOf = new WeakMap<Socket, { raw: string; digest: string }>();

function keyDigest(socket: Socket | null, raw: string): string {
  if (!socket) return hashKey(raw);
  const last = lastKeyOf.get(socket);
  if (last && sameLengthTextEqual(last.raw, raw)) return last.digest;
  const digest = hashKey(raw);
  lastKeyOf.set(socket, { raw, digest });
  return digest;
}

/** Order of checks (decisions §7): key (401) → rate limit (429) → scope (403). */
export function authenticate(ctx: Context, deps: AppDeps, limiter: RateLimiter, scope: Scope): Auth {
  const raw = ctx.get('X-Api-Key').trim();
  const key = raw ? authenticateKey(deps, raw, (wellFormed) => keyDigest(ctx.req.socket, wellFormed)) : null;
  if (!key) {
    limitAnonymous(ctx, deps, limiter);
    // decisions §5: the 401 message is the code itself, so `message === 'INVALID_API_KEY'` holds too.
    throw new ApiError(401, raw ? 'INVALID_API_KEY' : 'MISSING_API_KEY');
  }
  takeOrRefuse(ctx, limiter, `key:${key.id}`, key.mode === 'live' ? deps.config.rateLimit.live : deps.config.rateLimit.test, 'this key');
  if (!key.scopes.includes(scope)) {
    throw new ApiError(403, 'MISSING_SCOPE', { exactMessage: `Missing scope(s): ${scope}` });
  }
  return { keyId: key.id, orgId: key.orgId, mode: key.mode, livemode: key.mode === 'live', scopes: key.scopes };
}
