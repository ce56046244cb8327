import type { default as Router, Layer } from '@koa/router';
import type { Context, Middleware, Next } from 'koa';

/**
 * A router's routes as one middleware: what `router.routes()` does for a router with no `host`
 * option, no `router.use()` middleware and one handler per route, without the per-request work
 * those would need. @koa/router's dispatch reads `ctx.host` for its host option, builds a new
 * chain of the matched layers for every request and composes it (koa-compose 4.2 flattens the
 * chain with Array#concat at each call), and records matched-route fields nothing here reads:
 * ~10 % of the CPU of a read of a customer (issue 13, round 22, a CPU profile of the bench's load).
 *
 * The matching is the router's own (`router.match`), in its order, and each layer decodes its
 * own params, so what a handler sees is the same: the first route that matches the path and the
 * method runs with `ctx.params`, and its `next` goes on to the next matching route, then past the
 * router. A router this does not fit is refused when the app is built, not at a request.
 */
export function dispatchRoutes(router: Router): Middleware {
  if (router.host !== undefined) throw new Error('dispatchRoutes takes a router with no host option');
  for (const layer of router.stack) {
    if (layer.methods.length === 0 || layer.stack.length !== 1) {
      throw new Error(`dispatchRoutes takes routes with one handler each; ${String(layer.path)} is not one`);
    }
  }
  const dispatch = (ctx: Context, next: Next) => {
    const path = ctx.path;
    const layers = router.match(path, ctx.method).pathAndMethod;
    return layers.length === 0 ? next() : runFrom(ctx, layers, 0, path, next);
  };
  // As on router.routes()'s middleware: what is mounted can be walked (test/openapi.test.ts does).
  return Object.assign(dispatch, { router });
}

function runFrom(ctx: Context, layers: Layer[], at: number, path: string, next: Next): unknown {
  if (at === layers.length) return next();
  const layer = layers[at]!;
  // Merged into the params of routes before it, as @koa/router does.
  ctx.params = layer.params(path, layer.captures(path), ctx.params);
  const handler = layer.stack[0] as unknown as Middleware;
  return handler(ctx, async () => {
    await runFrom(ctx, layers, at + 1, path, next);
  });
}
