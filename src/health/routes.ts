import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { sendJson } from '../http/bind';
import { lastSuccessfulBackup } from '../backups/service';
import { limitAnonymous } from '../routing/rate-limited';
import type { RateLimiter } from '../routing/rate-limit';
import { isoTime } from '../lib/clock';
import { VERSION } from '../lib/version';
import { passUpdateBacklog } from '../wallet/updates/worker';
import { webhookBacklog } from '../webhooks/worker';

/**
 * GET /healthz (decisions §9), for a monitor such as Uptime Kuma: no key, limited like every
 * request without one. It reads the database, so a 200 means the server can answer from it; the
 * answer holds counts and times only, never a secret or a customer's datum.
 */
export function healthRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    ctx.set('Cache-Control', 'no-store');
    let body: Record<string, unknown>;
    try {
      const lastBackup = lastSuccessfulBackup(deps.db);
      body = {
        status: 'ok',
        version: VERSION,
        schemaVersion: deps.db.pragma('user_version', { simple: true }) as number,
        webhookBacklog: webhookBacklog(deps.db),
        passUpdateBacklog: passUpdateBacklog(deps.db),
        lastBackupAt: lastBackup ? isoTime(lastBackup.finishedAt) : null,
      };
    } catch (err) {
      deps.log.error('healthz: the database cannot be read', { err });
      return sendJson(ctx, 503, JSON.stringify({ status: 'error', reason: `the database cannot be read: ${(err as Error).message}` }));
    }
    sendJson(ctx, 200, JSON.stringify(body));
  });
  return router;
}
