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
  // History retention: events created before the cutoff that no delivery refers to any more (a
  // pending delivery or a recent replay keeps its event: the event counts its deliveries), one
  // batch. CROSS JOIN keeps orgs as the outer loop, so each org's events_org range yields the old
  // rows without scanning the table.
  const deleteUnreferencedBefore = db.prepare(
    `DELETE FROM events WHERE seq IN (
       SELECT e.seq FROM orgs o CROSS JOIN events e ON e.org_id = o.id AND e.livemode IN (0, 1)
       WHERE e.created_at < @cutoff AND e.deliveries = 0
       LIMIT @limit)`,
  );
  return {
    /** Removes up to `limit` events created before `cutoff` that no delivery refers to; returns how many. */
    deleteUnreferencedBefore(cutoff: number, limit: number): number {
      return deleteUnreferencedBefore.run({ cutoff, limit }).changes;
    },
    /** Returns the event's row number (events.seq), by which its deliveries refer to it. */
    insert(row: EventRow): number {
      return Number(insert.run({ ...row, livemode: row.livemode ? 1 : 0 }).lastInsertRowid);
    },
  };
}

export const eventsRepo = perConnection(createEventsRepo);
