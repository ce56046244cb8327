import type Router from '@koa/router';
import { countCustomers } from '../../customers/list';
import type { AppDeps } from '../../deps';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { dashboardData } from './service';
import { dashboardBody } from './views';
import { CHECKLIST, checklistPanel, checklistState, checklistView } from './checklist';
import { tConsole } from '../../i18n/translate';
import { backupState } from '../../backups/state';
import { backupNotices } from '../backups/banner';
import { html } from '../../web/html';
import { flaggedToday } from '../../watchlist/service';
import { watchListSummary } from '../watchlist/views';

export function bindDashboard(router: Router, deps: AppDeps): void {
  router.get('/console/dashboard', (ctx) => {
    const c = consoleOf(ctx);
    const data = dashboardData(deps.db, c.namespace, deps.clock.now(), c.lang);
    // In test mode the sandbox's limit matters: how much of it is used.
    const testCustomers = c.livemode ? null : countCustomers(deps.db, c.namespace);
    const checklist = checklistPanel(checklistView(checklistState(deps, c.org), CHECKLIST, c.lang), c.lang);
    const backups = backupNotices(backupState(deps), deps.config, deps.clock.now(), data.timeZone, c.lang);
    sendConsolePage(ctx, deps, c, {
      section: 'dashboard',
      title: tConsole(c.lang, 'console.dashboard.title'),
      body: dashboardBody(data, testCustomers, html`${backups}${watchListSummary(c.lang, flaggedToday(deps, c.namespace))}${checklist}`, c.lang),
    });
  });
}
