import { notReversedSql } from '../db/reversals';

// The one definition of the figures the console reports: the dashboard, the Staff page and its
// CSV export count a ledger row the same way, so a day's stamps can never differ between them.
//
// - awarded: an award row (is_award: an earn, or a correction that added value, as the earning
//   limits count it), in stamps, points or credit;
// - redeemed: a redemption (a reward, or points or credit spent);
// - corrected: a correction that lowered or set the balance (adjust, not an award);
// - nothing: an opening balance (initial), an undo (reversal), and any row an undo reversed.
//
// An award that was undone at the counter therefore counts as awarded nowhere, and its undo as a
// correction nowhere: the pair is as if neither had happened. The dashboard's quarter-hour sums
// (ledger_slots in schema.sql, kept by triggers) apply the same rule: is_award rows, less what a
// reversal took back out.

export type Figure = 'awarded' | 'redeemed' | 'corrected';

/** The figure of a transactions row `t`, in SQL: NULL for rows that count nowhere, undone ones included. */
export function figureSql(t: string): string {
  return `CASE WHEN NOT ${notReversedSql(t)} THEN NULL
    WHEN ${t}.is_award = 1 THEN 'awarded' WHEN ${t}.kind = 'redeem' THEN 'redeemed' WHEN ${t}.kind = 'adjust' THEN 'corrected' END`;
}
