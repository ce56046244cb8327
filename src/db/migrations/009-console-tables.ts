import type { MigrationStep } from './step';

// The console's tables: a full-text index to find customers, customer counts per card, and the
// dashboard's sums in quarter-hour slots. All are kept by triggers on customers and transactions,
// so every writer (API, counter, sign-up, console, CLI, the test-customer sweep) keeps them right
// without knowing they exist, and the console reads a page or a month of figures at the same cost
// at 100 customers as at 100,000. Each is filled from the rows the database already has.

export default {
  version: 9,
  name: "the console's tables: customer search index, customer counts, the dashboard's quarter-hour sums",
  sql: `
-- The full-text rows are numbered here: an INTEGER PRIMARY KEY keeps its numbers through VACUUM,
-- which may renumber the implicit rowids of customers (its key is TEXT). Numbers only grow, so the
-- newest customers have the highest and results page by them.
CREATE TABLE customer_search_rows (
  seq          INTEGER PRIMARY KEY,
  customer_id  TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);
-- A customer's row is found by (created_at, customer_id), which the update trigger follows should
-- either ever change: a new customer's entry lands at the end of this index.
CREATE UNIQUE INDEX customer_search_rows_customer ON customer_search_rows (created_at, customer_id);
-- What a person types to find a customer (the console's one search box, the counter's search), as
-- the words of one full-text row per customer, each column derived in SQL from the customer row:
-- - scope: one token for the org and mode (o<hex org>m<0|1>) and one for the card (c<hex card>),
--   so a search starts from the namespace's rows, not from every org's.
-- - email: as typed and in its normal form (an IDN domain both as written and as xn--).
-- - phone: the E.164 digits, the same without the first 1, 2 and 3 digits (one of them is the
--   national number, whatever the length of the country code: +49 170… → 170…, +1 415… → 415…,
--   +39 06… → 06…) and the digits as typed, so a number typed without its country code finds it.
-- Contentless: the index keeps no copy of the text (contentless_delete removes a row by its number).
-- Prefix indexes of 1–3 characters: a search is a prefix query of each word typed, and the
-- shortest are the most common (typing "a" must not merge thousands of terms).
CREATE VIRTUAL TABLE customer_search USING fts5(
  scope, name, email, external, phone,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '1 2 3'
);

-- The search index follows every insert, change and delete of a customer.
CREATE TRIGGER customers_search_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customer_search_rows (customer_id, created_at) VALUES (new.id, new.created_at);
  INSERT INTO customer_search (rowid, scope, name, email, external, phone)
    SELECT (SELECT seq FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id), 
      'o' || hex(new.org_id) || 'm' || new.livemode || ' c' || hex(new.card_id),
      new.name,
      coalesce(new.email, '') || ' ' || coalesce(new.email_norm, ''),
      new.external_id,
      CASE WHEN new.phone_norm IS NULL THEN '' ELSE substr(new.phone_norm, 2) || ' ' || substr(new.phone_norm, 3) || ' ' || substr(new.phone_norm, 4) || ' ' || substr(new.phone_norm, 5) END
        || ' ' || replace(replace(replace(replace(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', '');
END;
CREATE TRIGGER customers_search_update AFTER UPDATE OF org_id, card_id, livemode, name, email, email_norm, phone, phone_norm, external_id, id, created_at ON customers BEGIN
  UPDATE customer_search_rows SET customer_id = new.id, created_at = new.created_at
    WHERE (new.id IS NOT old.id OR new.created_at IS NOT old.created_at) AND created_at = old.created_at AND customer_id = old.id;
  DELETE FROM customer_search WHERE rowid = (SELECT seq FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id);
  INSERT INTO customer_search (rowid, scope, name, email, external, phone)
    SELECT (SELECT seq FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id), 
      'o' || hex(new.org_id) || 'm' || new.livemode || ' c' || hex(new.card_id),
      new.name,
      coalesce(new.email, '') || ' ' || coalesce(new.email_norm, ''),
      new.external_id,
      CASE WHEN new.phone_norm IS NULL THEN '' ELSE substr(new.phone_norm, 2) || ' ' || substr(new.phone_norm, 3) || ' ' || substr(new.phone_norm, 4) || ' ' || substr(new.phone_norm, 5) END
        || ' ' || replace(replace(replace(replace(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', '');
END;
CREATE TRIGGER customers_search_delete AFTER DELETE ON customers BEGIN
  DELETE FROM customer_search WHERE rowid = (SELECT seq FROM customer_search_rows WHERE created_at = old.created_at AND customer_id = old.id);
  DELETE FROM customer_search_rows WHERE created_at = old.created_at AND customer_id = old.id;
END;
INSERT INTO customer_search_rows (customer_id, created_at) SELECT id, created_at FROM customers ORDER BY created_at, rowid;
INSERT INTO customer_search (rowid, scope, name, email, external, phone)
  SELECT r.seq, 
      'o' || hex(c.org_id) || 'm' || c.livemode || ' c' || hex(c.card_id),
      c.name,
      coalesce(c.email, '') || ' ' || coalesce(c.email_norm, ''),
      c.external_id,
      CASE WHEN c.phone_norm IS NULL THEN '' ELSE substr(c.phone_norm, 2) || ' ' || substr(c.phone_norm, 3) || ' ' || substr(c.phone_norm, 4) || ' ' || substr(c.phone_norm, 5) END
        || ' ' || replace(replace(replace(replace(replace(replace(replace(coalesce(c.phone, ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', '') FROM customer_search_rows r JOIN customers c ON c.id = r.customer_id;

-- How many customers each card has in each mode: the console shows "100,000 customers" above its
-- list without counting 100,000 index entries on every page. (A customer never changes its card or
-- mode, so inserts and deletes are all there is to follow.)
CREATE TABLE customer_counts (
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


-- The dashboard's figures, summed per quarter hour (slot = created_at / 900000, UTC) by channel,
-- staff member and card: awards (hundredths and rows) and reward redemptions from the ledger. Every
-- UTC offset in use is a whole number of quarter hours, so a slot lies within one local day of any
-- shop's time zone: 30 days are at most 2,880 slots per source, staff member and card, however busy
-- the ledger. The ledger is append-only; its rows go only with their customer (the test-customer
-- sweep), whose delete takes its sums back out first (customers_slots_forget).
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
CREATE TRIGGER transactions_slots_insert AFTER INSERT ON transactions WHEN (new.is_award = 1 OR (new.kind = 'redeem' AND json_extract(new.details, '$.reward') IS NOT NULL)) BEGIN
  INSERT INTO ledger_slots (org_id, livemode, slot, source, staff_id, card_id, awarded, awards, rewards)
    SELECT new.org_id, new.livemode, new.created_at / 900000, new.source, coalesce(new.staff_id, ''), c.card_id,
           CASE WHEN new.is_award = 1 THEN new.change ELSE 0 END, new.is_award, CASE WHEN new.kind = 'redeem' AND json_extract(new.details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END
    FROM customers c WHERE c.id = new.customer_id
    ON CONFLICT DO UPDATE SET awarded = awarded + excluded.awarded, awards = awards + excluded.awards, rewards = rewards + excluded.rewards;
END;
CREATE TRIGGER customers_slots_forget BEFORE DELETE ON customers BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT created_at / 900000 AS slot, source, coalesce(staff_id, '') AS staff_id,
                 sum(CASE WHEN is_award = 1 THEN change ELSE 0 END) AS awarded, sum(is_award) AS awards, sum(CASE WHEN kind = 'redeem' AND json_extract(details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END) AS rewards
          FROM transactions WHERE customer_id = old.id AND (is_award = 1 OR (kind = 'redeem' AND json_extract(details, '$.reward') IS NOT NULL)) GROUP BY 1, 2, 3) AS g
    WHERE ledger_slots.org_id = old.org_id AND ledger_slots.livemode = old.livemode AND ledger_slots.card_id = old.card_id
      AND ledger_slots.slot = g.slot AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id;
END;
INSERT INTO ledger_slots (org_id, livemode, slot, source, staff_id, card_id, awarded, awards, rewards)
  SELECT t.org_id, t.livemode, t.created_at / 900000, t.source, coalesce(t.staff_id, ''), c.card_id,
         sum(CASE WHEN t.is_award = 1 THEN t.change ELSE 0 END), sum(t.is_award), sum(CASE WHEN t.kind = 'redeem' AND json_extract(t.details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END)
  FROM transactions t JOIN customers c ON c.id = t.customer_id WHERE (t.is_award = 1 OR (t.kind = 'redeem' AND json_extract(t.details, '$.reward') IS NOT NULL))
  GROUP BY 1, 2, 3, 4, 5, 6;

-- New customers per quarter hour by the channel that created them, for the dashboard.
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
`,
} satisfies MigrationStep;
