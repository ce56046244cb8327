import type { MigrationStep } from './step';

// The dashboard's unusual days read the month's counter awards twice: every award's customer, to
// find who might have reached the daily mark, and every award's size, to flag large ones. In a busy
// shop these two reads were most of the page's time.
// - The size now sits in the index of counter awards, so an award below the owner's sizes is
//   passed over without reading its row.
// - Each counter award records how many counter awards its customer had in the 26 hours before it
//   (a trigger keeps it). A shop's local day lasts at most 26 hours (the longest daylight-saving
//   change is two hours), so a customer's third counter award of one day has at least two before
//   it in that window: with a mark of three or more, only awards counted so are read, and a
//   regular who comes once a day is among them only when visits fall near midnight. A row's time
//   is the clock at its write, so a customer's awards arrive in time order and each is counted when
//   written. The count is never lowered (an undo, say): the dashboard counts the candidates' awards
//   again before it flags a day.
/** The counter awards of `row`'s customer in the 26 hours (93,600,000 ms) before `row`, itself left out: the old rows' count and each new row's. */
const counterAwardsBefore = (row: string) => `(SELECT count(*) FROM transactions p
    WHERE p.customer_id = ${row}.customer_id AND p.created_at <= ${row}.created_at AND p.created_at > ${row}.created_at - 93600000
      AND p.source = 'scan' AND p.is_award = 1 AND p.rowid <> ${row}.rowid)`;

export default {
  version: 37,
  name: 'counter awards: the size in their index, and a count of the ones before for the unusual days',
  sql: `
DROP INDEX transactions_counter_awards;
-- The counter's awards, with their customer and size: the dashboard's unusual days and large awards.
CREATE INDEX transactions_counter_awards ON transactions (org_id, livemode, created_at, customer_id, change) WHERE source = 'scan' AND is_award = 1;

-- For a counter award (source 'scan', is_award): how many counter awards its customer had in the 26
-- hours (93,600,000 ms) before it; 0 on every other row. Kept by transactions_counter_awards_before.
ALTER TABLE transactions ADD COLUMN counter_awards_before INTEGER NOT NULL DEFAULT 0;
UPDATE transactions SET counter_awards_before = ${counterAwardsBefore('transactions')} WHERE source = 'scan' AND is_award = 1;
-- Counts a new counter award's predecessors (counter_awards_before), read through transactions_customer.
CREATE TRIGGER transactions_counter_awards_before AFTER INSERT ON transactions WHEN new.source = 'scan' AND new.is_award = 1 BEGIN
  UPDATE transactions SET counter_awards_before = ${counterAwardsBefore('new')} WHERE rowid = new.rowid;
END;
-- The counter awards with at least two before them in 26 hours: where a customer's third or later
-- award of a day is found. Few rows, each read from the table (an inequality in a partial index's
-- WHERE keeps SQLite from taking source and is_award as known).
CREATE INDEX transactions_counter_repeats ON transactions (org_id, livemode, created_at, customer_id) WHERE source = 'scan' AND is_award = 1 AND counter_awards_before >= 2;
`,
} satisfies MigrationStep;
