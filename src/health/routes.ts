import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { sendJson } from '../http/bind';
import { lastSuccessfulBackup } from '../backups/service';
import { limitAnonymous } from '../routing/rate-limited';
import type { RateLimiter } from '../routing/rate-limit';
import { isoTime } from '../lib/clock';
import { VERSION } from '../lib/version';

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
        webhookBacklog: count(deps, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'"),
        passUpdateBacklog: count(deps, 'SELECT count(*) AS n FROM wallet_pass_updates WHERE next_attempt_at IS NOT NULL'),
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

function count(deps: AppDeps, sql: string): number {
  return (deps.db.prepare(sql).get() as { n: number }).n;
}
