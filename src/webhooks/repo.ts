import { namespaceParams, type NamespaceParams } from '../db/namespace-params';
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

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

  return {
    insert(row: WebhookRow) {
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
      update.run({ ...row, events: JSON.stringify(row.events) });
    },
    /** True when it was active until now. */
    disable(id: string, updatedAt: number): boolean {
      return disable.run({ id, updatedAt }).changes === 1;
    },
    /** Its deliveries and their attempts go with it (ON DELETE CASCADE). */
    remove(id: string) {
      remove.run(id);
    },
    /** Every active endpoint's id, of all orgs and modes. */
    activeIds(): string[] {
      return active.all();
    },
    /** The active endpoints of the org and mode that take this event type. */
    subscribers(orgId: string, livemode: boolean, type: string): string[] {
      return subscribers.all(namespaceParams(orgId, livemode, { type })).map((r) => r.id);
    },
  };
}

export const webhooksRepo = perConnection(createWebhooksRepo);
