import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { pageErrors } from '../web/errors';
import { consolePageWording } from './refusals';
import type { WalletServices } from '../wallet/services';
import { bindAccount, bindSignIn } from './auth/routes';
import { bindCards } from './cards/routes';
import { bindPromotions } from './promotions/routes';
import { consoleGuard } from './guard';
import { bindKeys } from './keys/routes';
import { bindPoster } from './poster/routes';
import { bindCustomers } from './customers/routes';
import { bindCustomerImport } from './customers/import-routes';
import { bindDashboard } from './dashboard/routes';
import { bindSettings } from './settings/routes';
import { bindEmailSettings } from './settings/email';
import { bindLocationSettings } from './settings/locations';
import { bindStaff } from './staff/routes';
import { bindWebhooks } from './webhooks/routes';
import { bindGoingLive } from './going-live';
import { bindBackups } from './backups/routes';
import { bindAdmins } from './admins/routes';
import { bindHelp } from './help/routes';
import { bindMessages } from './messages/routes';
import { bindReport } from './report/routes';
import { bindWatchList } from './watchlist/routes';

// Every console path (all under `{PUBLIC_URL}/console`), bound explicitly so `grep` finds each.
// Sign-in is the only part outside the guard; each section binds its own routes behind it.

export function consoleRouters(deps: AppDeps, wallet: WalletServices): Router[] {
  const open = new Router();
  open.use(pageErrors(deps.log, consolePageWording));
  bindSignIn(open, deps);

  const guarded = new Router();
  guarded.use(pageErrors(deps.log, consolePageWording), consoleGuard(deps));
  guarded.get('/console', (ctx) => ctx.redirect('/console/dashboard'));
  bindAccount(guarded, deps);
  bindCards(guarded, deps);
  bindPromotions(guarded, deps);
  bindSettings(guarded, deps, wallet);
  bindEmailSettings(guarded, deps);
  bindLocationSettings(guarded, deps);
  bindKeys(guarded, deps);
  bindWebhooks(guarded, deps);
  bindStaff(guarded, deps);
  bindPoster(guarded, deps);
  bindDashboard(guarded, deps);
  bindCustomerImport(guarded, deps);
  bindMessages(guarded, deps);
  bindCustomers(guarded, deps);
  bindGoingLive(guarded, deps);
  bindBackups(guarded, deps);
  bindAdmins(guarded, deps);
  bindHelp(guarded, deps);
  bindReport(guarded, deps);
  bindWatchList(guarded, deps);
  return [open, guarded];
}
