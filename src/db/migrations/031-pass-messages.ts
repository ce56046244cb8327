import type { MigrationStep } from './step';

export default {
  version: 31,
  name: 'pass messages: messages, one delivery row per pass, the message each pass shows, Google notifications',
  sql: `
-- A message the shop wrote to the passes of one customer (customer_id) or of a card's audience
-- (audience: the JSON the API took, such as {"level":"Gold"} or "all"). recipients: the customers it
-- reached when it was sent (those holding a pass; an audience leaves out customers who already got
-- an audience message that shop day). created_at is the data's own time (the sandbox clock in test mode).
CREATE TABLE messages (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode     INTEGER NOT NULL,
  card_id      TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  customer_id  TEXT REFERENCES customers(id) ON DELETE CASCADE,
  audience     TEXT,
  header       TEXT NOT NULL,
  body         TEXT NOT NULL,
  recipients   INTEGER NOT NULL,
  source       TEXT NOT NULL CHECK (source = 'api' OR source = 'console'),
  created_at   INTEGER NOT NULL,
  CHECK ((customer_id IS NULL) <> (audience IS NULL))
);
CREATE INDEX messages_org ON messages (org_id, livemode, created_at);
CREATE INDEX messages_customer ON messages (customer_id, created_at) WHERE customer_id IS NOT NULL;

-- One row per pass a message goes to (an Apple pass on several devices is one row: the push goes to
-- each). Written with the message; the pass-message worker sends the apple and google rows after
-- the commit, as a row queue (lease, attempt, retry). A web pass reads its message when it shows,
-- so its row is delivered at once. status: delivered (with a notification), shown (on the pass,
-- without one), failed (given up); may_notify: the message is new to this pass, so it may notify.
-- audience: the row belongs to an audience message (at most one per customer and shop day).
CREATE TABLE message_deliveries (
  id               INTEGER PRIMARY KEY,
  message_id       TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  customer_id      TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  channel          TEXT NOT NULL CHECK (channel = 'apple' OR channel = 'google' OR channel = 'web'),
  status           TEXT NOT NULL CHECK (status = 'pending' OR status = 'delivered' OR status = 'shown' OR status = 'failed'),
  may_notify       INTEGER NOT NULL,
  audience         INTEGER NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,
  lease_until      INTEGER,
  error            TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX message_deliveries_message ON message_deliveries (message_id, status);
CREATE INDEX message_deliveries_customer ON message_deliveries (customer_id, created_at);
CREATE INDEX message_deliveries_due ON message_deliveries (next_attempt_at) WHERE status = 'pending';

-- The latest message each pass shows (Apple's back field, the top of the web pass, a Google save
-- link's message). set_at moves the pass's modification time, so devices fetch it.
CREATE TABLE wallet_pass_messages (
  customer_id  TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  message_id   TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  header       TEXT NOT NULL,
  body         TEXT NOT NULL,
  set_at       INTEGER NOT NULL
) WITHOUT ROWID;

-- Google allows 3 notifying updates per pass in 24 hours: each one we made, kept for a day.
CREATE TABLE wallet_google_notifications (
  customer_id  TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  sent_at      INTEGER NOT NULL
);
CREATE INDEX wallet_google_notifications_customer ON wallet_google_notifications (customer_id, sent_at);
`,
} satisfies MigrationStep;
