import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import { dispatchRoutes } from '../src/http/dispatch';

// dispatchRoutes must answer every request as @koa/router's own `routes()` does for the routers it
// takes: the same app is served both ways, and each request goes to both over a real socket.

function routesUnderTest(): Router {
  const router = new Router({ prefix: '/api' });
  const say = (what: string) => (ctx: Context) => {
    ctx.body = { route: what, params: ctx.params };
  };
  router.get('/items/lookup', say('lookup'));
  router.get('/items/:ref', say('item'));
  // A route that passes on: the next matching route answers, then what follows the router.
  router.get('/chain/:a', async (ctx: Context, next: Next) => {
    ctx.set('X-First', ctx.params.a!);
    await next();
  });
  router.get('/chain/:b', (ctx: Context) => {
    ctx.body = { route: 'second', params: ctx.params };
  });
  router.get('/fallthrough/:x', (_ctx: Context, next: Next) => next());
  router.post('/items/:ref/earn', say('earn'));
  router.get('/files/*path', say('files'));
  return router;
}

function serve(routes: Koa.Middleware<any, any>): Promise<Server> {
  const app = new Koa();
  app.use(routes);
  app.use((ctx: Context) => {
    ctx.status = 404;
    ctx.body = { route: 'after the router', params: ctx.params ?? null };
  });
  return new Promise((resolve) => {
    const server = createServer(app.callback()).listen(0, '127.0.0.1', () => resolve(server));
  });
}

const cases: Array<{ method: string; path: string; status: number; body?: unknown; first?: string }> = [
  { method: 'GET', path: '/api/items/lookup', status: 200, body: { route: 'lookup', params: {} } },
  { method: 'GET', path: '/api/items/c-1', status: 200, body: { route: 'item', params: { ref: 'c-1' } } },
  { method: 'GET', path: '/api/items/caf%C3%A9%2F1', status: 200, body: { route: 'item', params: { ref: 'café/1' } } },
  { method: 'GET', path: '/api/items/%E0%A4%A', status: 200, body: { route: 'item', params: { ref: '%E0%A4%A' } } },
  { method: 'HEAD', path: '/api/items/c-1', status: 200 },
  { method: 'POST', path: '/api/items/c-1/earn', status: 200, body: { route: 'earn', params: { ref: 'c-1' } } },
  { method: 'GET', path: '/api/items/c-1/earn', status: 404, body: { route: 'after the router', params: null } },
  { method: 'DELETE', path: '/api/items/c-1', status: 404, body: { route: 'after the router', params: null } },
  { method: 'GET', path: '/api/chain/z', status: 200, body: { route: 'second', params: { a: 'z', b: 'z' } }, first: 'z' },
  { method: 'GET', path: '/api/fallthrough/y', status: 404, body: { route: 'after the router', params: { x: 'y' } } },
  { method: 'GET', path: '/api/files/a/b.txt', status: 200, body: { route: 'files', params: { path: 'a/b.txt' } } },
  { method: 'GET', path: '/items/c-1', status: 404, body: { route: 'after the router', params: null } },
];

describe('dispatchRoutes answers as router.routes() does', () => {
  let ours: Server;
  let theirs: Server;
  before(async () => {
    ours = await serve(dispatchRoutes(routesUnderTest()));
    theirs = await serve(routesUnderTest().routes());
  });
  after(async () => {
    for (const server of [ours, theirs]) await new Promise((resolve) => server.close(resolve));
  });

  const ask = async (server: Server, method: string, path: string) => {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), first: response.headers.get('X-First') ?? undefined };
  };

  for (const c of cases) {
    it(`${c.method} ${c.path} → ${c.status}`, async () => {
      const answer = await ask(ours, c.method, c.path);
      assert.deepEqual(answer, { status: c.status, body: c.body, first: c.first });
      assert.deepEqual(answer, await ask(theirs, c.method, c.path));
    });
  }

  it('refuses a router it would not dispatch the same way', () => {
    const withMiddleware = new Router();
    withMiddleware.use(async (_ctx, next) => next());
    withMiddleware.get('/x', (ctx) => (ctx.body = 'x'));
    const twoHandlers = new Router();
    twoHandlers.get('/x', async (_ctx, next) => next(), (ctx) => (ctx.body = 'x'));
    const withHost = new Router({ host: 'example.com' });
    withHost.get('/x', (ctx) => (ctx.body = 'x'));
    for (const router of [withMiddleware, twoHandlers, withHost]) assert.throws(() => dispatchRoutes(router), /dispatchRoutes takes/);
  });
});
