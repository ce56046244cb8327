import type { Db } from '../db/open';
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
  return {
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
