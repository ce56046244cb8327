import type Router from '@koa/router';
import { customerSearchRepo } from '../../customers/search-repo';
import type { AppDeps } from '../../deps';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { dashboardData } from './service';
import { dashboardBody } from './views';
import { checklistPanel, checklistState, checklistView } from './checklist';

export function bindDashboard(router: Router, deps: AppDeps): void {
  router.get('/console/dashboard', (ctx) => {
    const c = consoleOf(ctx);
    const data = dashboardData(deps.db, c.namespace, deps.clock.now());
    // In test mode the sandbox's limit matters: how much of it is used.
    const testCustomers = c.livemode ? null : customerSearchRepo(deps.db).count(c.namespace);
    const checklist = checklistPanel(checklistView(checklistState(deps, c.org)));
    sendConsolePage(ctx, deps, c, { section: 'dashboard', title: 'Dashboard', body: dashboardBody(data, testCustomers, checklist) });
  });
}
