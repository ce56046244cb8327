import { notReversedSql } from './reversals';

// The console's tables (migration 9): a full-text index to find customers, customer counts per
// card, and the dashboard's sums in quarter-hour slots. All are kept by triggers on customers and
// transactions, so every writer (API, counter, sign-up, console, CLI, the test-customer sweep)
// keeps them right without knowing they exist, and the console reads a page or a month of
// figures at the same cost at 100 customers as at 100,000.

/** The SQL of migration step 8. */
export function consoleTablesSql(): string {
  return [customerSearchSql(), customerCountsSql(), dashboardSlotsSql()].join('\n');
}

/**
 * What a person types to find a customer (the console's one search box, the counter's search), as
 * the words of one full-text row per customer. Every column is derived in SQL from the customer
 * row, so triggers keep the index in step with every writer (API, counter, sign-up, console, CLI,
 * the test-customer sweep) without any of them knowing it exists.
 *
 * - scope: one token for the org and mode (`o<hex org>m<0|1>`) and one for the card
 *   (`c<hex card>`), so a search starts from the namespace's rows, not from every org's.
 * - email: as typed and in its normal form (an IDN domain both as written and as xn--).
 * - phone: the E.164 digits, the same without the first 1, 2 and 3 digits (one of them is the
 *   national number, whatever the length of the country code: +49 170… → 170…, +1 415… → 415…,
 *   +39 06… → 06…) and the digits as typed, so a number typed without its country code finds it.
 *
 * contentless: the index keeps no copy of the text (contentless_delete lets a row be removed by
 * its number alone).
 */
function customerSearchSql(): string {
  return `
${searchRowsTableSql()}
${SEARCH_ROWS_INDEX}
-- Prefix indexes of 1–3 characters: a search is a prefix query of each word typed, and the
-- shortest are the most common (typing "a" must not merge thousands of terms).
CREATE VIRTUAL TABLE customer_search USING fts5(
  scope, name, email, external, phone,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '1 2 3'
);
${searchTriggersSql()}
INSERT INTO customer_search_rows (customer_id, created_at) SELECT id, created_at FROM customers ORDER BY created_at, rowid;
INSERT INTO customer_search (rowid, scope, name, email, external, phone)
  SELECT r.seq, ${searchColumns('c')} FROM customer_search_rows r JOIN customers c ON c.id = r.customer_id;
`;
}

/**
 * The full-text rows are numbered by customer_search_rows: an INTEGER PRIMARY KEY keeps its numbers
 * through VACUUM, which may renumber the implicit rowids of customers (its key is TEXT). Numbers
 * only grow, so the newest customers have the highest and results page by them.
 *
 * A customer's row is found by (created_at, customer_id), which the update trigger follows should
 * either ever change: a new customer's entry lands at the end of that index. Keyed by the
 * passUserId alone, which is random, it took a random page per enrolment.
 */
function searchRowsTableSql(table = 'customer_search_rows'): string {
  return `
CREATE TABLE ${table} (
  seq          INTEGER PRIMARY KEY,
  customer_id  TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);`;
}

const SEARCH_ROWS_INDEX = 'CREATE UNIQUE INDEX customer_search_rows_customer ON customer_search_rows (created_at, customer_id);';

function searchTriggersSql(): string {
  const seqOf = (c: string) => `(SELECT seq FROM customer_search_rows WHERE created_at = ${c}.created_at AND customer_id = ${c}.id)`;
  return `
CREATE TRIGGER customers_search_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customer_search_rows (customer_id, created_at) VALUES (new.id, new.created_at);
  INSERT INTO customer_search (rowid, scope, name, email, external, phone)
    SELECT ${seqOf('new')}, ${searchColumns('new')};
END;
CREATE TRIGGER customers_search_update AFTER UPDATE OF org_id, card_id, livemode, name, email, email_norm, phone, phone_norm, external_id, id, created_at ON customers BEGIN
  UPDATE customer_search_rows SET customer_id = new.id, created_at = new.created_at
    WHERE (new.id IS NOT old.id OR new.created_at IS NOT old.created_at) AND created_at = old.created_at AND customer_id = old.id;
  DELETE FROM customer_search WHERE rowid = ${seqOf('new')};
  INSERT INTO customer_search (rowid, scope, name, email, external, phone)
    SELECT ${seqOf('new')}, ${searchColumns('new')};
END;
CREATE TRIGGER customers_search_delete AFTER DELETE ON customers BEGIN
  DELETE FROM customer_search WHERE rowid = ${seqOf('old')};
  DELETE FROM customer_search_rows WHERE created_at = old.created_at AND customer_id = old.id;
END;`;
}

