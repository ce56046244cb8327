import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { deliveriesRepo } from './deliveries-repo';
import { webhooksRepo } from './repo';

/**
 * One pending delivery per subscribed active endpoint, due now; runs inside the event's
 * transaction. A disabled endpoint is not subscribed, so nothing queues up for it while it is off.
 */
export function fanOutToWebhooks(deps: { db: Db; clock: Clock }, event: { id: string; orgId: string; livemode: boolean; type: string }): number {
  const now = deps.clock.now();
  const webhookIds = webhooksRepo(deps.db).subscribers(event.orgId, event.livemode, event.type);
  const deliveries = deliveriesRepo(deps.db);
  for (const webhookId of webhookIds) deliveries.insert({ id: newId('wd'), webhookId, eventId: event.id, now, replayOf: null });
  return webhookIds.length;
}
