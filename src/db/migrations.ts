import { readColor } from '../lib/colors';
import { normalizeEmail, normalizePhone } from '../lib/contact';
import { customerDataSql } from './customer-data-tables';
import { consoleTablesSql, importSlotsSql, reversalSlotsSql, searchRowsByTimeSql, slotsForgetTriggerSql } from './console-tables';
import { replaceTableSchemas, rewriteListedChecks } from './listed-checks';
import { checkWithMoreValues, rebuildTable } from './rebuild-table';
import type { Db } from './connection';

// Steps that bring an older database to the current schema. schema.sql is version 1; each step
// here moves a database from `version - 1` to `version` and runs in its own transaction.
// A new database runs schema.sql and then every step, so the two can never drift apart.
// A step is SQL, or a function for data that needs the program's own rules (synchronous, like
// every transaction: no await, no network).
export type MigrationStep = { version: number; name: string } & ({ sql: string } | { run: (db: Db) => void });

export const migrations: MigrationStep[] = [
  {
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
  },
  {
    version: 3,
    name: 'webhook deliveries indexed by event',
    sql: `
-- Deleting an event (the 30-day test-customer sweep) cascades to its deliveries;
-- without this index each deleted event scanned the whole deliveries table.
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
`,
  },
  {
    version: 4,
    name: 'email and phone keys re-normalised by the one email rule and libphonenumber',
    run: renormaliseContacts,
  },
  {
    version: 5,
    name: 'card colours the one colour rule refuses are dropped',
    run: dropUnreadableColours,
  },
  {
    version: 6,
    name: 'merchant side: console sessions, sign-in throttling, staff, ledger attribution, org settings',
    sql: `
-- Signed-in browsers (decisions §8): the console's admins and the counter's staff. The cookie holds a
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

-- Counter staff (decisions §8): a name and a 4–8 digit PIN, unique within the org. The PIN alone
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

-- Who made a change: the staff member at the counter (decisions §8); NULL for other channels.
ALTER TABLE transactions ADD COLUMN staff_id TEXT REFERENCES staff(id);
-- The channel that created a customer, for the dashboard's new customers by channel.
ALTER TABLE customers ADD COLUMN source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'scan', 'signup', 'console'));
-- The dashboard reads the ledger by org, mode and time.
CREATE INDEX transactions_org_time ON transactions (org_id, livemode, created_at);
CREATE INDEX customers_org_time ON customers (org_id, livemode, created_at);
-- Org-wide settings as one JSON document, validated by orgs/settings.ts (counter, sign-up, …).
ALTER TABLE orgs ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
`,
  },
  {
    version: 7,
    name: 'cards: the contact fields of the sign-up form',
    sql: `
-- What the card's sign-up form asks besides its questions: { name, email, phone }, each required,
-- optional or off (decisions §8). NULL reads as the default (cards/model.ts DEFAULT_SIGNUP_FIELDS).
ALTER TABLE cards ADD COLUMN signup_fields TEXT;
`,
  },
  {
    version: 8,
    name: 'cards edited in the console: logo images, and card changes carried to installed passes',
    sql: `
-- The card's logo as the owner uploaded it, checked and re-encoded as PNG (cards/logo.ts). The
-- wallet draws every size it needs from this one image; sha256 versions the public logo URLs.
CREATE TABLE card_logos (
  card_id      TEXT PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  png          BLOB NOT NULL,
  width        INTEGER NOT NULL,
  height       INTEGER NOT NULL,
  sha256       TEXT NOT NULL,
  uploaded_at  INTEGER NOT NULL
);

-- A card change every installed pass of the card must show: written with the change (one row,
-- however many customers), then expanded by the pass-update worker in batches of customers, one
-- transaction each, into the per-pass queue (wallet_pass_updates). after_customer is how far the
-- expansion got; a newer change of the card starts it again from the beginning ('').
CREATE TABLE wallet_card_fanouts (
  card_id         TEXT PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  after_customer  TEXT NOT NULL DEFAULT '',
  queued_at       INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);

-- Google Wallet keeps the programme name, colour and logo on the card's class, not on each pass:
-- a card change queues one class update, sent like a pass update (attempts, backoff, lease).
CREATE TABLE wallet_class_updates (
  card_id          TEXT PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  generation       INTEGER NOT NULL DEFAULT 1,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,
  lease_until      INTEGER,
  last_error       TEXT,
  queued_at        INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX wallet_class_updates_due ON wallet_class_updates (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- The fan-out walks a card's customers in id order, a batch at a time.
CREATE INDEX customers_card_id ON customers (card_id, id);
`,
  },
  {
    version: 9,
    name: "the console's tables: customer search index, customer counts, the dashboard's quarter-hour sums",
    sql: consoleTablesSql(),
  },
  {
    version: 10,
    name: 'counter: reversals (undo) and staff awards indexed',
    sql: `
-- The counter's undo writes a reversal row naming the row it undoes in details.reverses. At most one
-- reversal per row, enforced here; the same expression finds whether an award was reversed.
CREATE UNIQUE INDEX transactions_reversal ON transactions (json_extract(details, '$.reverses')) WHERE kind = 'reversal';
-- The counter's daily cap per staff member (and per-staff reports) read a member's rows by time.
CREATE INDEX transactions_staff ON transactions (staff_id, created_at) WHERE staff_id IS NOT NULL;
${reversalSlotsSql()}
`,
  },
  {
    version: 11,
    name: 'lookups and the webhook queue read only the rows they need',
    sql: `
-- customers_org_time (version 6) gives an org's customers in created_at order, which the email and
-- phone lookups ask for, so SQLite took it for them and read every customer of the org: at a
-- million customers a lookup or an enrolment with an email read a million rows. With created_at in
-- the contact indexes, a lookup reads only the rows with that email or phone, already in order.
DROP INDEX customers_email;
CREATE INDEX customers_email ON customers (org_id, livemode, email_norm, created_at) WHERE email_norm IS NOT NULL;
DROP INDEX customers_phone;
CREATE INDEX customers_phone ON customers (org_id, livemode, phone_norm, created_at) WHERE phone_norm IS NOT NULL;

-- The delivery worker reads each endpoint's queue in order (webhooks/deliveries-repo.ts): the rows
-- it takes and no others, however long a backlog grows. Across endpoints it read every due row
-- and sorted them, on every claim; the index it used goes (one index less to write per delivery).
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, next_attempt_at) WHERE status = 'pending';
DROP INDEX webhook_deliveries_due;
`,
  },
  {
    version: 12,
    name: 'two customer indexes in random order fewer to write per enrolment',
    sql: `
-- Install codes are found through a range of the install_code UNIQUE index (wallet/repo.ts): the
-- selector index held the same codes a second time, one more random page to write per enrolment.
DROP INDEX customers_install_selector;

-- A card's fan-out walks its customers in (livemode, created_at, id) order, where a new customer
-- lands at the end of its card's range. In id order (customers_card_id), each new customer went
-- to a random page: a page read and a page written per enrolment on a large database. The id only
-- orders customers created in the same millisecond, and unlike the rowid it is kept through a VACUUM. The fan-out's position becomes those three values, and a fan-out in
-- progress starts over in the new order (a pass it queued already is queued again, which only
-- sends its update once more).
CREATE INDEX customers_card_fanout ON customers (card_id, livemode, created_at, id);
DROP INDEX customers_card_id;
ALTER TABLE wallet_card_fanouts ADD COLUMN after_livemode INTEGER NOT NULL DEFAULT -1;
ALTER TABLE wallet_card_fanouts ADD COLUMN after_created_at INTEGER NOT NULL DEFAULT 0;
UPDATE wallet_card_fanouts SET after_customer = '';
`,
  },
  {
    version: 13,
    name: 'two ledger and outbox indexes in random order fewer to write per balance change; undone rows found by one probe',
    sql: `
-- Each balance change wrote one entry into each index keyed by its customer: a random page of each
-- (a café's customers earn in no order), written to the WAL at the commit and again by the
-- checkpoint. transactions_customer (customer_id, created_at) already reads a customer's rows in
-- time order, so the award reads use it (loyalty/repo.ts): a customer's awards in a limit's period,
-- or the newest award, found by walking back from the newest row.
DROP INDEX transactions_awards;

-- Events are found by customer only to remove a test customer's (customers/purge-repo.ts): a live
-- event's entry was written and never read.
DROP INDEX events_customer;
CREATE INDEX events_test_customer ON events (customer_id) WHERE livemode = 0 AND customer_id IS NOT NULL;

-- Made again with the reversal index probed per row instead of read whole (db/reversals.ts says why).
${slotsForgetTriggerSql()}
`,
  },
  {
    version: 14,
    name: "the search index's row map in enrolment order",
    // Each enrolment wrote the map's entry keyed by the random passUserId: a random page of its
    // index. Keyed by (created_at, customer_id) it lands at the end. The map is copied
    // (its numbers kept, so the full-text rows stay as they are); the customers are not rewritten.
    sql: searchRowsByTimeSql(),
  },
  {
    version: 15,
    name: 'CHECK constraints that list values checked by comparisons, without a temporary table per row',
    run: rewriteListedChecks,
  },
  {
    version: 16,
    name: "a customer's ledger index ends in the row number its readers order by",
    sql: `
-- transactions_customer was (customer_id, created_at DESC, id DESC). Every read that walks it orders
-- by (created_at DESC, rowid DESC): the id did not give that order, so each history page sorted its
-- rows of equal time in a temporary B-tree, and it made the index half as large again. Each balance change writes an entry on a random page of this index
-- (the customer's), so fewer, fuller pages are fewer to write. An index ends in the rowid, so
-- (customer_id, created_at) walked backwards is exactly the order the reads ask for.
DROP INDEX transactions_customer;
CREATE INDEX transactions_customer ON transactions (customer_id, created_at);
`,
  },
  {
    version: 17,
    name: 'a record of each backup the server made, for the console and /healthz',
    sql: `
-- One row per backup attempt of the server (the daily one and the console's Back up now), kept so
-- the console can show the last result and /healthz the last success after a restart. file is the
-- name inside BACKUP_DIR; error is null when the copy was written and passed integrity_check.
CREATE TABLE backup_runs (
  id           INTEGER PRIMARY KEY,
  started_by   TEXT NOT NULL CHECK (started_by = 'schedule' OR started_by = 'console'),
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER NOT NULL,
  file         TEXT,
  size_bytes   INTEGER,
  error        TEXT
);
`,
  },
  {
    version: 18,
    name: 'customer imports: the import channel, import jobs and their reports; consent recorded with the customer',
    run: importsAndConsent,
  },
  {
    version: 19,
    name: 'customer data: erasure, changes to a customer, transactional mail',
    sql: customerDataSql(),
  },
  {
    version: 20,
    name: 'the first day: archived cards, customers who opened their web pass',
    sql: `
-- A card closed to new members (decisions §9): its sign-up form is closed and the counter does not
-- offer it, while its customers' passes keep updating. NULL while the card is active.
ALTER TABLE cards ADD COLUMN archived_at INTEGER;

-- When a customer first opened their web pass: the console shows "Uses the web pass" for a customer
-- no wallet holds a pass for. Written once per customer (the page's balance refreshes write nothing).
CREATE TABLE web_pass_opens (
  customer_id      TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  first_opened_at  INTEGER NOT NULL
) WITHOUT ROWID;
`,
  },
  {
    version: 21,
    name: 'expiry and birthdays: award lots, reminders, birthdays, sweep runs, test clocks; the expiry and birthday channels',
    run: expiryAndBirthdays,
  },
];

