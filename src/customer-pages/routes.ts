// Every page a customer opens, outside /api: the install link and its sign-up form (/get-pass),
// the welcome after signing up, "Email me my card", the web pass, the unsubscribe page of the
// reminder and birthday emails. The pass files themselves, Apple's
// web service and Google's callback are the wallet's (wallet/http). Bound explicitly, so `grep`
// finds each path in its file.
import Router from '@koa/router';
import type { AppDeps } from '../deps';
import type { RateLimiter } from '../routing/rate-limit';
import type { WalletDeps } from '../wallet/http/deps';
import type { WalletServices } from '../wallet/services';
import { bindInstallRoutes } from './pass/install-routes';
import { bindWebPassRoutes } from './pass/web-pass-routes';
import { bindEmailCardRoute } from './signup/email-card';
import { bindSignupRoutes } from './signup/routes';
import { bindUnsubscribeRoutes } from './unsubscribe/routes';

export function customerPagesRouter(deps: AppDeps, limiter: RateLimiter, wallet: WalletServices): Router {
  const pageDeps: WalletDeps = { ...deps, wallet };
  const router = new Router();
  bindInstallRoutes(router, pageDeps, limiter);
  bindSignupRoutes(router, pageDeps, limiter);
  bindEmailCardRoute(router, pageDeps, limiter);
  bindWebPassRoutes(router, pageDeps, limiter);
  bindUnsubscribeRoutes(router, pageDeps, limiter);
  return router;
}