/**
 * Migration 14: the row map keyed by (created_at, customer_id) instead of customer_id alone, its
 * numbers kept. The triggers go first and come back after, so none ever names a missing table.
 */
export function searchRowsByTimeSql(): string {
  return `
DROP TRIGGER customers_search_insert;
DROP TRIGGER customers_search_update;
DROP TRIGGER customers_search_delete;
${searchRowsTableSql('customer_search_rows_new')}
INSERT INTO customer_search_rows_new (seq, customer_id, created_at)
  SELECT r.seq, r.customer_id, c.created_at FROM customer_search_rows r JOIN customers c ON c.id = r.customer_id;
DROP TABLE customer_search_rows;
ALTER TABLE customer_search_rows_new RENAME TO customer_search_rows;
${SEARCH_ROWS_INDEX}
${searchTriggersSql()}
`;
}

function searchColumns(c: string): string {
  const digits = (col: string) => ["' '", "'-'", "'.'", "'('", "')'", "'+'", "'/'"].reduce((expr, ch) => `replace(${expr}, ${ch}, '')`, `coalesce(${col}, '')`);
  return `
      'o' || hex(${c}.org_id) || 'm' || ${c}.livemode || ' c' || hex(${c}.card_id),
      ${c}.name,
      coalesce(${c}.email, '') || ' ' || coalesce(${c}.email_norm, ''),
      ${c}.external_id,
      CASE WHEN ${c}.phone_norm IS NULL THEN '' ELSE substr(${c}.phone_norm, 2) || ' ' || substr(${c}.phone_norm, 3) || ' ' || substr(${c}.phone_norm, 4) || ' ' || substr(${c}.phone_norm, 5) END
        || ' ' || ${digits(`${c}.phone`)}`;
}

/**
 * How many customers each card has in each mode: the console shows "100,000 customers" above its
 * list without counting 100,000 index entries on every page. (A customer never changes its card
 * or mode, so inserts and deletes are all there is to follow.)
 */
function customerCountsSql(): string {
  return `CREATE TABLE customer_counts (
  org_id     TEXT NOT NULL,
  livemode   INTEGER NOT NULL,
  card_id    TEXT NOT NULL,
  customers  INTEGER NOT NULL,
  PRIMARY KEY (org_id, livemode, card_id)
) WITHOUT ROWID;
CREATE TRIGGER customers_count_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customer_counts (org_id, livemode, card_id, customers) VALUES (new.org_id, new.livemode, new.card_id, 1)
    ON CONFLICT DO UPDATE SET customers = customers + 1;
END;
CREATE TRIGGER customers_count_delete AFTER DELETE ON customers BEGIN
  UPDATE customer_counts SET customers = customers - 1 WHERE org_id = old.org_id AND livemode = old.livemode AND card_id = old.card_id;
END;
INSERT INTO customer_counts (org_id, livemode, card_id, customers)
  SELECT org_id, livemode, card_id, count(*) FROM customers GROUP BY org_id, livemode, card_id;
`;
}

/**
 * The dashboard's figures, summed per quarter hour (slot = created_at / 900000, UTC) by channel,
 * staff member and card: awards (hundredths and rows) and reward redemptions from the ledger, new
 * customers by channel. Every UTC offset in use is a whole number of quarter hours, so a slot lies
 * within one local day of any shop's time zone: 30 days are at most 2,880 slots per source, staff
 * member and card, however busy the ledger. The ledger is append-only; its rows go only with their
 * customer (the test-customer sweep), whose delete takes its sums back out first.
 */
