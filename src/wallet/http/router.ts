// Every public wallet route, outside /api: install link, web pass, Apple's web service, Google's
// callback. Bound explicitly, so `grep` finds each path in its file.
import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import type { RateLimiter } from '../../routing/rate-limit';
import type { WalletServices } from '../services';
import { bindAppleWebService } from './apple-routes';
import type { WalletDeps } from './deps';
import { bindGoogleRoutes } from './google-routes';
import { bindInstallRoutes } from './install-routes';
import { bindWebPassRoutes } from './web-pass-routes';

export function walletRouter(deps: AppDeps, limiter: RateLimiter, wallet: WalletServices): Router {
  const walletDeps: WalletDeps = { ...deps, wallet };
  const router = new Router();
  bindInstallRoutes(router, walletDeps, limiter);
  bindWebPassRoutes(router, walletDeps, limiter);
  bindAppleWebService(router, walletDeps, limiter);
  bindGoogleRoutes(router, walletDeps, limiter);
  return router;
}
