import { cardRoutes } from '../cards/routes';
import { webhookRoutes } from '../webhooks/routes';
import type { RouteDef } from './route';

/** Every /api route, feature by feature: `grep` finds each path in its feature's routes.ts. */
export function apiRoutes(): RouteDef[] {
  return [...cardRoutes, ...webhookRoutes];
}
