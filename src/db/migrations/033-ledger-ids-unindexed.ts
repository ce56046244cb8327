import { rebuildTable } from './rebuild-table';
import type { Db, MigrationStep } from './step';

// The ledger's ids lose their index. Every read that names a ledger row by id also names its
// customer (the history's row, the counter's undo, the reversal's row in the dashboard trigger and
// in the books), so transactions_customer finds it among that customer's rows; the id's own
// b-tree (the primary key's) was one page written per balance change and read by nothing else.
// Ids stay what they were: 8 characters of time and 12 random ones (71 bits) per millisecond, made
// by the server alone, never taken from a request.
//
// `transactions` is rebuilt with its text as stored, `id TEXT PRIMARY KEY` alone made `id TEXT NOT
// NULL`: every row keeps its rowid (the history's order among rows of one millisecond), its id and
// its indexes (made again from their text). award_lots referred to transactions(id), which a
// foreign key needs unique: it is rebuilt without that reference, and a trigger removes a row's
// lot with the row, as the ON DELETE CASCADE did.

/** `text` with `from` replaced by `to`; throws when `from` is not there exactly once, so the step fails whole. */
function replacedOnce(table: string, text: string, from: string, to: string): string {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`migration 33: ${table} does not hold "${from}" exactly once`);
  return parts.join(to);
}

function ledgerIdsUnindexed(db: Db): void {
  const tableSql = (name: string) => db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(name) as string;
  rebuildTable(
    db,
    'award_lots',
    replacedOnce('award_lots', tableSql('award_lots'), 'transaction_id  TEXT PRIMARY KEY REFERENCES transactions(id) ON DELETE CASCADE,', 'transaction_id  TEXT PRIMARY KEY,'),
  );
  rebuildTable(
    db,
    'transactions',
    replacedOnce(
      'transactions',
      tableSql('transactions'),
      'id               TEXT PRIMARY KEY,',
      'id               TEXT NOT NULL,            -- tx_…, made by the server; found with its customer (transactions_customer)',
    ),
  );
  db.exec(SQL);
}

const SQL = `
DROP TRIGGER transactions_slots_reversal;
-- An undone row (the counter's reversal) counts for nothing on the dashboard: the reversal takes the
-- row's own sums back out of the quarter hour, channel, staff member and card they were added to,
-- and the test-customer sweep takes out only what still counts. The undone row is the same
-- customer's: found among that customer's rows, newest first (an undo follows its row soon).
CREATE TRIGGER transactions_slots_reversal AFTER INSERT ON transactions WHEN new.kind = 'reversal' BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT o.org_id, o.livemode, o.created_at / 900000 AS slot, o.source, coalesce(o.staff_id, '') AS staff_id, c.card_id,
                 CASE WHEN o.is_award = 1 THEN o.change ELSE 0 END AS awarded, o.is_award AS awards, CASE WHEN o.kind = 'redeem' AND json_extract(o.details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END AS rewards
          FROM transactions o JOIN customers c ON c.id = o.customer_id
          WHERE o.rowid = (SELECT u.rowid FROM transactions u WHERE u.customer_id = new.customer_id AND u.id = json_extract(new.details, '$.reverses')
                           ORDER BY u.created_at DESC LIMIT 1)
            AND (o.is_award = 1 OR (o.kind = 'redeem' AND json_extract(o.details, '$.reward') IS NOT NULL))) AS g
    WHERE ledger_slots.org_id = g.org_id AND ledger_slots.livemode = g.livemode AND ledger_slots.slot = g.slot
      AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id AND ledger_slots.card_id = g.card_id;
END;
-- A ledger row's award lot goes with the row (a customer's rows go with the customer).
CREATE TRIGGER transactions_lots_delete AFTER DELETE ON transactions BEGIN
  DELETE FROM award_lots WHERE transaction_id = old.id;
END;
`;

export default {
  version: 33,
  name: 'the ledger ids unindexed: a row is found with its customer; one b-tree fewer written per balance change',
  rebuildsTables: true,
  run: ledgerIdsUnindexed,
} satisfies MigrationStep;
