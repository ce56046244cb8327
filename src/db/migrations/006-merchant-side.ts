import type { MigrationStep } from './step';

export default {
  version: 6,
  name: 'merchant side: console sessions, sign-in throttling, staff, ledger attribution, org settings',
  sql: `
-- Signed-in browsers: the console's admins and the counter's staff. The cookie holds a
-- random token; only its SHA-256 is stored, so a copy of the database signs nobody in. Idle and
-- absolute expiry are judged from the two times; sign-out deletes the row.
CREATE TABLE sessions (
  id            TEXT PRIMARY KEY,                -- SHA-256 hex of the cookie's token
  kind          TEXT NOT NULL CHECK (kind IN ('console', 'counter')),
  org_id        TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  admin_id      TEXT REFERENCES admins(id) ON DELETE CASCADE,
  staff_id      TEXT REFERENCES staff(id) ON DELETE CASCADE, -- set on counter sessions
  csrf_token    TEXT NOT NULL,
  livemode      INTEGER NOT NULL DEFAULT 1,      -- the console's live/test switch
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  CHECK ((kind = 'console') = (admin_id IS NOT NULL))
);
CREATE INDEX sessions_admin ON sessions (admin_id) WHERE admin_id IS NOT NULL;
CREATE INDEX sessions_seen ON sessions (last_seen_at);

-- Failed sign-ins and PIN entries, counted per bucket (an address, an account, a device, an org)
-- in a window; a bucket past its limit is locked until locked_until. Kept in the database so a
-- restart does not hand an attacker a fresh budget.
CREATE TABLE auth_failures (
  bucket        TEXT PRIMARY KEY,
  failures      INTEGER NOT NULL,
  window_start  INTEGER NOT NULL,
  locked_until  INTEGER
);

-- Secrets this server makes for itself (the PIN pepper), created on first use.
CREATE TABLE server_secrets (
  name        TEXT PRIMARY KEY,
  value       TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);

-- Counter staff: a name and a 4–8 digit PIN, unique within the org. The PIN alone
-- says who is at the till, so it is stored as a keyed hash that can be looked up (see staff/pin.ts).
CREATE TABLE staff (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  pin_hash    TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX staff_pin ON staff (org_id, pin_hash);
CREATE INDEX staff_org ON staff (org_id, created_at);

-- Who made a change: the staff member at the counter; NULL for other channels.
ALTER TABLE transactions ADD COLUMN staff_id TEXT REFERENCES staff(id);
-- The channel that created a customer, for the dashboard's new customers by channel.
ALTER TABLE customers ADD COLUMN source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'scan', 'signup', 'console'));
-- The dashboard reads the ledger by org, mode and time.
CREATE INDEX transactions_org_time ON transactions (org_id, livemode, created_at);
CREATE INDEX customers_org_time ON customers (org_id, livemode, created_at);
-- Org-wide settings as one JSON document, validated by orgs/settings.ts (counter, sign-up, …).
ALTER TABLE orgs ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
`,
} satisfies MigrationStep;
