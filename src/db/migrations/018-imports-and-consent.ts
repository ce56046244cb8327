import { rebuildTable } from './rebuild-table';
import type { Db, MigrationStep } from './step';

// The `import` channel joins the CHECKs of customers.source and transactions.source: both tables
// are rebuilt with their text as stored, that CHECK alone given one more value (a CHECK that
// accepts one more value refuses no stored row). Then the import tables, the consent columns, and
// the dashboard triggers that sum imported opening balances under their own channel (their amount
// in `awarded` with no award row, so the dashboard shows them as imported, never as awarded).

/** The channels before imports, as step 15 wrote their CHECK. */
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

function importsAndConsent(db: Db): void {
  for (const name of ['customers', 'transactions']) {
    const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(name) as string;
    rebuildTable(db, name, withImportChannel(name, sql));
  }
  db.exec(SQL);
}

const SQL = `
-- The sign-up form's agreement, once per wording: a customer row names the wording it agreed to
-- (its SHA-256) and when, instead of carrying a copy of the text.
CREATE TABLE consent_texts (
  sha256      TEXT PRIMARY KEY,
  text        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);
-- The wording a customer agreed to (consent_texts.sha256) and when; NULL when they agreed to none.
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

DROP TRIGGER transactions_slots_insert;
-- An imported opening balance (source 'import') counts on the dashboard under its own channel:
-- its amount in awarded, with no award row.
CREATE TRIGGER transactions_slots_insert AFTER INSERT ON transactions WHEN ((new.is_award = 1 OR (new.kind = 'redeem' AND json_extract(new.details, '$.reward') IS NOT NULL)) OR new.source = 'import') BEGIN
  INSERT INTO ledger_slots (org_id, livemode, slot, source, staff_id, card_id, awarded, awards, rewards)
    SELECT new.org_id, new.livemode, new.created_at / 900000, new.source, coalesce(new.staff_id, ''), c.card_id,
           CASE WHEN new.is_award = 1 OR new.source = 'import' THEN new.change ELSE 0 END, new.is_award, CASE WHEN new.kind = 'redeem' AND json_extract(new.details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END
    FROM customers c WHERE c.id = new.customer_id
    ON CONFLICT DO UPDATE SET awarded = awarded + excluded.awarded, awards = awards + excluded.awards, rewards = rewards + excluded.rewards;
END;

DROP TRIGGER customers_slots_forget;
-- A customer's delete (the 30-day test-customer sweep) takes their sums back out of the dashboard's
-- quarter hours first: awards and redemptions no reversal undid, and imported balances.
CREATE TRIGGER customers_slots_forget BEFORE DELETE ON customers BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT created_at / 900000 AS slot, source, coalesce(staff_id, '') AS staff_id,
                 sum(CASE WHEN is_award = 1 OR source = 'import' THEN change ELSE 0 END) AS awarded, sum(is_award) AS awards, sum(CASE WHEN kind = 'redeem' AND json_extract(details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END) AS rewards
          FROM transactions t WHERE customer_id = old.id AND ((is_award = 1 OR (kind = 'redeem' AND json_extract(details, '$.reward') IS NOT NULL)) OR source = 'import')
            AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.kind = 'reversal' AND json_extract(r.details, '$.reverses') = +t.id)
          GROUP BY 1, 2, 3) AS g
    WHERE ledger_slots.org_id = old.org_id AND ledger_slots.livemode = old.livemode AND ledger_slots.card_id = old.card_id
      AND ledger_slots.slot = g.slot AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id;
END;

`;

export default {
  version: 18,
  name: 'customer imports: the import channel, import jobs and their reports; consent recorded with the customer',
  rebuildsTables: true,
  run: importsAndConsent,
} satisfies MigrationStep;
