import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { notReversedSql } from '../db/reversals';

// What the counter reads beyond the customers' and the ledger's own repos: the staff's search,
// the daily award counts the owner's caps are checked against, and which of a member's rows may
// still be undone.

/** An award that was reversed no longer counts (the transactions_reversal index answers this). */
const NOT_REVERSED = notReversedSql('t');

function createCounterRepo(db: Db) {
  // Exact matches on the keys (email, phone, external id, scan code) or a part of the name. The
  // name test reads every customer of the namespace: a shop's list, thousands at most.
  const search = db.prepare<{ orgId: string; livemode: number; text: string; lower: string; email: string | null; phone: string | null; limit: number }, { id: string }>(
    `SELECT id FROM customers
     WHERE org_id = @orgId AND livemode = @livemode
       AND (external_id = @text OR scan_code = @text OR email_norm = @email OR phone_norm = @phone OR instr(lower(coalesce(name, '')), @lower) > 0)
     ORDER BY name IS NULL, name COLLATE NOCASE, created_at LIMIT @limit`,
  );
  const staffAwards = db.prepare<{ orgId: string; livemode: number; staffId: string; start: number; end: number }, { n: number }>(
    `SELECT count(*) AS n FROM transactions t
     WHERE t.staff_id = @staffId AND t.org_id = @orgId AND t.livemode = @livemode AND t.source = 'scan' AND t.is_award = 1
       AND t.created_at >= @start AND t.created_at < @end AND ${NOT_REVERSED}`,
  );
  const customerAwards = db.prepare<{ customerId: string; start: number; end: number }, { n: number }>(
    `SELECT count(*) AS n FROM transactions t
     WHERE t.customer_id = @customerId AND t.is_award = 1 AND t.source = 'scan'
       AND t.created_at >= @start AND t.created_at < @end AND ${NOT_REVERSED}`,
  );
  const undoable = db.prepare<{ customerId: string; staffId: string; since: number }, { id: string }>(
    `SELECT t.id FROM transactions t
     WHERE t.customer_id = @customerId AND t.staff_id = @staffId AND t.source = 'scan' AND t.kind IN ('earn', 'redeem')
       AND t.change != 0 AND t.created_at > @since AND ${NOT_REVERSED}
     ORDER BY t.created_at DESC, t.rowid DESC LIMIT 1`,
  );
  const reversedAmong = db.prepare<[string], { reverses: string }>(
    `SELECT json_extract(details, '$.reverses') AS reverses FROM transactions WHERE customer_id = ? AND kind = 'reversal'`,
  );

  return {
    search(q: { orgId: string; livemode: boolean; text: string; email: string | null; phone: string | null; limit: number }): string[] {
      return search.all({ ...q, livemode: q.livemode ? 1 : 0, lower: q.text.toLowerCase() }).map((r) => r.id);
    },
    /** Award rows (not reversed) this member made at the counter in [start, end). */
    staffAwardsBetween: (q: { orgId: string; livemode: boolean; staffId: string; start: number; end: number }) => staffAwards.get({ ...q, livemode: q.livemode ? 1 : 0 })!.n,
    /** Counter award rows (not reversed) this customer received in [start, end). */
    customerAwardsBetween: (q: { customerId: string; start: number; end: number }) => customerAwards.get(q)!.n,
    /** The newest counter row of this member for this customer since `since` that is not yet undone. */
    undoableRow: (q: { customerId: string; staffId: string; since: number }) => undoable.get(q)?.id,
    /** The ids of this customer's rows that were reversed. */
    reversedIds: (customerId: string) => new Set(reversedAmong.all(customerId).map((r) => r.reverses)),
  };
}

export const counterRepo = perConnection(createCounterRepo);