/**
 * Earlier releases kept a phone's trunk prefix (`+4402079460958` for `+44 (0)20 7946 0958`), took
 * any `+` and digits as E.164, and compared emails as typed (`bücher.de` apart from its xn-- form):
 * such keys never matched what the rules give today. Every stored key is derived again from what
 * was typed (the email and phone columns), and phone answers to phone questions are put in E.164.
 * An answer the phone rule now refuses stays as it was: it is the only copy of what the customer
 * gave, and a key that is no longer derived from it would be a guess. updated_at is left alone:
 * nothing the customer or an integrator sees has changed.
 */
function renormaliseContacts(db: Db): void {
  const phoneKeys = new Map<string, string[]>();
  for (const card of db.prepare('SELECT id, questions FROM cards').all() as { id: string; questions: string }[]) {
    const questions = JSON.parse(card.questions) as { key: string; type: string }[];
    phoneKeys.set(card.id, questions.filter((q) => q.type === 'phone').map((q) => q.key));
  }
  const update = db.prepare('UPDATE customers SET email_norm = @emailNorm, phone_norm = @phoneNorm, custom_fields = @customFields WHERE id = @id');
  const rows = db.prepare('SELECT id, card_id, email, phone, custom_fields FROM customers').all() as { id: string; card_id: string; email: string | null; phone: string | null; custom_fields: string }[];
  for (const row of rows) {
    const answers = JSON.parse(row.custom_fields) as Record<string, unknown>;
    for (const key of phoneKeys.get(row.card_id) ?? []) {
      const normal = typeof answers[key] === 'string' ? normalizePhone(answers[key] as string) : null;
      if (normal) answers[key] = normal;
    }
    update.run({ id: row.id, emailNorm: normalizeEmail(row.email), phoneNorm: normalizePhone(row.phone), customFields: JSON.stringify(answers) });
  }
}

