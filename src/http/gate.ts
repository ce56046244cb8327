import type { Context } from 'koa';
import { authenticateKey } from '../keys/service';
import type { Scope } from '../keys/scopes';
import type { AppDeps } from '../deps';
import { ApiError } from '../lib/errors';
import type { RateLimiter } from '../routing/rate-limit';
import { limitAnonymous, takeOrRefuse } from '../routing/rate-limited';
import type { Auth } from '../routing/route';

/** Order of checks: key (401) → rate limit (429) → scope (403). */
export function authenticate(ctx: Context, deps: AppDeps, limiter: RateLimiter, scope: Scope): Auth {
  const raw = ctx.get('X-Api-Key').trim();
  const key = raw ? authenticateKey(deps, raw) : null;
  if (!key) {
    limitAnonymous(ctx, deps, limiter);
    // The 401 message is the code itself, so `message === 'INVALID_API_KEY'` holds too.
    throw new ApiError(401, raw ? 'INVALID_API_KEY' : 'MISSING_API_KEY');
  }
  takeOrRefuse(ctx, limiter, `key:${key.id}`, key.mode === 'live' ? deps.config.rateLimit.live : deps.config.rateLimit.test, 'this key');
  if (!key.scopes.includes(scope)) {
    throw new ApiError(403, 'MISSING_SCOPE', { exactMessage: `Missing scope(s): ${scope}` });
  }
  return { keyId: key.id, orgId: key.orgId, mode: key.mode, livemode: key.mode === 'live', scopes: key.scopes };
}