/** A ledger row's reward redemptions (1 or 0), and whether the dashboard counts the row at all. */
const rewardOf = (t: string) => `CASE WHEN ${t}kind = 'redeem' AND json_extract(${t}details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END`;
const counted = (t: string) => `(${t}is_award = 1 OR (${t}kind = 'redeem' AND json_extract(${t}details, '$.reward') IS NOT NULL))`;

/**
 * With imports (migration 18): an imported opening balance (source `import`) counts under its own
 * channel, its amount in `awarded` with no award row, so the dashboard can show it as imported and
 * never as awarded. Before that version no row had that source, so both forms summed the same.
 */
const countedRow = (t: string, imports: boolean) => (imports ? `(${counted(t)} OR ${t}source = 'import')` : counted(t));
const amountOf = (t: string, imports: boolean) => `CASE WHEN ${t}is_award = 1${imports ? ` OR ${t}source = 'import'` : ''} THEN ${t}change ELSE 0 END`;

function slotsInsertTriggerSql(imports: boolean): string {
  return `CREATE TRIGGER transactions_slots_insert AFTER INSERT ON transactions WHEN ${countedRow('new.', imports)} BEGIN
  INSERT INTO ledger_slots (org_id, livemode, slot, source, staff_id, card_id, awarded, awards, rewards)
    SELECT new.org_id, new.livemode, new.created_at / 900000, new.source, coalesce(new.staff_id, ''), c.card_id,
           ${amountOf('new.', imports)}, new.is_award, ${rewardOf('new.')}
    FROM customers c WHERE c.id = new.customer_id
    ON CONFLICT DO UPDATE SET awarded = awarded + excluded.awarded, awards = awards + excluded.awards, rewards = rewards + excluded.rewards;
END;`;
}

function dashboardSlotsSql(): string {
  return `
CREATE TABLE ledger_slots (
  org_id    TEXT NOT NULL,
  livemode  INTEGER NOT NULL,
  slot      INTEGER NOT NULL,        -- created_at / 900000: the quarter hour (UTC)
  source    TEXT NOT NULL,
  staff_id  TEXT NOT NULL,           -- '' for changes without a staff member
  card_id   TEXT NOT NULL,           -- the customer's card: stamps, points and store credit are summed apart
  awarded   INTEGER NOT NULL,        -- hundredths awarded (is_award rows)
  awards    INTEGER NOT NULL,        -- award rows (one per award action)
  rewards   INTEGER NOT NULL,        -- redemptions of the card's reward
  PRIMARY KEY (org_id, livemode, slot, source, staff_id, card_id)
) WITHOUT ROWID;
${slotsInsertTriggerSql(false)}
CREATE TRIGGER customers_slots_forget BEFORE DELETE ON customers BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT created_at / 900000 AS slot, source, coalesce(staff_id, '') AS staff_id,
                 sum(CASE WHEN is_award = 1 THEN change ELSE 0 END) AS awarded, sum(is_award) AS awards, sum(${rewardOf('')}) AS rewards
          FROM transactions WHERE customer_id = old.id AND ${counted('')} GROUP BY 1, 2, 3) AS g
    WHERE ledger_slots.org_id = old.org_id AND ledger_slots.livemode = old.livemode AND ledger_slots.card_id = old.card_id
      AND ledger_slots.slot = g.slot AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id;
END;
INSERT INTO ledger_slots (org_id, livemode, slot, source, staff_id, card_id, awarded, awards, rewards)
  SELECT t.org_id, t.livemode, t.created_at / 900000, t.source, coalesce(t.staff_id, ''), c.card_id,
         sum(CASE WHEN t.is_award = 1 THEN t.change ELSE 0 END), sum(t.is_award), sum(${rewardOf('t.')})
  FROM transactions t JOIN customers c ON c.id = t.customer_id WHERE ${counted('t.')}
  GROUP BY 1, 2, 3, 4, 5, 6;

CREATE TABLE customer_slots (
  org_id     TEXT NOT NULL,
  livemode   INTEGER NOT NULL,
  slot       INTEGER NOT NULL,       -- created_at / 900000
  source     TEXT NOT NULL,          -- the channel that created the customer
  customers  INTEGER NOT NULL,
  PRIMARY KEY (org_id, livemode, slot, source)
) WITHOUT ROWID;
CREATE TRIGGER customers_slots_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customer_slots (org_id, livemode, slot, source, customers) VALUES (new.org_id, new.livemode, new.created_at / 900000, new.source, 1)
    ON CONFLICT DO UPDATE SET customers = customers + 1;
END;
CREATE TRIGGER customers_slots_delete AFTER DELETE ON customers BEGIN
  UPDATE customer_slots SET customers = customers - 1
    WHERE org_id = old.org_id AND livemode = old.livemode AND slot = old.created_at / 900000 AND source = old.source;
END;
INSERT INTO customer_slots (org_id, livemode, slot, source, customers)
  SELECT org_id, livemode, created_at / 900000, source, count(*) FROM customers GROUP BY 1, 2, 3, 4;

-- The counter's unusual days count counter awards per customer and day: only those rows, covered.
CREATE INDEX transactions_counter_awards ON transactions (org_id, livemode, created_at, customer_id) WHERE source = 'scan' AND is_award = 1;
`;
}

