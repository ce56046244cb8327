import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { sendJson } from '../routing/send-json';
import { backupState } from '../backups/state';
import { limitAnonymous } from '../routing/rate-limited';
import type { RateLimiter } from '../routing/rate-limit';
import { isoTime } from '../lib/clock';
import { VERSION } from '../lib/version';
import { passUpdateBacklog } from '../wallet/updates/worker';
import { webhookBacklog } from '../webhooks/worker';
import { mailBacklog } from '../mail/worker';

/**
 * GET /healthz, for a monitor such as Uptime Kuma: no key, limited like every request without one.
 * It reads the database, so a 200 means the server can answer from it; the answer holds counts,
 * times and settings only, never a secret or a customer's datum. Per subsystem: the backlog of each
 * queue (webhooks, wallet pass updates, email), the newest backup in the backup folder (not the
 * database's memory of one, which a restore brings from elsewhere) and the last backup's failure,
 * and whether an off-site copy (Litestream) is declared.
 */
export function healthRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    ctx.set('Cache-Control', 'no-store');
    let body: Record<string, unknown>;
    try {
      const backups = backupState(deps);
      body = {
        status: 'ok',
        version: VERSION,
        schemaVersion: deps.db.pragma('user_version', { simple: true }) as number,
        webhookBacklog: webhookBacklog(deps.db),
        passUpdateBacklog: passUpdateBacklog(deps.db),
        mailBacklog: mailBacklog(deps.db),
        lastBackupAt: backups.newest ? isoTime(backups.newest.at) : null,
        lastBackupError: backups.lastError?.message ?? null,
        replication: deps.config.replication ?? 'off',
      };
    } catch (err) {
      deps.log.error('healthz: the database cannot be read', { err });
      return sendJson(ctx, 503, JSON.stringify({ status: 'error', reason: `the database cannot be read: ${(err as Error).message}` }));
    }
    sendJson(ctx, 200, JSON.stringify(body));
  });
  return router;
}
