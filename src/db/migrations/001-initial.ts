import type { MigrationStep } from './step';

// The schema of version 1, as the first release created it: the start every older database's
// history has in common. Frozen: a database at version 1 has exactly this, so nothing here may
// change (the comments aside); a change is a new step. A new database runs schema.sql instead.

export default {
  version: 1,
  name: 'the initial schema: orgs, admins, API keys, cards, customers, the ledger, events, webhooks, idempotency keys',
  sql: `
-- Times are integer milliseconds since the epoch; amounts are integer hundredths. livemode is 1
-- for live data, 0 for the test-key sandbox.

CREATE TABLE orgs (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);

CREATE TABLE admins (
  id             TEXT PRIMARY KEY,
  org_id         TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  email          TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash  TEXT NOT NULL,
  created_at     INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id            TEXT PRIMARY KEY,
  org_id        TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  device_name   TEXT NOT NULL,
  mode          TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  -- SHA-256 hex of the raw key; the raw key itself is never stored.
  key_hash      TEXT NOT NULL UNIQUE,
  -- The first characters of the raw key, so an operator can tell keys apart in \`key list\`.
  key_hint      TEXT NOT NULL,
  scopes        TEXT NOT NULL, -- JSON array
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER,
  revoked_at    INTEGER
);
CREATE INDEX api_keys_org ON api_keys (org_id);

CREATE TABLE cards (
  id                       TEXT PRIMARY KEY,
  org_id                   TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name                     TEXT NOT NULL,
  pass_type                TEXT NOT NULL CHECK (pass_type IN ('stamp_card', 'point_card', 'level_card', 'prepaid_card')),
  data_collection_enabled  INTEGER NOT NULL DEFAULT 0,
  -- JSON documents of the program configuration: questions carry isIdentifier.
  questions                TEXT NOT NULL DEFAULT '[]',
  reward                   TEXT,          -- { name, cost } with cost in hundredths
  levels                   TEXT,          -- [{ name, minPoints }] with minPoints in hundredths
  accrual                  TEXT,          -- { spend?: { currency, rate }, items?: { key: hundredths } }
  earning_limits           TEXT,          -- { waitSeconds, maxPerAward, period, maxPerPeriod } (hundredths)
  design                   TEXT,          -- { backgroundColor, foregroundColor, labelColor, logoText }
  created_at               INTEGER NOT NULL,
  updated_at               INTEGER NOT NULL
);
CREATE INDEX cards_org ON cards (org_id, created_at);

-- One record per person per card. Test customers (livemode = 0) live apart from live ones.
CREATE TABLE customers (
  id              TEXT PRIMARY KEY,           -- the passUserId
  org_id          TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  card_id         TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  livemode        INTEGER NOT NULL,
  external_id     TEXT,
  name            TEXT,
  email           TEXT,
  email_norm      TEXT,                       -- lib/contact normalizeEmail; NULL when absent or no address
  phone           TEXT,
  phone_norm      TEXT,                       -- E.164 or NULL (never matches)
  custom_fields   TEXT NOT NULL DEFAULT '{}', -- JSON, keyed by the question's own key
  status          TEXT NOT NULL DEFAULT 'pending_install' CHECK (status IN ('pending_install', 'installed')),
  install_code    TEXT NOT NULL UNIQUE,       -- random token in the install link
  scan_code       TEXT NOT NULL UNIQUE,       -- random token in the pass barcode
  balance         INTEGER NOT NULL DEFAULT 0, -- hundredths; always the sum of the ledger rows
  pass_version    INTEGER NOT NULL DEFAULT 1, -- bumped on every change the pass shows
  pass_updated_at INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX customers_external_id ON customers (org_id, livemode, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX customers_email ON customers (org_id, livemode, email_norm) WHERE email_norm IS NOT NULL;
CREATE INDEX customers_phone ON customers (org_id, livemode, phone_norm) WHERE phone_norm IS NOT NULL;
CREATE INDEX customers_card ON customers (card_id, livemode, created_at);
CREATE INDEX customers_test_age ON customers (livemode, created_at);

-- The append-only ledger: one row per balance change, written with the balance in one transaction.
CREATE TABLE transactions (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  customer_id      TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  livemode         INTEGER NOT NULL,
  kind             TEXT NOT NULL,            -- initial, earn, redeem, adjust
  change           INTEGER NOT NULL,         -- signed hundredths
  balance_after    INTEGER NOT NULL,
  is_award         INTEGER NOT NULL DEFAULT 0, -- counts towards earning limits
  source           TEXT NOT NULL CHECK (source IN ('api', 'scan', 'signup', 'console')),
  note             TEXT,
  idempotency_key  TEXT,
  details          TEXT,                     -- JSON: spend, items, reward, setPoints …
  created_at       INTEGER NOT NULL
);
CREATE INDEX transactions_customer ON transactions (customer_id, created_at DESC, id DESC);
CREATE INDEX transactions_awards ON transactions (customer_id, is_award, created_at) WHERE is_award = 1;

-- The outbox: every event is written in the transaction of the change that caused it.
CREATE TABLE events (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode    INTEGER NOT NULL,
  type        TEXT NOT NULL,
  customer_id TEXT,                         -- for the test-customer sweep; NULL for org-level events
  payload     TEXT NOT NULL,                -- the exact JSON envelope sent to receivers
  created_at  INTEGER NOT NULL
);
CREATE INDEX events_org ON events (org_id, livemode, created_at);
CREATE INDEX events_customer ON events (customer_id) WHERE customer_id IS NOT NULL;

CREATE TABLE webhooks (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode    INTEGER NOT NULL,
  url         TEXT NOT NULL,
  events      TEXT NOT NULL,                -- JSON array of event types or ["*"]
  status      TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
  secret      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (org_id, livemode, created_at);

CREATE TABLE webhook_deliveries (
  id               TEXT PRIMARY KEY,
  webhook_id       TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id         TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count    INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,                 -- NULL once final
  lease_until      INTEGER,                 -- set while a worker holds the delivery
  replay_of        TEXT,
  created_at       INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at DESC);

CREATE TABLE webhook_attempts (
  delivery_id    TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  number         INTEGER NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  response_code  INTEGER,
  error          TEXT,
  duration_ms    INTEGER NOT NULL,
  at             INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, number)
);

-- Idempotency records: the stored response is written in the write's own transaction.
CREATE TABLE idempotency_keys (
  org_id           TEXT NOT NULL,
  livemode         INTEGER NOT NULL,
  method           TEXT NOT NULL,
  route            TEXT NOT NULL,
  key              TEXT NOT NULL,
  fingerprint      TEXT NOT NULL,
  response_status  INTEGER NOT NULL,
  response_body    TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (org_id, livemode, method, route, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);
`,
} satisfies MigrationStep;
