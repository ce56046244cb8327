import { wakeAfterCommit } from '../db/after-commit';
import type { EmittedEvent, WriteDeps } from '../deps';
import { eventsRepo } from '../events/repo';
import { newId } from '../lib/ids';
import { deliveriesRepo } from './deliveries-repo';
import { webhooksRepo } from './repo';

/**
 * Keeps an event for the endpoints that take it, inside the event's transaction: the event row
 * (the exact envelope every delivery and replay sends) and one pending delivery per subscribed
 * active endpoint, due now; the delivery worker is woken once the transaction commits. An event
 * no endpoint takes is not written at all: it could never be sent (a replay needs a delivery, and
 * an endpoint registered later receives only later events), so its row would be written only to
 * be swept away unread. A disabled endpoint is not subscribed, so nothing queues up for it while
 * it is off. Returns how many deliveries were written.
 */
export function fanOutToWebhooks(deps: Pick<WriteDeps, 'db' | 'clock' | 'afterCommit'>, event: EmittedEvent): number {
  const webhookIds = webhooksRepo(deps.db).subscribers(event.orgId, event.livemode, event.type);
  if (webhookIds.length === 0) return 0;
  const eventSeq = eventsRepo(deps.db).insert(event);
  const now = deps.clock.now();
  const deliveries = deliveriesRepo(deps.db);
  for (const webhookId of webhookIds) deliveries.insert({ id: newId('wd'), webhookId, eventSeq, livemode: event.livemode, now, replayOf: null });
  wakeAfterCommit(deps.db, 'events', () => deps.afterCommit.eventsWritten());
  return webhookIds.length;
}
