import { namespaceParams, type NamespaceParams } from '../db/namespace-params';
import type { Db } from '../db/open';
import { perConnection } from '../db/per-connection';
import { createRowCache } from '../db/row-cache';

/** A webhook endpoint as stored. `events` is a list of event types or ["*"]. */
export interface WebhookRow {
  id: string;
  orgId: string;
  livemode: boolean;
  url: string;
  events: string[];
  status: 'active' | 'disabled';
  secret: string;
  createdAt: number;
  updatedAt: number;
}

interface RawWebhook {
  id: string;
  org_id: string;
  livemode: number;
  url: string;
  events: string;
  status: 'active' | 'disabled';
  secret: string;
  created_at: number;
  updated_at: number;
}

const map = (r: RawWebhook): WebhookRow => ({
  id: r.id,
  orgId: r.org_id,
  livemode: r.livemode === 1,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  status: r.status,
  secret: r.secret,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function createWebhooksRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO webhooks (id, org_id, livemode, url, events, status, secret, created_at, updated_at)
     VALUES (@id, @orgId, @livemode, @url, @events, @status, @secret, @createdAt, @updatedAt)`,
  );
  // Every read is scoped by org and mode: a key never sees another org's or mode's endpoints.
  const one = db.prepare<NamespaceParams & { id: string }, RawWebhook>('SELECT * FROM webhooks WHERE id = @id AND org_id = @orgId AND livemode = @livemode');
  const byId = db.prepare<[string], RawWebhook>('SELECT * FROM webhooks WHERE id = ?');
  const list = db.prepare<NamespaceParams, RawWebhook>('SELECT * FROM webhooks WHERE org_id = @orgId AND livemode = @livemode ORDER BY created_at, rowid');
  const count = db.prepare<NamespaceParams, { n: number }>('SELECT count(*) AS n FROM webhooks WHERE org_id = @orgId AND livemode = @livemode');
  const update = db.prepare('UPDATE webhooks SET url = @url, events = @events, status = @status, updated_at = @updatedAt WHERE id = @id');
  const disable = db.prepare("UPDATE webhooks SET status = 'disabled', updated_at = @updatedAt WHERE id = @id AND status = 'active'");
  const remove = db.prepare('DELETE FROM webhooks WHERE id = ?');
  // Fan-out: an endpoint takes an event when it is active, of the event's org and mode, and lists the type or "*".
  const subscribers = db.prepare<NamespaceParams & { type: string }, { id: string }>(
    `SELECT id FROM webhooks
     WHERE org_id = @orgId AND livemode = @livemode AND status = 'active'
       AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value IN (@type, '*'))
     ORDER BY created_at, rowid`,
  );

  const active = db.prepare<[], string>("SELECT id FROM webhooks WHERE status = 'active'").pluck();

  // Every event asks who takes it, and the delivery worker which endpoints are active after every
  // commit; endpoints change only through this repo (db/row-cache.ts).
  const subscribersOf = createRowCache<readonly string[]>(db);

  return {
    insert(row: WebhookRow) {
      subscribersOf.changed();
      insert.run({ ...row, livemode: row.livemode ? 1 : 0, events: JSON.stringify(row.events) });
    },
    find(orgId: string, livemode: boolean, id: string): WebhookRow | undefined {
      const row = one.get(namespaceParams(orgId, livemode, { id }));
      return row && map(row);
    },
    findById(id: string): WebhookRow | undefined {
      const row = byId.get(id);
      return row && map(row);
    },
    list(orgId: string, livemode: boolean): WebhookRow[] {
      return list.all(namespaceParams(orgId, livemode)).map(map);
    },
    count(orgId: string, livemode: boolean): number {
      return count.get(namespaceParams(orgId, livemode))!.n;
    },
    update(row: Pick<WebhookRow, 'id' | 'url' | 'events' | 'status' | 'updatedAt'>) {
      subscribersOf.changed();
      update.run({ ...row, events: JSON.stringify(row.events) });
    },
    /** True when it was active until now. */
    disable(id: string, updatedAt: number): boolean {
      subscribersOf.changed();
      return disable.run({ id, updatedAt }).changes === 1;
    },
    /** Its deliveries and their attempts go with it (ON DELETE CASCADE). */
    remove(id: string) {
      subscribersOf.changed();
      remove.run(id);
    },
    /** Every active endpoint's id, of all orgs and modes (frozen: callers share it). */
    activeIds(): readonly string[] {
      return subscribersOf.get('*active', () => active.all())!;
    },
    /** The active endpoints of the org and mode that take this event type (frozen: callers share it). */
    subscribers(orgId: string, livemode: boolean, type: string): readonly string[] {
      return subscribersOf.get(`${orgId} ${livemode} ${type}`, () => subscribers.all(namespaceParams(orgId, livemode, { type })).map((r) => r.id))!;
    },
  };
}

export const webhooksRepo = perConnection(createWebhooksRepo);
