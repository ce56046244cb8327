// The wallets' own protocols, outside /api: Apple's web service, Google's callback and the images
// both fetch. The pages a customer opens (install link, web pass) are customer-pages/. Bound
// explicitly, so `grep` finds each path in its file.
import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import type { RateLimiter } from '../../routing/rate-limit';
import type { WalletServices } from '../services';
import { bindAppleWebService } from './apple-routes';
import type { WalletDeps } from './deps';
import { bindGoogleRoutes } from './google-routes';

export function walletRouter(deps: AppDeps, limiter: RateLimiter, wallet: WalletServices): Router {
  const walletDeps: WalletDeps = { ...deps, wallet };
  const router = new Router();
  bindAppleWebService(router, walletDeps, limiter);
  bindGoogleRoutes(router, walletDeps, limiter);
  return router;
}
