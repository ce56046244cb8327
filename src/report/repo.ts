import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { undoneRowSql } from '../db/reversals';

// The books' reads: live data only. The ledger holds every balance change with the balance after
// it, so the balance of any customer at any instant is the balance_after of their last row before
// it, and a month's movements are the sum of its rows. The two are read independently (balances at
// the month's start and end, movements in between), so "opening + movements = closing" is a check
// of the ledger, not an identity by construction.

/** The column of the books a ledger row belongs to. */
export type BooksColumn = 'earned' | 'birthday' | 'imported' | 'correctedUp' | 'correctedDown' | 'redeemed' | 'expired';

export const BOOKS_COLUMNS: readonly BooksColumn[] = ['earned', 'birthday', 'imported', 'correctedUp', 'correctedDown', 'redeemed', 'expired'];

/** One customer's sum of one column in a period (hundredths); `promotions` is what promotions added to `earned`. */
export interface MovementRow {
  customerId: string;
  col: BooksColumn;
  amount: number;
  promotions: number;
}

/** A card's customers' balances summed at the month's start and end, and how many had one above zero at its end. */
export interface BalancesRow {
  opening: number;
  closing: number;
  holders: number;
}

// Every row falls in exactly one column, decided by its kind: an earn (what promotions added
// included, and counted apart), a birthday treat, an opening balance (a CSV import, or
// initialPoints when a customer was enrolled), a redemption, an expiry; a correction by the sign of
// its change. An undo (kind `reversal`) goes in the column of the row it undoes, with that row's
// sign deciding a correction's column, so an award undone at the counter nets to nothing in
// "earned" rather than showing as a correction. The ELSE makes the list total: a kind this code does
// not know yet lands in a correction, never nowhere.
//
// An undo's own row is looked up by undoneRowSql (the ids have no index: among the customer's
// rows, from the undo's time back); for every other row nothing is read.
//
// Summed per customer, not per card: the rows carry no card, and looking up each row's customer
// was two thirds of the read's time; the service knows each customer's card from one read of the
// card's customers (customers_card_fanout holds both, in order).
export const MOVEMENTS_SQL = `WITH m AS (
    SELECT t.customer_id AS customer_id, t.change AS change,
      CASE WHEN t.kind = 'reversal' THEN o.kind ELSE t.kind END AS k,
      CASE WHEN t.kind = 'reversal' THEN coalesce(o.change, -t.change) ELSE t.change END AS s,
      CASE WHEN t.kind = 'reversal' THEN -coalesce(json_extract(o.details, '$.promotions.extra'), 0)
           ELSE coalesce(json_extract(t.details, '$.promotions.extra'), 0) END AS extra
    FROM transactions t
    LEFT JOIN transactions o ON o.rowid = ${undoneRowSql('t')}
    WHERE t.org_id = @orgId AND t.livemode = 1 AND t.created_at >= @from AND t.created_at < @to
  )
  SELECT customer_id AS customerId,
    CASE k WHEN 'earn' THEN 'earned' WHEN 'birthday' THEN 'birthday' WHEN 'initial' THEN 'imported'
      WHEN 'redeem' THEN 'redeemed' WHEN 'expiry' THEN 'expired'
      ELSE CASE WHEN s < 0 THEN 'correctedDown' ELSE 'correctedUp' END END AS col,
    sum(change) AS amount, sum(CASE WHEN k = 'earn' THEN extra ELSE 0 END) AS promotions
  FROM m GROUP BY 1, 2`;

// Each live customer of the card who existed by the month's end (erased ones too: their ledger
// stays, and so does what the shop owes them), their last row before each end of the month through
// transactions_customer (customer_id, created_at), walked backwards: two probes per customer, next
// to each other in the index. MATERIALIZED keeps them two: flattened into the sums, SQLite ran the
// probes once for each sum that reads them.
const lastBalanceBefore = (at: string) => `(SELECT t.balance_after FROM transactions t WHERE t.customer_id = c.id AND t.created_at < ${at}
            ORDER BY t.created_at DESC, t.rowid DESC LIMIT 1)`;
export const BALANCES_SQL = `WITH last AS MATERIALIZED (
    SELECT ${lastBalanceBefore('@from')} AS opening, ${lastBalanceBefore('@to')} AS closing
    FROM customers c WHERE c.card_id = @cardId AND c.livemode = 1 AND c.created_at < @to
  )
  SELECT coalesce(sum(opening), 0) AS opening, coalesce(sum(closing), 0) AS closing, coalesce(sum(closing > 0), 0) AS holders FROM last`;

function createReportRepo(db: Db) {
  const movements = db.prepare<{ orgId: string; from: number; to: number }, MovementRow>(MOVEMENTS_SQL);
  const balances = db.prepare<{ cardId: string; from: number; to: number }, BalancesRow>(BALANCES_SQL);
  const customersOf = db.prepare<{ cardId: string }, string>('SELECT id FROM customers WHERE card_id = @cardId AND livemode = 1').pluck();
  return {
    /** Every live row of the org in [from, to), summed per customer and column. */
    movements: (orgId: string, from: number, to: number): MovementRow[] => movements.all({ orgId, from, to }),
    /** The card's live balances just before `from` and just before `to` (rows at an instant belong to what follows it). */
    balances: (cardId: string, from: number, to: number): BalancesRow => balances.get({ cardId, from, to })!,
    /** The ids of the card's live customers, erased ones included. */
    customerIds: (cardId: string): string[] => customersOf.all({ cardId }),
  };
}

export const reportRepo = perConnection(createReportRepo);
