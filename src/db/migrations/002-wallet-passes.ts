import type { MigrationStep } from './step';

export default {
  version: 2,
  name: 'wallet passes: tokens, Apple registrations, pass versions, Google objects, callback nonces, pass-update queue',
  sql: `
-- One row per customer whose pass was issued: the ApplePass token never changes once handed out,
-- because devices keep the pass and authenticate with it for as long as they hold it.
CREATE TABLE wallet_passes (
  customer_id  TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  auth_token   TEXT NOT NULL CHECK (length(auth_token) >= 16),
  created_at   INTEGER NOT NULL
);

-- Apple Wallet web service registrations: one per device and pass. The push token belongs to the
-- device; devices resend it on every registration, so it is kept on each row.
CREATE TABLE wallet_apple_registrations (
  device_library_id  TEXT NOT NULL,
  pass_type_id       TEXT NOT NULL,
  customer_id        TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE, -- the pass serial
  push_token         TEXT NOT NULL,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  PRIMARY KEY (device_library_id, pass_type_id, customer_id)
);
CREATE INDEX wallet_apple_registrations_customer ON wallet_apple_registrations (customer_id);
CREATE INDEX wallet_apple_registrations_token ON wallet_apple_registrations (push_token);

-- Google Wallet loyalty objects we handed out in a save link. saved_at is set by the 'save'
-- callback and cleared by 'del'; only objects that may exist at Google are PATCHed. Callbacks
-- arrive in any order (a retried save may come after the del that followed it): event_exp_ms is
-- the signed expiry of the last event applied, and an event that expires earlier is older.
CREATE TABLE wallet_google_objects (
  customer_id     TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  object_id       TEXT NOT NULL UNIQUE,
  class_id        TEXT NOT NULL,
  link_issued_at  INTEGER NOT NULL,
  saved_at        INTEGER,
  event_exp_ms    INTEGER
);

-- Google retries callbacks: a nonce seen before is acknowledged without acting again. Kept until
-- the message expires, after which the signature check refuses a replay anyway.
CREATE TABLE wallet_google_nonces (
  nonce        TEXT PRIMARY KEY,
  expires_at   INTEGER NOT NULL,
  received_at  INTEGER NOT NULL
);
CREATE INDEX wallet_google_nonces_expiry ON wallet_google_nonces (expires_at);

-- The durable pass-update queue, written inside the balance change's transaction. One row per
-- customer: changes coalesce (a phone only needs to learn that the pass changed, not how often).
-- generation tells the worker whether a newer change arrived while it was pushing.
CREATE TABLE wallet_pass_updates (
  customer_id      TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  generation       INTEGER NOT NULL DEFAULT 1,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,              -- NULL once given up (a new change revives the row)
  lease_until      INTEGER,              -- set while a worker holds the row; expires after a crash
  last_error       TEXT,
  queued_at        INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX wallet_pass_updates_due ON wallet_pass_updates (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- The tag of Apple's serial-number list (lastUpdated): every change of a pass takes the next number
-- of one per-database sequence, so "changed since tag N" cannot skip a change, however many share
-- a millisecond. INSERT OR REPLACE gives a changed pass a fresh number (AUTOINCREMENT never reuses
-- one, even after deletions); a pass unchanged since it was issued has no row (sequence 0).
CREATE TABLE wallet_pass_versions (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  customer_id  TEXT NOT NULL UNIQUE REFERENCES customers(id) ON DELETE CASCADE,
  changed_at   INTEGER NOT NULL
);

-- Install codes are looked up by their first characters (a selector) and the whole code is then
-- compared in constant time, so response timing never depends on how much of a secret matched.
CREATE INDEX customers_install_selector ON customers (substr(install_code, 1, 8));
`,
} satisfies MigrationStep;
