import { cardRoutes } from '../cards/routes';
import { customerRoutes } from '../loyalty/customer-routes';
import { loyaltyRoutes } from '../loyalty/routes';
import { privacyRoutes } from '../privacy/routes';
import { promotionRoutes } from '../promotions/routes';
import { webhookRoutes } from '../webhooks/routes';
import { testClockRoutes } from '../sweeps/routes';
import type { RouteDef } from '../routing/route';

/** Every /api route, feature by feature: `grep` finds each path in its feature's routes.ts. */
export function apiRoutes(): RouteDef[] {
  // Customers first: /v1/customers/lookup must be matched before /v1/customers/:ref.
  return [...cardRoutes, ...promotionRoutes, ...customerRoutes, ...privacyRoutes, ...loyaltyRoutes, ...webhookRoutes, ...testClockRoutes];
}
