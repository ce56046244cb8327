import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import { randomToken } from '../lib/ids';
import type { AppDeps } from '../deps';
import { ApiError } from '../lib/errors';
import { bindRoutes } from './bind';
import { sendJson } from '../routing/send-json';
import { limitAnonymous } from '../routing/rate-limited';
import { createRateLimiter } from '../routing/rate-limit';
import { buildOpenApi } from './openapi';
import { apiRoutes } from './routes';
import { walletRouter } from '../wallet/http/router';
import { customerPagesRouter } from '../customer-pages/routes';
import { loadWalletServices, type WalletServices } from '../wallet/services';
import { consoleRouters } from '../console/routes';
import { counterRouter } from '../counter/routes';
import { bindAssetRoutes } from '../web/assets';
import { sendErrorPage } from '../web/errors';
import { healthRouter } from '../health/routes';

/**
 * Builds the Koa application. It never listens: main.ts and the tests decide where it runs.
 * main.ts passes the wallets it loaded for the update worker too; without them they are loaded
 * from the config.
 */
export function createApp(deps: AppDeps, options: { wallet?: WalletServices } = {}): Koa {
  // Behind a reverse proxy (TRUST_PROXY) the client is the address the proxy appended last to
  // X-Forwarded-For; entries before it come from the client and could pick any rate-limit bucket.
  const app = new Koa({ proxy: deps.config.trustProxy, maxIpsCount: 1 });
  const limiter = createRateLimiter(deps.clock);
  const defs = apiRoutes();

  app.use(requestLogAndErrors(deps));

  const api = new Router({ prefix: '/api' });
  bindRoutes(api, deps, limiter, defs);
  // Built at its first request: few clients ever ask for it.
  let openApiDocument: string | undefined;
  api.get('/openapi.json', (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    openApiDocument ??= JSON.stringify(buildOpenApi(defs, deps.config.publicUrl));
    // no-store like every /api answer, as the document says of itself: a client that reads it
    // after an upgrade gets the rules the server now keeps, never a copy from before.
    sendJson(ctx, 200, openApiDocument);
  });
  app.use(api.routes());
  app.use(healthRouter(deps, limiter).routes());
  // Public pages (install link, sign-up, web pass) and wallet protocols (Apple web service, Google callback).
  const wallet = options.wallet ?? loadWalletServices(deps.config, deps.clock);
  app.use(customerPagesRouter(deps, limiter, wallet).routes());
  app.use(walletRouter(deps, limiter, wallet).routes());
  // The merchant side: the console, its static assets, and / leading to it.
  for (const router of consoleRouters(deps, wallet)) app.use(router.routes());
  app.use(counterRouter(deps).routes());
  const pages = new Router();
  bindAssetRoutes(pages);
  pages.get('/', (ctx) => ctx.redirect('/console'));
  app.use(pages.routes());

  // Nothing matched under /api: a known path with another method is 405, anything else 404.
  app.use(async (ctx: Context, next: Next) => {
    if (ctx.path !== '/api' && !ctx.path.startsWith('/api/')) return next();
    limitAnonymous(ctx, deps, limiter);
    const allowed = api.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods);
    if (allowed.length > 0) {
      const methods = [...new Set(allowed.filter((m) => m !== 'HEAD'))];
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', { detail: `${ctx.method} ${ctx.path}; allowed: ${methods.join(', ')}`, headers: { Allow: methods.join(', ') } });
    }
    throw new ApiError(404, 'ROUTE_NOT_FOUND', { detail: `${ctx.method} ${ctx.path}` });
  });
  // Anything else nobody answered is a page a person asked for: say so in a page.
  app.use(async (ctx: Context, next: Next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) sendErrorPage(ctx, 404, 'There is no page at this address.');
  });

  return app;
}

/** An error answer written without Koa, for requests that never reach it: the same body and headers. */
function bareErrorResponse(error: ApiError): { body: string; headers: Record<string, string | number> } {
  const body = JSON.stringify(error.toBody());
  return { body, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', Connection: 'close' } };
}

/**
 * The HTTP server for the app. Node answers some requests itself, with an empty body: a header
 * section it cannot parse or past 16 KiB (clientError), an HTTP/1.1 request without Host, an
 * Expect other than 100-continue. Each gets the documented JSON error body here instead.
 */
export function createHttpServer(app: Koa): Server {
  // Without Host the request reaches the app, which refuses it in the JSON shape (requestLogAndErrors).
  const server = createServer({ requireHostHeader: false }, app.callback());
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const { body, headers } = bareErrorResponse(new ApiError(417, 'EXPECTATION_FAILED', { detail: 'only "Expect: 100-continue" is understood' }));
    res.writeHead(417, headers).end(body);
  });
  // The response each socket is writing, so a client error that arrives mid-answer (a timeout)
  // closes the socket instead of writing a second status line into the first answer.
  const answering = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    answering.set(req.socket, res);
    res.once('close', () => {
      if (answering.get(req.socket) === res) answering.delete(req.socket);
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable || answering.get(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const code = status === 431 ? 'REQUEST_HEADER_FIELDS_TOO_LARGE' : status === 408 ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST';
    const detail = status === 431 ? 'the request headers exceed 16 KiB' : status === 408 ? 'the request took too long to arrive' : 'the request is not well-formed HTTP';
    const { body, headers } = bareErrorResponse(new ApiError(status, code, { detail }));
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  });
  return server;
}