/**
 * The seed schema once took colours the renderers could not read (`rgb(300,0,0)`), and every pass
 * of such a card answered 500. A colour the one rule refuses is removed, so the card shows the
 * default colour in its place; the rest of the design stays.
 */
function dropUnreadableColours(db: Db): void {
  const update = db.prepare('UPDATE cards SET design = @design WHERE id = @id');
  for (const card of db.prepare('SELECT id, design FROM cards WHERE design IS NOT NULL').all() as { id: string; design: string }[]) {
    const design = JSON.parse(card.design) as Record<string, unknown>;
    const kept = Object.fromEntries(
      Object.entries(design).filter(([field, value]) => !field.endsWith('Color') || (typeof value === 'string' && readColor(value) !== null)),
    );
    if (Object.keys(kept).length !== Object.keys(design).length) update.run({ id: card.id, design: JSON.stringify(kept) });
  }
}

/** The channels before imports, as migration 15 wrote their CHECK. */
const CHANNELS_BEFORE_IMPORT = ['api', 'scan', 'signup', 'console'];

/**
 * `CHECK (source = 'api' OR … OR source = 'console')` with `OR source = 'import'` added. Throws when
 * the table does not carry that CHECK exactly once: the step then fails whole and names the table.
 */
export function withImportChannel(table: string, createSql: string): string {
  const check = `CHECK (${CHANNELS_BEFORE_IMPORT.map((c) => `source = '${c}'`).join(' OR ')})`;
  const parts = createSql.split(check);
  if (parts.length !== 2) throw new Error(`migration 18: ${table} has no single CHECK ${check}`);
  return parts.join(`CHECK (${[...CHANNELS_BEFORE_IMPORT, 'import'].map((c) => `source = '${c}'`).join(' OR ')})`);
}

