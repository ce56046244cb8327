import type { Db } from '../db/open';
import { perConnection } from '../db/per-connection';

export type LedgerKind = 'initial' | 'earn' | 'redeem' | 'adjust';
export type Channel = 'api' | 'scan' | 'signup' | 'console';

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
  note: string | null;
  idempotencyKey: string | null;
  details: Record<string, unknown> | null;
  createdAt: number;
}

function createLedgerRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, note, idempotency_key, details, created_at)
     VALUES (@id, @orgId, @customerId, @livemode, @kind, @change, @balanceAfter, @isAward, @source, @note, @idempotencyKey, @details, @createdAt)`,
  );
  const sum = db.prepare<[string], { total: number | null }>('SELECT sum(change) AS total FROM transactions WHERE customer_id = ?');
  return {
    insert(row: LedgerRow) {
      insert.run({ ...row, livemode: row.livemode ? 1 : 0, isAward: row.isAward ? 1 : 0, details: row.details ? JSON.stringify(row.details) : null });
    },
    /** The ledger's own account of a balance: it must always equal customers.balance. */
    sumFor: (customerId: string) => sum.get(customerId)?.total ?? 0,
  };
}

export const ledgerRepo = perConnection(createLedgerRepo);
