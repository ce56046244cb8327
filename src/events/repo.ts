import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export interface EventRow {
  id: string;
  orgId: string;
  livemode: boolean;
  type: string;
  customerId: string | null;
  payload: string;
  createdAt: number;
}

function createEventsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO events (id, org_id, livemode, type, customer_id, payload, created_at)
     VALUES (@id, @orgId, @livemode, @type, @customerId, @payload, @createdAt)`,
  );
  const byId = db.prepare<[string], { id: string; org_id: string; livemode: number; type: string; customer_id: string | null; payload: string; created_at: number }>(
    'SELECT * FROM events WHERE id = ?',
  );
  // History retention: events created before the cutoff that no delivery refers to any more (a
  // pending delivery or a recent replay keeps its event), one batch. CROSS JOIN keeps orgs as the
  // outer loop, so each org's events_org range yields the old rows without scanning the table.
  const deleteUnreferencedBefore = db.prepare(
    `DELETE FROM events WHERE rowid IN (
       SELECT e.rowid FROM orgs o CROSS JOIN events e ON e.org_id = o.id AND e.livemode IN (0, 1)
       WHERE e.created_at < @cutoff
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
       LIMIT @limit)`,
  );
  return {
    /** Removes up to `limit` events created before `cutoff` that no delivery refers to; returns how many. */
    deleteUnreferencedBefore(cutoff: number, limit: number): number {
      return deleteUnreferencedBefore.run({ cutoff, limit }).changes;
    },
    insert(row: EventRow) {
      insert.run({ ...row, livemode: row.livemode ? 1 : 0 });
    },
    findById(id: string): EventRow | undefined {
      const r = byId.get(id);
      return r && { id: r.id, orgId: r.org_id, livemode: r.livemode === 1, type: r.type, customerId: r.customer_id, payload: r.payload, createdAt: r.created_at };
    },
  };
}

export const eventsRepo = perConnection(createEventsRepo);
