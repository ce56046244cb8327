import type { MigrationStep } from './step';

export default {
  version: 19,
  name: 'customer data: erasure, changes to a customer, transactional mail',
  sql: `
-- A customer whose personal data was erased (right to erasure): the row stays, because the ledger
-- rows reference it and the shop's books keep them, but every personal value in it is NULL and its
-- codes are markers that no lookup accepts. Every read for people (API, console, counter) leaves it out.
ALTER TABLE customers ADD COLUMN erased_at INTEGER;

-- The search index and the customer counts forget an erased customer, as they forget a deleted one.
-- The erasure first writes the NULLs (customers_search_update then indexes a row without words),
-- then erased_at, which this trigger follows.
CREATE TRIGGER customers_erased AFTER UPDATE OF erased_at ON customers WHEN old.erased_at IS NULL AND new.erased_at IS NOT NULL BEGIN
  DELETE FROM customer_search WHERE rowid = (SELECT seq FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id);
  DELETE FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id;
  UPDATE customer_counts SET customers = customers - 1 WHERE org_id = new.org_id AND livemode = new.livemode AND card_id = new.card_id;
END;
DROP TRIGGER customers_count_delete;
-- An erased test customer is still removed by the 30-day sweep: it was already taken out of the count.
CREATE TRIGGER customers_count_delete AFTER DELETE ON customers WHEN old.erased_at IS NULL BEGIN
  UPDATE customer_counts SET customers = customers - 1 WHERE org_id = old.org_id AND livemode = old.livemode AND card_id = old.card_id;
END;

-- Changes to a customer's details made in the console, and their erasure: who and when. The
-- values before and after are kept for an edit until the customer is erased, when only the names
-- of the fields remain.
CREATE TABLE customer_changes (
  id           INTEGER PRIMARY KEY,
  customer_id  TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind = 'edit' OR kind = 'erase'),
  channel      TEXT NOT NULL,             -- console or api
  admin_id     TEXT REFERENCES admins(id) ON DELETE SET NULL,
  admin_email  TEXT,                      -- who, as they were known then (an admin may be removed later)
  changes      TEXT NOT NULL,             -- JSON [{ field, from, to }]
  created_at   INTEGER NOT NULL
);
CREATE INDEX customer_changes_customer ON customer_changes (customer_id, created_at);

-- Transactional mail (a customer's card, the console's test email), one row per email: the rows
-- are the queue, as webhook deliveries are. Written in the request's transaction, sent after the
-- commit by the mail worker; a failed attempt goes back to pending with its next due time.
CREATE TABLE mail_sends (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode         INTEGER NOT NULL,
  customer_id      TEXT REFERENCES customers(id) ON DELETE CASCADE, -- NULL for the test email
  kind             TEXT NOT NULL CHECK (kind = 'card' OR kind = 'test'),
  requested_via    TEXT NOT NULL,         -- signup, console, scan, import
  recipient        TEXT,                  -- the address at the time of the request; NULL once erased
  status           TEXT NOT NULL CHECK (status = 'pending' OR status = 'sent' OR status = 'failed'),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,               -- NULL once final
  lease_until      INTEGER,               -- set while the worker sends it
  error            TEXT,                  -- the last attempt's failure
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX mail_sends_due ON mail_sends (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_sends_customer ON mail_sends (customer_id, created_at) WHERE customer_id IS NOT NULL;
CREATE INDEX mail_sends_org ON mail_sends (org_id, livemode, kind, created_at);
`,
} satisfies MigrationStep;
