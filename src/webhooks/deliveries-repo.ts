import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface AttemptRow {
  deliveryId: string;
  number: number;
  status: 'succeeded' | 'failed';
  responseCode: number | null;
  error: string | null;
  durationMs: number;
  at: number;
}

export interface DeliveryRow {
  id: string;
  webhookId: string;
  /** The event's public id (evt_…). */
  eventId: string;
  /** The event's row (events.seq). */
  eventSeq: number;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: number | null;
  leaseUntil: number | null;
  replayOf: string | null;
  createdAt: number;
}

/** What the worker needs to send one claimed delivery. */
export interface ClaimCandidate {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attemptCount: number;
  url: string;
  secret: string;
  payload: string;
}

interface RawDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_seq: number;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  replay_of: string | null;
  created_at: number;
}

interface RawAttempt {
  delivery_id: string;
  number: number;
  status: 'succeeded' | 'failed';
  response_code: number | null;
  error: string | null;
  duration_ms: number;
  at: number;
}

const mapDelivery = (r: RawDelivery): DeliveryRow => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventSeq: r.event_seq,
  eventType: r.event_type,
  status: r.status,
  attemptCount: r.attempt_count,
  nextAttemptAt: r.next_attempt_at,
  leaseUntil: r.lease_until,
  replayOf: r.replay_of,
  createdAt: r.created_at,
});

const mapAttempt = (r: RawAttempt): AttemptRow => ({
  deliveryId: r.delivery_id,
  number: r.number,
  status: r.status,
  responseCode: r.response_code,
  error: r.error,
  durationMs: r.duration_ms,
  at: r.at,
});

const DELIVERY_COLUMNS = `d.id, d.webhook_id, e.id AS event_id, d.event_seq, e.type AS event_type, d.status, d.attempt_count, d.next_attempt_at,
  d.lease_until, d.replay_of, d.created_at`;

function createDeliveriesRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_seq, livemode, status, attempt_count, next_attempt_at, replay_of, created_at)
     VALUES (@id, @webhookId, @eventSeq, @livemode, 'pending', 0, @now, @replayOf, @now)`,
  );
  const byId = db.prepare<[string], RawDelivery>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq WHERE d.id = ?`,
  );
  // A delivery belongs to the org and mode of its endpoint; the replay route looks it up through that.
  const inScope = db.prepare<{ id: string; orgId: string; livemode: number }, RawDelivery>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
       JOIN events e ON e.seq = d.event_seq
       JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.id = @id AND w.org_id = @orgId AND w.livemode = @livemode`,
  );
  const ofWebhook = db.prepare<{ webhookId: string; limit: number }, RawDelivery>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq
     WHERE d.webhook_id = @webhookId ORDER BY d.created_at DESC, d.event_seq DESC, d.id DESC LIMIT @limit`,
  );
  const attemptsOf = db.prepare<[string], RawAttempt>(
    'SELECT * FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, number',
  );
  // Stops an endpoint's queue: what has not been sent will not be, and says so.
  const failPending = db.prepare(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL
     WHERE webhook_id = @webhookId AND status = 'pending'`,
  );

  // Due: pending, its time has come, and nobody holds a live lease on it (an expired lease is a
  // crashed or stopped worker's). The queue is read one endpoint at a time through
  // webhook_deliveries_queue (webhook_id, next_attempt_at, event_seq WHERE pending), so a claim
  // reads only the rows it takes (and the few this process is sending now), however long the
  // backlog: an endpoint at its concurrency bound is simply not asked, instead of its whole backlog
  // being read past to find another endpoint's rows.
  const endpointsWithDue = db.prepare<{ now: number; exclude: string }, { id: string }>(
    `SELECT w.id FROM webhooks w
     WHERE w.status = 'active' AND w.id NOT IN (SELECT value FROM json_each(@exclude))
       AND EXISTS (SELECT 1 FROM webhook_deliveries d INDEXED BY webhook_deliveries_queue
                   WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= @now
                     AND (d.lease_until IS NULL OR d.lease_until <= @now))
     ORDER BY w.created_at, w.rowid`,
  );
  // CROSS JOIN keeps the deliveries the outer loop, read in the index's order up to the limit,
  // whatever the statistics say. Those the hourly maintenance takes of a new database (one endpoint,
  // no delivery yet) had the planner start from the endpoints and sort the endpoint's whole due
  // backlog at each claim, so every claim grew slower as the backlog grew.
  const dueOf = db.prepare<{ webhookId: string; now: number; inFlight: string; limit: number }, ClaimCandidate>(
    `SELECT d.id, d.webhook_id AS webhookId, e.id AS eventId, e.type AS eventType, d.attempt_count AS attemptCount,
            w.url, w.secret, e.payload
     FROM webhook_deliveries d INDEXED BY webhook_deliveries_queue
       CROSS JOIN webhooks w ON w.id = d.webhook_id
       CROSS JOIN events e ON e.seq = d.event_seq
     WHERE d.webhook_id = @webhookId AND d.status = 'pending' AND d.next_attempt_at <= @now
       AND (d.lease_until IS NULL OR d.lease_until <= @now)
       AND d.id NOT IN (SELECT value FROM json_each(@inFlight))
     ORDER BY d.next_attempt_at, d.event_seq, d.id
     LIMIT @limit`,
  );
  const lease = db.prepare('UPDATE webhook_deliveries SET lease_until = @leaseUntil WHERE id = @id');
  const leaseMany = db.prepare('UPDATE webhook_deliveries SET lease_until = @leaseUntil WHERE id IN (SELECT value FROM json_each(@ids))');
  const state = db.prepare<[string], { status: DeliveryStatus }>('SELECT status FROM webhook_deliveries WHERE id = ?');
  const insertAttempt = db.prepare(
    `INSERT OR IGNORE INTO webhook_attempts (delivery_id, number, status, response_code, error, duration_ms, at)
     VALUES (@deliveryId, @number, @status, @responseCode, @error, @durationMs, @at)`,
  );
  // History retention: finished deliveries created before the cutoff, one batch (attempts cascade).
  // CROSS JOIN keeps endpoints as the outer loop, so each endpoint's (webhook_id, created_at) index
  // range yields the old rows without scanning the table.
  const deleteFinishedBefore = db.prepare(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT d.id FROM webhooks w CROSS JOIN webhook_deliveries d ON d.webhook_id = w.id
       WHERE d.created_at < @cutoff AND d.status != 'pending'
       LIMIT @limit)`,
  );
  // Through webhook_deliveries_queue (WHERE pending): the count reads the waiting rows only.
  const pendingCount = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
  const finish = db.prepare(
    `UPDATE webhook_deliveries
     SET status = @status, attempt_count = @attemptCount, next_attempt_at = @nextAttemptAt, lease_until = NULL
     WHERE id = @id`,
  );

  return {
    insert(row: { id: string; webhookId: string; eventSeq: number; livemode: boolean; now: number; replayOf: string | null }) {
      insert.run({ ...row, livemode: row.livemode ? 1 : 0 });
    },
    findById(id: string): DeliveryRow | undefined {
      const row = byId.get(id);
      return row && mapDelivery(row);
    },
    findInScope(orgId: string, livemode: boolean, id: string): DeliveryRow | undefined {
      const row = inScope.get({ id, orgId, livemode: livemode ? 1 : 0 });
      return row && mapDelivery(row);
    },
    listForWebhook(webhookId: string, limit: number): DeliveryRow[] {
      return ofWebhook.all({ webhookId, limit }).map(mapDelivery);
    },
    attemptsFor(deliveryIds: string[]): AttemptRow[] {
      return deliveryIds.length === 0 ? [] : attemptsOf.all(JSON.stringify(deliveryIds)).map(mapAttempt);
    },
    failPending(webhookId: string): number {
      return failPending.run({ webhookId }).changes;
    },
    /** Active endpoints (but `exclude`) with at least one due, unleased delivery, oldest endpoint first. */
    endpointsWithDue(now: number, exclude: string[]): string[] {
      return endpointsWithDue.all({ now, exclude: JSON.stringify(exclude) }).map((r) => r.id);
    },
    /** Up to `limit` due, unleased deliveries of one endpoint, oldest first, leaving out `inFlight`. */
    dueOf(input: { webhookId: string; now: number; inFlight: string[]; limit: number }): ClaimCandidate[] {
      return dueOf.all({ ...input, inFlight: JSON.stringify(input.inFlight) });
    },
    lease(id: string, leaseUntil: number) {
      lease.run({ id, leaseUntil });
    },
    leaseMany(ids: string[], leaseUntil: number) {
      if (ids.length > 0) leaseMany.run({ ids: JSON.stringify(ids), leaseUntil });
    },
    status(id: string): DeliveryStatus | undefined {
      return state.get(id)?.status;
    },
    insertAttempt(row: AttemptRow) {
      insertAttempt.run(row);
    },
    finish(row: { id: string; status: DeliveryStatus; attemptCount: number; nextAttemptAt: number | null }) {
      finish.run(row);
    },
    /** Deliveries still to send, due now or waiting for a retry. */
    pendingCount: () => pendingCount.get()!.n,
    /** Removes up to `limit` succeeded or failed deliveries created before `cutoff`; returns how many. */
    deleteFinishedBefore(cutoff: number, limit: number): number {
      return deleteFinishedBefore.run({ cutoff, limit }).changes;
    },
  };
}

export const deliveriesRepo = perConnection(createDeliveriesRepo);
