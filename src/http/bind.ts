import type Router from '@koa/router';
import type { Context } from 'koa';
import { claimIdempotencyKey, checkIdempotencyKey, runIdempotent } from '../idempotency/service';
import { parseInput } from '../lib/validation';
import { readJsonBody } from '../routing/json-body';
import type { AppDeps } from '../deps';
import { authenticate } from './gate';
import type { RateLimiter } from '../routing/rate-limit';
import { NO_BODY, synchronousReply, type RouteDef } from '../routing/route';
import { sendJson } from '../routing/send-json';
import { inTransaction } from '../db/transaction';

/**
 * Registers each definition with the full check order in front of its handler: route, key,
 * rate limit, scope, body and parameters, idempotency, then the operation's own rules.
 * A write's handler runs whole in one transaction (the idempotency record joins it), which has
 * committed before the answer is sent; a failure in it rolls back that request alone.
 */
export function bindRoutes(router: Router, deps: AppDeps, limiter: RateLimiter, defs: readonly RouteDef[]): void {
  for (const def of defs) {
    const method = def.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    router[method](def.path, (ctx: Context) => handle(ctx, def, deps, limiter));
  }
}

async function handle(ctx: Context, def: RouteDef, deps: AppDeps, limiter: RateLimiter): Promise<void> {
  const auth = authenticate(ctx, deps, limiter, def.scope);

  const idempotencyKey = def.idempotent ? ctx.get('Idempotency-Key') || undefined : undefined;
  const scope = idempotencyKey && { orgId: auth.orgId, livemode: auth.livemode, method: def.method, route: def.path, key: idempotencyKey };
  const release = scope ? claimIdempotencyKey(scope) : null;
  try {
    const rawBody = def.method === 'GET' || def.method === 'DELETE' ? undefined : await readJsonBody(ctx);
    if (!def.body && rawBody !== undefined) parseInput(NO_BODY, rawBody);
    const input = {
      deps,
      auth,
      params: def.params ? parseInput(def.params, ctx.params) : undefined,
      query: def.query ? parseInput(def.query, ctx.query) : undefined,
      body: def.body ? parseInput(def.body, rawBody ?? {}) : undefined,
      idempotencyKey,
      requestId: ctx.state.requestId as string,
    };
    if (idempotencyKey) checkIdempotencyKey(idempotencyKey);

    if (scope) {
      const reply = runIdempotent(deps, scope, { path: ctx.path, body: rawBody }, release !== null, () => synchronousReply(def.handle(input)));
      if (reply.replayed) ctx.set('Idempotent-Replayed', 'true');
      sendJson(ctx, reply.status, reply.body);
      return;
    }
    // The customer and card a write reads first are read in its transaction (the service's own
    // becomes a savepoint of it): nothing can change between the read and the write, and the reads
    // need no transaction of their own.
    const reply = def.idempotent ? inTransaction(deps.db, () => synchronousReply(def.handle(input))) : await def.handle(input);
    sendJson(ctx, reply.status, JSON.stringify(reply.body));
  } finally {
    release?.();
  }
}
