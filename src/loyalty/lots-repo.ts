import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// Award lots: what is left of each award made on a card with lots, oldest first; a used-up lot is deleted.

export interface Lot {
  transactionId: string;
  awardedAt: number;
  /** The last millisecond the lot is valid (a months rule); null otherwise. */
  expiresAt: number | null;
  /** The inactivity rule the lot was awarded under, in days; null otherwise. */
  inactiveDays: number | null;
  remaining: number;
}

interface LotRow {
  transaction_id: string;
  awarded_at: number;
  expires_at: number | null;
  inactive_days: number | null;
  remaining: number;
}

const map = (r: LotRow): Lot => ({ transactionId: r.transaction_id, awardedAt: r.awarded_at, expiresAt: r.expires_at, inactiveDays: r.inactive_days, remaining: r.remaining });

function createLotsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO award_lots (transaction_id, customer_id, awarded_at, expires_at, inactive_days, remaining)
     VALUES (@transactionId, @customerId, @awardedAt, @expiresAt, @inactiveDays, @remaining)`,
  );
  // Oldest first, in the primary key's order; ties (one millisecond) by the ledger row's id, which sorts by the time it was made.
  const live = db.prepare<[string], LotRow>(
    'SELECT transaction_id, awarded_at, expires_at, inactive_days, remaining FROM award_lots WHERE customer_id = ? ORDER BY awarded_at, transaction_id',
  );
  const key = 'customer_id = @customerId AND awarded_at = @awardedAt AND transaction_id = @transactionId';
  const setRemaining = db.prepare(`UPDATE award_lots SET remaining = @remaining WHERE ${key}`);
  const usedUp = db.prepare(`DELETE FROM award_lots WHERE ${key}`);
  const reminded = db.prepare<{ customerId: string; expiresAt: number }, { n: number }>('SELECT count(*) AS n FROM expiry_reminders WHERE customer_id = @customerId AND expires_at = @expiresAt');
  return {
    insert(lot: Lot & { customerId: string }) {
      insert.run(lot);
    },
    /** The customer's lots (each has units left), oldest first. */
    live: (customerId: string): Lot[] => live.all(customerId).map(map),
    /** What is left of a lot of the customer's; a lot used up (0) is deleted: nothing reads it again. */
    setRemaining(customerId: string, lot: Pick<Lot, 'transactionId' | 'awardedAt'>, remaining: number) {
      const key = { customerId, awardedAt: lot.awardedAt, transactionId: lot.transactionId };
      if (remaining > 0) setRemaining.run({ ...key, remaining });
      else usedUp.run(key);
    },
    /** Whether the customer was reminded of units ending at `expiresAt`. */
    reminded: (customerId: string, expiresAt: number) => reminded.get({ customerId, expiresAt })!.n > 0,
  };
}

export const lotsRepo = perConnection(createLotsRepo);
