import type { PassType } from '../cards/model';
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { figureSql, type Figure } from '../loyalty/figures';

/** Counter ledger rows of one staff member, one local day, one figure and one card type, summed. */
export interface ActivityCell {
  staffId: string;
  /** Which of the given days (0 = the first). */
  dayIndex: number;
  figure: Figure;
  passType: PassType;
  count: number;
  /** Signed hundredths. */
  total: number;
}

function createActivityRepo(db: Db) {
  // The org's counter rows in [from, to) of one mode: each staff member's, read through
  // transactions_staff (only counter rows name a member, and members are never deleted), so no
  // index of the whole ledger by time is written with every balance change for this page. Each
  // row's local day is the last day start at or before it (days of 23 or 25 hours included). Each
  // row counts in its figure (loyalty/figures.ts); openings, undos and undone rows in none.
  const cells = db.prepare<{ orgId: string; livemode: number; from: number; to: number; starts: string }, ActivityCell>(
    `SELECT staffId, dayIndex, figure, passType, count(*) AS count, sum(change) AS total
     FROM (SELECT t.staff_id AS staffId,
                  (SELECT count(*) FROM json_each(@starts) WHERE value <= t.created_at) - 1 AS dayIndex,
                  ${figureSql('t')} AS figure, c.pass_type AS passType, t.change AS change
           FROM staff s
             CROSS JOIN transactions t ON t.staff_id = s.id AND t.created_at >= @from AND t.created_at < @to
             JOIN customers cu ON cu.id = t.customer_id
             JOIN cards c ON c.id = cu.card_id
           WHERE s.org_id = @orgId AND t.org_id = @orgId AND t.livemode = @livemode AND t.source = 'scan' AND t.kind != 'reversal')
     WHERE figure IS NOT NULL
     GROUP BY staffId, dayIndex, figure, passType`,
  );
  return {
    /** `dayStarts` ascending; rows before the first start are not read (`from` is the first start). */
    cells(input: { orgId: string; livemode: boolean; dayStarts: number[]; to: number }): ActivityCell[] {
      return cells.all({ orgId: input.orgId, livemode: input.livemode ? 1 : 0, from: input.dayStarts[0]!, to: input.to, starts: JSON.stringify(input.dayStarts) });
    },
  };
}

export const activityRepo = perConnection(createActivityRepo);