/**
 * An undone row (the counter's reversal, migration 10) counts for nothing on the dashboard: the
 * reversal takes the row's own sums back out of the quarter hour, channel, staff member and card
 * they were added to, and the test-customer sweep takes out only what still counts.
 */
export function reversalSlotsSql(): string {
  return `
CREATE TRIGGER transactions_slots_reversal AFTER INSERT ON transactions WHEN new.kind = 'reversal' BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT o.org_id, o.livemode, o.created_at / 900000 AS slot, o.source, coalesce(o.staff_id, '') AS staff_id, c.card_id,
                 CASE WHEN o.is_award = 1 THEN o.change ELSE 0 END AS awarded, o.is_award AS awards, ${rewardOf('o.')} AS rewards
          FROM transactions o JOIN customers c ON c.id = o.customer_id
          WHERE o.id = json_extract(new.details, '$.reverses') AND ${counted('o.')}) AS g
    WHERE ledger_slots.org_id = g.org_id AND ledger_slots.livemode = g.livemode AND ledger_slots.slot = g.slot
      AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id AND ledger_slots.card_id = g.card_id;
END;
${slotsForgetTriggerSql()}
`;
}

/** Replaces the test-customer sweep's trigger with the one that leaves out undone rows (and, with imports, takes their sums out too). */
export function slotsForgetTriggerSql(imports = false): string {
  return `
DROP TRIGGER customers_slots_forget;
CREATE TRIGGER customers_slots_forget BEFORE DELETE ON customers BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT created_at / 900000 AS slot, source, coalesce(staff_id, '') AS staff_id,
                 sum(${amountOf('', imports)}) AS awarded, sum(is_award) AS awards, sum(${rewardOf('')}) AS rewards
          FROM transactions t WHERE customer_id = old.id AND ${countedRow('', imports)}
            AND ${notReversedSql('t')}
          GROUP BY 1, 2, 3) AS g
    WHERE ledger_slots.org_id = old.org_id AND ledger_slots.livemode = old.livemode AND ledger_slots.card_id = old.card_id
      AND ledger_slots.slot = g.slot AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id;
END;
`;
}

/** Migration 18: the ledger_slots triggers that sum imported opening balances under the `import` channel. */
export function importSlotsSql(): string {
  return `
DROP TRIGGER transactions_slots_insert;
${slotsInsertTriggerSql(true)}
${slotsForgetTriggerSql(true)}
`;
}
