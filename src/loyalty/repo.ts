import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { notReversedSql } from '../db/reversals';
import type { Channel, LedgerKind } from '../lib/changes';

/**
 * What a row remembers about how its change was worked out, amounts in hundredths like every
 * other amount in the database (the API converts them at the edge). `each` is the item's value at
 * the time, so the history stays true after the card's accrual rules change.
 */
export type LedgerDetails =
  | ({ from: 'spend'; spend: { amount: number; currency: string }; rate: number } & PromotionDetails)
  | ({ from: 'items'; items: { key: string; quantity: number; each: number }[] } & PromotionDetails)
  /** An earn of a flat amount that promotions added to. */
  | Required<PromotionDetails>
  /** `id` names the card's reward (rows written before rewards had ids have none). */
  | { reward: { id?: string; name: string; cost: number } }
  | { setPoints: number }
  /** A `reversal` row: the id of the row it undoes (at most one reversal per row, a unique index). */
  | { reverses: string };

/**
 * An earn that promotions added to: which ones, and the extra (hundredths) included in the row's
 * change. The earning limits take it back out: they judge the base amount only.
 */
export interface PromotionDetails {
  promotions?: { ids: string[]; extra: number };
}

/** One balance change. Rows are only ever inserted: the ledger is append-only. */
export interface LedgerRow {
  id: string;
  orgId: string;
  customerId: string;
  livemode: boolean;
  kind: LedgerKind;
  change: number;
  balanceAfter: number;
  isAward: boolean;
  source: Channel;
  /** Who at the counter; null for the other channels. */
  staffId: string | null;
  note: string | null;
  idempotencyKey: string | null;
  details: LedgerDetails | null;
  createdAt: number;
}

/** A row as read back for the history, with its insertion order (`seq`) for stable paging. */
export interface LedgerEntry extends LedgerRow {
  seq: number;
  /** The staff member's name as it is now (a renamed member shows the new name). */
  staffName: string | null;
}

/** Where a history page continues: strictly older than this row. */
export interface LedgerPosition {
  createdAt: number;
  seq: number;
}

interface RawRow {
  seq: number;
  id: string;
  org_id: string;
  customer_id: string;
  livemode: number;
  kind: LedgerKind;
  change: number;
  balance_after: number;
  is_award: number;
  source: Channel;
  staff_id: string | null;
  staff_name: string | null;
  note: string | null;
  idempotency_key: string | null;
  details: string | null;
  created_at: number;
}

const map = (r: RawRow): LedgerEntry => ({
  seq: r.seq,
  id: r.id,
  orgId: r.org_id,
  customerId: r.customer_id,
  livemode: r.livemode === 1,
  kind: r.kind,
  change: r.change,
  balanceAfter: r.balance_after,
  isAward: r.is_award === 1,
  source: r.source,
  staffId: r.staff_id,
  staffName: r.staff_name,
  note: r.note,
  idempotencyKey: r.idempotency_key,
  details: r.details === null ? null : (JSON.parse(r.details) as LedgerDetails),
  createdAt: r.created_at,
});

function createLedgerRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, staff_id, note, idempotency_key, details, created_at)
     VALUES (@id, @orgId, @customerId, @livemode, @kind, @change, @balanceAfter, @isAward, @source, @staffId, @note, @idempotencyKey, @details, @createdAt)`,
  );
  // Both award queries read the customer's rows through transactions_customer (customer_id,
  // created_at), newest first for the last award (migration 13 says why there is no index of awards).
  // An award that was reversed (the counter's undo) no longer counts: it is as if it never happened,
  // so a mistaken stamp undone at once does not hold back the right one (transactions_reversal index).
  const notReversed = notReversedSql('t');
  const lastAward = db.prepare<[string], { at: number }>(
    `SELECT t.created_at AS at FROM transactions t WHERE t.customer_id = ? AND t.is_award = 1 AND ${notReversed} ORDER BY t.created_at DESC LIMIT 1`,
  );
  // The base amounts: what promotions added is no part of what the limits count.
  const awardedSince = db.prepare<{ customerId: string; since: number }, { total: number | null }>(
    `SELECT sum(t.change - coalesce(json_extract(t.details, '$.promotions.extra'), 0)) AS total FROM transactions t
     WHERE t.customer_id = @customerId AND t.is_award = 1 AND t.created_at > @since AND ${notReversed}`,
  );
  // A row is named with its customer: the ids have no index of their own (one b-tree fewer written
  // per balance change), so the customer's rows in transactions_customer are read for it, newest
  // first: the counter's undo names one of the last.
  const byId = db.prepare<{ customerId: string; id: string }, RawRow>(
    `SELECT t.rowid AS seq, t.*, s.name AS staff_name FROM transactions t LEFT JOIN staff s ON s.id = t.staff_id WHERE t.customer_id = @customerId AND t.id = @id
     ORDER BY t.created_at DESC LIMIT 1`,
  );
  const reversalOf = db.prepare<[string], { id: string }>(`SELECT id FROM transactions WHERE kind = 'reversal' AND json_extract(details, '$.reverses') = ?`);
  // Newest first. rowid breaks ties between rows of the same millisecond in the order they were written.
  const firstPage = db.prepare<{ customerId: string; limit: number }, RawRow>(
    `SELECT t.rowid AS seq, t.*, s.name AS staff_name FROM transactions t LEFT JOIN staff s ON s.id = t.staff_id
     WHERE t.customer_id = @customerId
     ORDER BY t.created_at DESC, t.rowid DESC LIMIT @limit`,
  );
  const nextPage = db.prepare<{ customerId: string; limit: number; createdAt: number; seq: number }, RawRow>(
    `SELECT t.rowid AS seq, t.*, s.name AS staff_name FROM transactions t LEFT JOIN staff s ON s.id = t.staff_id
     WHERE t.customer_id = @customerId AND (t.created_at < @createdAt OR (t.created_at = @createdAt AND t.rowid < @seq))
     ORDER BY t.created_at DESC, t.rowid DESC LIMIT @limit`,
  );

  return {
    insert(row: LedgerRow) {
      insert.run({ ...row, livemode: row.livemode ? 1 : 0, isAward: row.isAward ? 1 : 0, details: row.details ? JSON.stringify(row.details) : null });
    },
    /** When the customer last received an award (ms), or null if never. */
    lastAwardAt: (customerId: string): number | null => lastAward.get(customerId)?.at ?? null,
    /** Hundredths awarded strictly after `since` (ms), promotions' extra left out: the rolling-period total. */
    awardedSince: (customerId: string, since: number): number => awardedSince.get({ customerId, since })?.total ?? 0,
    /** One row of this customer's ledger, or undefined. */
    find: (customerId: string, id: string): LedgerEntry | undefined => {
      const row = byId.get({ customerId, id });
      return row && map(row);
    },
    /** The id of the row that reversed `id`, or undefined when it stands. */
    reversalOf: (id: string): string | undefined => reversalOf.get(id)?.id,
    /** Up to `limit` rows, newest first, strictly older than `after` when given. */
    page(customerId: string, limit: number, after?: LedgerPosition): LedgerEntry[] {
      const rows = after ? nextPage.all({ customerId, limit, ...after }) : firstPage.all({ customerId, limit });
      return rows.map(map);
    },
  };
}

export const ledgerRepo = perConnection(createLedgerRepo);
