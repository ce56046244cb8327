import type { Db } from '../db/open';
import { perConnection } from '../db/per-connection';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';

function createFanOutRepo(db: Db) {
  // An endpoint takes an event when it is active, of the event's org and mode, and lists the type or "*".
  const subscribers = db.prepare<{ orgId: string; livemode: number; type: string }, { id: string }>(
    `SELECT id FROM webhooks
     WHERE org_id = @orgId AND livemode = @livemode AND status = 'active'
       AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value IN (@type, '*'))
     ORDER BY created_at, rowid`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempt_count, next_attempt_at, created_at)
     VALUES (@id, @webhookId, @eventId, 'pending', 0, @now, @now)`,
  );
  return {
    subscribers: (orgId: string, livemode: boolean, type: string) => subscribers.all({ orgId, livemode: livemode ? 1 : 0, type }).map((r) => r.id),
    insertDelivery: (row: { id: string; webhookId: string; eventId: string; now: number }) => insertDelivery.run(row),
  };
}
const fanOutRepo = perConnection(createFanOutRepo);

/** One pending delivery per subscribed endpoint, due now; runs inside the event's transaction. */
export function fanOutToWebhooks(deps: { db: Db; clock: Clock }, event: { id: string; orgId: string; livemode: boolean; type: string }): number {
  const repo = fanOutRepo(deps.db);
  const now = deps.clock.now();
  const webhookIds = repo.subscribers(event.orgId, event.livemode, event.type);
  for (const webhookId of webhookIds) repo.insertDelivery({ id: newId('wd'), webhookId, eventId: event.id, now });
  return webhookIds.length;
}