/**
 * Migration 18. The `import` channel joins the CHECKs of customers.source and transactions.source:
 * a CHECK that accepts one more value cannot refuse a stored row, so the tables' text is edited in
 * place (db/listed-checks.ts), not rebuilt: a rebuild would rewrite every customer and ledger row,
 * their indexes and the triggers that name them. Then the import tables, the consent columns and
 * the dashboard triggers that sum imported balances under their own channel.
 */
function importsAndConsent(db: Db): void {
  const tables = ['customers', 'transactions'].map((name) => {
    const row = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) as { sql: string };
    return { name, sql: withImportChannel(name, row.sql) };
  });
  replaceTableSchemas(db, tables);
  db.exec(`
-- The sign-up form's agreement, once per wording: a customer row names the wording it agreed to
-- (its SHA-256) and when, instead of carrying a copy of the text.
CREATE TABLE consent_texts (
  sha256      TEXT PRIMARY KEY,
  text        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);
ALTER TABLE customers ADD COLUMN consent_sha256 TEXT;
ALTER TABLE customers ADD COLUMN consent_at INTEGER;

-- A customer import (src/import/): the uploaded file while it is prepared and imported (csv, set to
-- NULL once done: it holds personal data the customers table now has), the mapping its dry run
-- checked, and how far the import got. next_row moves in the same transaction as each chunk of
-- rows, so a restart goes on from the first row not yet written.
CREATE TABLE imports (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode     INTEGER NOT NULL,
  card_id      TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  file_name    TEXT NOT NULL,
  file_sha256  TEXT NOT NULL,
  csv          TEXT,
  total_rows   INTEGER NOT NULL,
  mapping      TEXT,
  status       TEXT NOT NULL CHECK (status = 'draft' OR status = 'running' OR status = 'done' OR status = 'stopped'),
  stop_reason  TEXT,                 -- why a started import could not go on (status 'stopped')
  next_row     INTEGER NOT NULL DEFAULT 0,
  created      INTEGER NOT NULL DEFAULT 0,
  matched      INTEGER NOT NULL DEFAULT 0,
  refused      INTEGER NOT NULL DEFAULT 0,
  created_at   INTEGER NOT NULL,
  started_at   INTEGER,
  finished_at  INTEGER
);
CREATE INDEX imports_org ON imports (org_id, livemode, created_at);
CREATE INDEX imports_running ON imports (created_at) WHERE status = 'running';
CREATE INDEX imports_same_file ON imports (card_id, livemode, file_sha256) WHERE status = 'done';

-- The report: one row per data row of the file. No value of the file is kept here, only where a
-- row was refused and why, and the passUserId of the customer it created or matched.
CREATE TABLE import_rows (
  import_id    TEXT NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
  row          INTEGER NOT NULL,
  outcome      TEXT NOT NULL CHECK (outcome = 'created' OR outcome = 'matched' OR outcome = 'refused'),
  column_name  TEXT,
  message      TEXT,
  customer_id  TEXT,
  PRIMARY KEY (import_id, row)
) WITHOUT ROWID;
${importSlotsSql()}
`);
}

