import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { BACKUP_NAME, listBackups } from '../../db/file-names';
import { runBackup } from '../../backups/service';
import { backupState } from '../../backups/state';
import { ApiError, inWords } from '../../lib/errors';
import { countOrgs } from '../../orgs/service';
import { readOrgSettings } from '../../orgs/settings';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { BACKUPS_PATH, backupsBody } from './views';
import { tConsole } from '../../i18n/translate';

/**
 * Settings → Backups: the last result, the kept files, Back up now, and a download. A backup is the
 * whole database, every org in it: it is offered for download only on a server that holds one org.
 */
export function bindBackups(router: Router, deps: AppDeps): void {
  const singleOrg = () => countOrgs(deps) === 1;

  router.get(BACKUPS_PATH, (ctx) => {
    const c = consoleOf(ctx);
    const notice = ctx.query.done === 'ok' ? 'ok' : undefined;
    sendConsolePage(ctx, deps, c, {
      section: 'settings',
      title: tConsole(c.lang, 'console.settingsNav.backups'),
      body: backupsBody(c, deps.config, {
        state: backupState(deps),
        files: listBackups(deps.config.backups.dir),
        timeZone: readOrgSettings(deps.db, c.org.id).timeZone,
        downloads: singleOrg(),
        notice,
      }),
    });
  });

  router.post(BACKUPS_PATH, async (ctx) => {
    const run = await runBackup(deps, 'console');
    ctx.status = 303;
    // A failure shows as the last run on the page itself.
    ctx.redirect(run.error ? BACKUPS_PATH : `${BACKUPS_PATH}?done=ok`);
  });

  router.get(`${BACKUPS_PATH}/:name`, (ctx) => {
    const name = ctx.params.name!;
    const file = path.join(deps.config.backups.dir, name);
    if (!singleOrg()) throw inWords(new ApiError(403, 'FORBIDDEN', { detail: tConsole(consoleOf(ctx).lang, 'console.backups.noDownload') }));
    // Only a backup's own name: never a path out of the folder, never the live database.
    if (!BACKUP_NAME.test(name) || !existsSync(file)) throw new ApiError(404, 'BACKUP_NOT_FOUND', { detail: name });
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.type = 'application/vnd.sqlite3';
    ctx.set('Cache-Control', 'no-store');
    // Streamed from the file: a large database is never held in memory.
    ctx.body = createReadStream(file);
  });
}
