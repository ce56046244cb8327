import type Router from '@koa/router';
import type { Context } from 'koa';
import { claimIdempotencyKey, checkIdempotencyKey, runIdempotent } from '../idempotency/service';
import { parseInput } from '../lib/validation';
import { readJsonBody } from './body';
import { writeBatches } from '../db/write-batch';
import type { AppDeps } from '../deps';
import { authenticate } from './gate';
import { setHeader } from './headers';
import type { RateLimiter } from './rate-limit';
import { NO_BODY, type RouteDef } from './route';

export function sendJson(ctx: Context, status: number, json: string): void {
  // Through ctx.response: ctx's own setters reach it by a computed property name, which V8
  // resolves in its runtime at every call (issue 13).
  ctx.response.status = status;
  // What `ctx.type = 'application/json'` sets, without its MIME lookup on every answer.
  setHeader(ctx, 'Content-Type', 'application/json; charset=utf-8');
  ctx.response.body = json;
}

/**
 * Registers each definition with the full check order of decisions §7 in front of its handler.
 * The database work runs in the turn's batch (db/write-batch.ts: group commit), and the answer
 * waits until that batch has committed. Its checks run at once; what it came to do is queued, and
 * runs with the turn's other requests' work just before their commit.
 */
export function bindRoutes(router: Router, deps: AppDeps, limiter: RateLimiter, defs: readonly RouteDef[]): void {
  for (const def of defs) {
    const method = def.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    router[method](def.path, async (ctx: Context) => {
      const unit = writeBatches(deps.db).unit();
      const inBatch: InBatch = def.method === 'GET' ? { now: unit.read, soon: unit.queueRead } : { now: unit.write, soon: unit.queueWrite };
      try {
        await handle(ctx, def, deps, limiter, inBatch);
      } finally {
        // Also after a refusal: it may rest on rows of the batch (a balance another request raised).
        const committed = unit.settled();
        if (committed) await committed;
      }
    });
  }
}

/** A request's database work: `now` for its checks, `soon` for what it came to do. */
interface InBatch {
  now<T>(fn: () => T): T;
  soon<T>(fn: () => T): Promise<T>;
}

async function handle(ctx: Context, def: RouteDef, deps: AppDeps, limiter: RateLimiter, inBatch: InBatch): Promise<void> {
  const auth = inBatch.now(() => authenticate(ctx, deps, limiter, def.scope));

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
      const reply = await inBatch.soon(() => runIdempotent(deps, scope, { path: ctx.path, body: rawBody }, release !== null, () => def.handle(input) as { status: number; body: unknown }));
      if (reply.replayed) ctx.set('Idempotent-Replayed', 'true');
      sendJson(ctx, reply.status, reply.body);
      return;
    }
    // An async handler (webhook URL checks) has only its first synchronous part in the batch.
    const reply = await inBatch.soon(() => def.handle(input));
    sendJson(ctx, reply.status, JSON.stringify(reply.body));
  } finally {
    release?.();
  }
}