/**
 * Migration 21. The sweeps write ledger rows of their own channels, `expiry` and `birthday`, and
 * send two more kinds of email: their CHECKs are widened by rebuilding the two tables (db/rebuild-table.ts).
 * Then the card settings, the award lots, the reminders and birthdays the sweeps keep, and the
 * test clocks.
 */
function expiryAndBirthdays(db: Db): void {
  rebuildTable(db, 'transactions', checkWithMoreValues('transactions', 'source', ['api', 'scan', 'signup', 'console', 'import'], ['expiry', 'birthday']));
  rebuildTable(db, 'mail_sends', checkWithMoreValues('mail_sends', 'kind', ['card', 'test'], ['expiry_reminder', 'birthday']));
  db.exec(`
-- Card settings (JSON like the others): expiry { months | inactiveDays, remindDays }, birthday
-- { questionKey, units } (units in hundredths), and when expiry was first switched on: from then on
-- every award of the card is recorded as a lot (never cleared, so a rule never reaches back).
ALTER TABLE cards ADD COLUMN expiry TEXT;
ALTER TABLE cards ADD COLUMN birthday TEXT;
ALTER TABLE cards ADD COLUMN lots_since INTEGER;

-- When the customer was last awarded anything (ms), written with the balance: inactivity expiry
-- counts from it. NULL for customers not awarded since this version (their lots count from their own time).
ALTER TABLE customers ADD COLUMN last_award_at INTEGER;

-- What is left of each award made while the card had lots: redemptions take the oldest first, and
-- the expiry sweep takes what is due. Units of the balance no lot covers were awarded before the
-- card had lots: the oldest, and they never expire. expires_at: the last millisecond of the shop's
-- day when a months rule ends the lot; inactive_days: the inactivity rule it was awarded under;
-- both NULL: it never expires. Removed with its ledger row.
CREATE TABLE award_lots (
  transaction_id  TEXT PRIMARY KEY REFERENCES transactions(id) ON DELETE CASCADE,
  customer_id     TEXT NOT NULL,
  awarded_at      INTEGER NOT NULL,
  expires_at      INTEGER,
  inactive_days   INTEGER,
  remaining       INTEGER NOT NULL CHECK (remaining >= 0)
);
CREATE INDEX award_lots_customer ON award_lots (customer_id, awarded_at) WHERE remaining > 0;
CREATE INDEX award_lots_due ON award_lots (expires_at, customer_id) WHERE remaining > 0 AND expires_at IS NOT NULL;
CREATE INDEX award_lots_inactive ON award_lots (customer_id) WHERE remaining > 0 AND inactive_days IS NOT NULL;

-- One reminder per customer and expiry: its row says it went out (email, the line on the pass).
CREATE TABLE expiry_reminders (
  customer_id  TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  expires_at   INTEGER NOT NULL,
  sent_at      INTEGER NOT NULL,
  PRIMARY KEY (customer_id, expires_at)
) WITHOUT ROWID;

-- The birthday of each customer whose card has a birthday treat, from their answer: month and day,
-- when the answer was set or changed (a change within 30 days before the birthday earns nothing that
-- year) and the last calendar year it was paid.
CREATE TABLE customer_birthdays (
  customer_id  TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  month_day    TEXT NOT NULL,
  set_at       INTEGER NOT NULL,
  paid_year    INTEGER
) WITHOUT ROWID;
CREATE INDEX customer_birthdays_day ON customer_birthdays (month_day, customer_id);

-- How far a sweep got, per org and mode: the next run catches up from there.
CREATE TABLE sweep_runs (
  org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  livemode     INTEGER NOT NULL,
  sweep        TEXT NOT NULL,
  last_run_at  INTEGER NOT NULL,
  PRIMARY KEY (org_id, livemode, sweep)
) WITHOUT ROWID;

-- An org's sandbox clock: real time plus offset_ms, moved forward only (POST /v1/test_clock/advance).
CREATE TABLE test_clocks (
  org_id      TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
  offset_ms   INTEGER NOT NULL CHECK (offset_ms >= 0),
  updated_at  INTEGER NOT NULL
) WITHOUT ROWID;
`);
}
