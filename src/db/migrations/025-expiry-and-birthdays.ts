import { rebuildTable } from './rebuild-table';
import type { Db, MigrationStep } from './step';

// Expiry and birthdays join the ledger's channels (transactions.source) and two mail kinds join
// mail_sends.kind: both tables are rebuilt with their text as stored, that CHECK alone given more
// values (a CHECK that accepts more values refuses no stored row). Then the card settings, the
// award lots, the reminders, the birthdays, the sweeps' progress and the sandbox clocks.

/**
 * `CHECK (column = 'a' OR column = 'b')` with `OR column = '<more>'` added. Throws when the table
 * does not carry that CHECK exactly once: the step then fails whole and names the table.
 */
function withMoreValues(table: string, createSql: string, column: string, values: readonly string[], more: readonly string[]): string {
  const check = (list: readonly string[]) => `CHECK (${list.map((value) => `${column} = '${value}'`).join(' OR ')})`;
  const parts = createSql.split(check(values));
  if (parts.length !== 2) throw new Error(`migration 25: ${table} has no single ${check(values)}`);
  return parts.join(check([...values, ...more]));
}

function expiryAndBirthdays(db: Db): void {
  const tableSql = (name: string) => db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(name) as string;
  rebuildTable(db, 'transactions', withMoreValues('transactions', tableSql('transactions'), 'source', ['api', 'scan', 'signup', 'console', 'import'], ['expiry', 'birthday']));
  rebuildTable(db, 'mail_sends', withMoreValues('mail_sends', tableSql('mail_sends'), 'kind', ['card', 'test'], ['expiry_reminder', 'birthday']));
  db.exec(SQL);
}

const SQL = `
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
`;

export default {
  version: 25,
  name: 'expiry and birthdays: award lots, reminders, birthdays, sweep runs, test clocks; the expiry and birthday channels',
  rebuildsTables: true,
  run: expiryAndBirthdays,
} satisfies MigrationStep;
