import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// The books' reads: live data only. The ledger holds every balance change with the balance after
// it, so the balance of any customer at any instant is the balance_after of their last row before
// it, and a month's movements are the sum of its rows. The two are read independently (balances at
// the month's start and end, movements in between), so "opening + movements = closing" is a check
// of the ledger, not an identity by construction.

/** The column of the books a ledger row belongs to. */
export type BooksColumn = 'earned' | 'birthday' | 'imported' | 'correctedUp' | 'correctedDown' | 'redeemed' | 'expired';

export const BOOKS_COLUMNS: readonly BooksColumn[] = ['earned', 'birthday', 'imported', 'correctedUp', 'correctedDown', 'redeemed', 'expired'];

/** One card's sum of one column in a period (hundredths); `promotions` is what promotions added to `earned`. */
export interface MovementRow {
  cardId: string;
  col: BooksColumn;
  amount: number;
  promotions: number;
  rows: number;
}

/** The card's customers' balances summed at an instant, and how many had one above zero. */
export interface BalancesAt {
  total: number;
  holders: number;
}

// Every row falls in exactly one column, decided by its kind: an earn (what promotions added
// included, and counted apart), a birthday treat, an opening balance (a CSV import, or
// initialPoints when a customer was enrolled), a redemption, an expiry; a correction by the sign of
// its change. An undo (kind `reversal`) goes in the column of the row it undoes, with that row's
// sign deciding a correction's column, so an award undone at the counter nets to nothing in
// "earned" rather than showing as a correction. The ELSE makes the list total: a kind this code does
// not know yet lands in a correction, never nowhere.
export const MOVEMENTS_SQL = `WITH m AS (
    SELECT c.card_id AS card_id, t.change AS change,
      CASE WHEN t.kind = 'reversal' THEN o.kind ELSE t.kind END AS k,
      CASE WHEN t.kind = 'reversal' THEN coalesce(o.change, -t.change) ELSE t.change END AS s,
      CASE WHEN t.kind = 'reversal' THEN -coalesce(json_extract(o.details, '$.promotions.extra'), 0)
           ELSE coalesce(json_extract(t.details, '$.promotions.extra'), 0) END AS extra
    FROM transactions t JOIN customers c ON c.id = t.customer_id
    LEFT JOIN transactions o ON t.kind = 'reversal' AND o.id = json_extract(t.details, '$.reverses')
    WHERE t.org_id = @orgId AND t.livemode = 1 AND t.created_at >= @from AND t.created_at < @to
  )
  SELECT card_id AS cardId,
    CASE k WHEN 'earn' THEN 'earned' WHEN 'birthday' THEN 'birthday' WHEN 'initial' THEN 'imported'
      WHEN 'redeem' THEN 'redeemed' WHEN 'expiry' THEN 'expired'
      ELSE CASE WHEN s < 0 THEN 'correctedDown' ELSE 'correctedUp' END END AS col,
    sum(change) AS amount, sum(CASE WHEN k = 'earn' THEN extra ELSE 0 END) AS promotions, count(*) AS rows
  FROM m GROUP BY 1, 2`;

// Each live customer of the card who existed by then (erased ones too: their ledger stays, and
// so does what the shop owes them), their last row before the instant through transactions_customer
// (customer_id, created_at), walked backwards: one probe per customer. MATERIALIZED keeps it one:
// flattened into the two sums, SQLite ran the probe once for each of them.
export const BALANCES_AT_SQL = `WITH last AS MATERIALIZED (
    SELECT (SELECT t.balance_after FROM transactions t WHERE t.customer_id = c.id AND t.created_at < @at
            ORDER BY t.created_at DESC, t.rowid DESC LIMIT 1) AS b
    FROM customers c WHERE c.card_id = @cardId AND c.livemode = 1 AND c.created_at < @at
  )
  SELECT coalesce(sum(b), 0) AS total, coalesce(sum(b > 0), 0) AS holders FROM last`;

function createReportRepo(db: Db) {
  const movements = db.prepare<{ orgId: string; from: number; to: number }, MovementRow>(MOVEMENTS_SQL);
  const balances = db.prepare<{ cardId: string; at: number }, BalancesAt>(BALANCES_AT_SQL);
  return {
    /** Every live row of the org in [from, to), summed per card and column. */
    movements: (orgId: string, from: number, to: number): MovementRow[] => movements.all({ orgId, from, to }),
    /** The card's live balances just before `at` (rows at `at` itself belong to what follows). */
    balancesAt: (cardId: string, at: number): BalancesAt => balances.get({ cardId, at })!,
  };
}

export const reportRepo = perConnection(createReportRepo);
