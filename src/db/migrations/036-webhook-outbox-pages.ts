import type { MigrationStep } from './step';

// An earn with a webhook endpoint wrote eight b-trees more than one without: the event row, its
// text id's index and events_org; the delivery row, its text id's index, and its entries in the
// indexes by event, by endpoint and of the queue. Now it writes five:
// - an event is found by its row number (seq), which its deliveries keep: its text id (the public
//   one, in the envelope) is never looked up, so it has no index;
// - a delivery is stored in the order of its id (ids sort by the time they were made), so the id
//   is the table's own key, and the outcomes the worker records in one transaction share pages;
// - a delivery is no longer found by its event to learn whether the event is still needed: the
//   event counts its deliveries (kept by two triggers, whatever removes a delivery: the retention
//   sweep, an endpoint's or an org's removal). Only a test customer's purge removes an event that
//   has deliveries, and a trigger removes them with it, found through an index of test deliveries.
export default {
  version: 36,
  name: 'fewer pages written per webhook event: events by row number, deliveries by id, the event counts its deliveries',
  rebuildsTables: true,
  run(db) {
    // The old tables are renamed out of the way without touching the foreign keys that name them
    // (webhook_attempts keeps pointing at webhook_deliveries, which is made again below).
    db.pragma('legacy_alter_table = ON');
    try {
      db.exec('ALTER TABLE events RENAME TO events_before');
      db.exec('ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_before');
    } finally {
      db.pragma('legacy_alter_table = OFF');
    }
    db.exec(`
-- The outbox: one row per event some endpoint takes, the exact envelope every delivery and replay
-- sends. seq: the row's number, by which deliveries refer to it; id: the public id (evt_…, in the
-- envelope), never looked up. deliveries: how many delivery rows refer to it (triggers on
-- webhook_deliveries keep it); the retention sweep removes an old event once none is left.
CREATE TABLE events (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL,
  org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode    INTEGER NOT NULL,
  type        TEXT NOT NULL,
  customer_id TEXT,                         -- for the test-customer sweep; NULL for org-level events
  payload     TEXT NOT NULL,                -- the exact JSON envelope sent to receivers
  created_at  INTEGER NOT NULL,
  deliveries  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO events (seq, id, org_id, livemode, type, customer_id, payload, created_at, deliveries)
  SELECT e.rowid, e.id, e.org_id, e.livemode, e.type, e.customer_id, e.payload, e.created_at,
         (SELECT count(*) FROM webhook_deliveries_before d WHERE d.event_id = e.id)
  FROM events_before e ORDER BY e.rowid;

-- One delivery of an event to an endpoint, stored in the order of its id (ids sort by the time they
-- were made: a new one is the table's last row). event_seq: the event's row (events.seq); livemode:
-- the event's, for the index of test deliveries.
CREATE TABLE webhook_deliveries (
  id               TEXT PRIMARY KEY,
  webhook_id       TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_seq        INTEGER NOT NULL,
  livemode         INTEGER NOT NULL,
  status           TEXT NOT NULL CHECK (status = 'pending' OR status = 'succeeded' OR status = 'failed'),
  attempt_count    INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,                 -- NULL once final
  lease_until      INTEGER,                 -- set while a worker holds the delivery
  replay_of        TEXT,
  created_at       INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO webhook_deliveries (id, webhook_id, event_seq, livemode, status, attempt_count, next_attempt_at, lease_until, replay_of, created_at)
  SELECT d.id, d.webhook_id, e.rowid, e.livemode, d.status, d.attempt_count, d.next_attempt_at, d.lease_until, d.replay_of, d.created_at
  FROM webhook_deliveries_before d JOIN events_before e ON e.id = d.event_id;

DROP TABLE webhook_deliveries_before;
DROP TABLE events_before;

CREATE INDEX events_org ON events (org_id, livemode, created_at);
-- Events are found by customer only to remove a test customer's (customers/purge-repo.ts): a live
-- event's entry was written and never read.
CREATE INDEX events_test_customer ON events (customer_id) WHERE livemode = 0 AND customer_id IS NOT NULL;

-- The delivery worker reads each endpoint's queue in order (webhooks/deliveries-repo.ts): the rows
-- it takes and no others, however long a backlog grows. Deliveries due at the same moment go in
-- the order of their events (the events of one transaction in the order it emitted them).
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, next_attempt_at, event_seq) WHERE status = 'pending';
-- An endpoint's deliveries, oldest first (those made at the same moment in the order of their
-- events): read backwards it gives the history's order, newest first, and forwards the retention
-- sweep's, oldest first.
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at, event_seq);
-- A test event's deliveries, for its removal with the test customer (events_test_deliveries).
CREATE INDEX webhook_deliveries_test_event ON webhook_deliveries (event_seq) WHERE livemode = 0;
-- The event counts the deliveries that refer to it, whatever writes or removes them.
CREATE TRIGGER webhook_deliveries_counted AFTER INSERT ON webhook_deliveries BEGIN
  UPDATE events SET deliveries = deliveries + 1 WHERE seq = new.event_seq;
END;
CREATE TRIGGER webhook_deliveries_uncounted AFTER DELETE ON webhook_deliveries BEGIN
  UPDATE events SET deliveries = deliveries - 1 WHERE seq = old.event_seq;
END;
-- A test event goes with its deliveries (the test-customer sweep). A live event is removed only
-- once no delivery refers to it (the retention sweep), or with its org, whose endpoints take their
-- deliveries with them.
CREATE TRIGGER events_test_deliveries AFTER DELETE ON events WHEN old.livemode = 0 BEGIN
  DELETE FROM webhook_deliveries WHERE livemode = 0 AND event_seq = old.seq;
END;
`);
  },
} satisfies MigrationStep;