/**
 * Outermost layer: a request id, one JSON log line per request, and the error boundary.
 * Expected errors (ApiError) are shown in the documented shape; anything else is logged with the
 * request id and answered as an opaque 500. No stack trace ever reaches a client.
 */
function requestLogAndErrors(deps: AppDeps) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const requestId = `req_${randomToken(16)}`;
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    // /api answers hold customer data and install links: no browser, proxy or CDN may keep one.
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    try {
      // HTTP/1.1 requires Host (RFC 9112 §3.2); createHttpServer leaves this check to us so the
      // refusal has the JSON body. HTTP/1.0 may omit it.
      if (ctx.req.httpVersion === '1.1' && ctx.get('Host') === '') {
        throw new ApiError(400, 'BAD_REQUEST', { detail: 'an HTTP/1.1 request needs a Host header', headers: { Connection: 'close' } });
      }
      await next();
    } catch (err) {
      const apiError = toApiError(err);
      if (!apiError) {
        deps.log.error('unhandled error', { requestId, method: ctx.method, path: loggedPath(ctx), err });
      }
      const shown = apiError ?? new ApiError(500, 'INTERNAL_ERROR', { detail: `something went wrong on our side; quote ${requestId} when reporting it`, extra: { requestId } });
      for (const [name, value] of Object.entries(shown.headers)) ctx.set(name, value);
      // An error is never cached, whatever the route had set before it failed (the logo's public cache).
      ctx.set('Cache-Control', 'no-store');
      sendJson(ctx, shown.status, JSON.stringify(shown.toBody()));
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    deps.log.info('request', { requestId, method: ctx.method, path: loggedPath(ctx), status: ctx.status, ms: Math.round(ms * 10) / 10 });
  };
}

/**
 * Route parameters that are bearer secrets: the install code opens a customer's pass
 * (/pass/:code); Apple's device library identifier is all a caller needs to list a device's
 * passes (/wallet/v1/devices/:deviceLibraryId/…), so Apple treats it as the device's secret; the
 * unsubscribe link's token stops a customer's emails (/unsubscribe/:token).
 */
const SECRET_PARAMS = ['code', 'deviceLibraryId', 'token'];

/**
 * A customer ref other than a passUserId is personal data (an email, a phone number, the
 * integrator's id for the person) that an erasure could not reach in a log file: it is logged as
 * `:ref`. Also where no route matched, so a mistyped path is no way around it.
 */
const isPersonalRef = (segment: string) => /^(email|phone):/i.test(segment);

/** The request path for the log, with each secret parameter and personal ref replaced by its name (`/pass/:code`). */
function loggedPath(ctx: Context): string {
  const params = (ctx as Context & { params?: Record<string, unknown> }).params;
  const isSecret = (name: string) => typeof params?.[name] === 'string' && params[name] !== '';
  const ref = typeof params?.ref === 'string' && params.ref !== '' && !params.ref.startsWith('pu_') ? params.ref : null;
  // Most requests carry none: no map is built for them.
  if (!SECRET_PARAMS.some(isSecret) && ref === null && !/(email|phone)(:|%3a)/i.test(ctx.path)) return ctx.path;
  const hidden = new Map(SECRET_PARAMS.filter(isSecret).map((name) => [params![name] as string, `:${name}`]));
  if (ref !== null) hidden.set(ref, ':ref');
  return ctx.path
    .split('/')
    .map((segment) => {
      const decoded = safeDecode(segment);
      return hidden.get(segment) ?? hidden.get(decoded) ?? (isPersonalRef(decoded) ? ':ref' : segment);
    })
    .join('/');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Our own errors, plus the few that Koa and its parsers raise for a bad request. */
function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof URIError) return new ApiError(400, 'INVALID_PATH', { detail: 'the path holds a malformed percent-encoding' });
  const status = (err as { status?: unknown; expose?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: unknown }).expose) {
    return new ApiError(status, 'BAD_REQUEST', { detail: (err as Error).message });
  }
  return null;
}
