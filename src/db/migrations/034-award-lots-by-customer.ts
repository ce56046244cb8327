import type { MigrationStep } from './step';

// Award lots were a rowid table with three more b-trees (the primary key on the transaction, the
// live lots by customer, the due ones), so each award of a card with expiry wrote four pages more
// than one without. Keyed by customer and age (WITHOUT ROWID), the table is itself the customer's
// lots in the order they are used; a lot is deleted when it is used up instead of kept at 0 (no
// query reads a used-up lot), so no index of live lots is needed. An award writes two pages: the
// lot and its place in award_lots_due (or award_lots_inactive). A lot goes with its customer (a
// ledger row is never deleted without its customer), so the trigger that removed a row's lot with
// the row goes: it found the lot by the row's id, which this table no longer leads with.
export default {
  version: 34,
  name: 'award lots keyed by customer: two pages an award instead of four',
  sql: `
DROP TRIGGER transactions_lots_delete;
ALTER TABLE award_lots RENAME TO award_lots_by_transaction;

-- What is left of each award made while the card had lots, the customer's oldest first (awarded_at,
-- then the ledger row's id: ids sort by the time they were made): redemptions take the oldest first,
-- and the expiry sweep takes what is due. A lot that is used up is deleted. Units of the balance no
-- lot covers were awarded before the card had lots: the oldest, and they never expire. expires_at:
-- the last millisecond of the shop's day when a months rule ends the lot; inactive_days: the
-- inactivity rule it was awarded under; both NULL: it never expires. transaction_id: the award's
-- ledger row. Removed with its customer (and so with its ledger row).
CREATE TABLE award_lots (
  customer_id     TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  awarded_at      INTEGER NOT NULL,
  transaction_id  TEXT NOT NULL,
  expires_at      INTEGER,
  inactive_days   INTEGER,
  remaining       INTEGER NOT NULL CHECK (remaining > 0),
  PRIMARY KEY (customer_id, awarded_at, transaction_id)
) WITHOUT ROWID;
INSERT INTO award_lots (customer_id, awarded_at, transaction_id, expires_at, inactive_days, remaining)
  SELECT customer_id, awarded_at, transaction_id, expires_at, inactive_days, remaining FROM award_lots_by_transaction WHERE remaining > 0 ORDER BY customer_id, awarded_at, rowid;
DROP TABLE award_lots_by_transaction;
CREATE INDEX award_lots_due ON award_lots (expires_at, customer_id) WHERE expires_at IS NOT NULL;
CREATE INDEX award_lots_inactive ON award_lots (customer_id) WHERE inactive_days IS NOT NULL;
`,
} satisfies MigrationStep;
