import type { PassType } from '../cards/model';
import type { Namespace } from '../customers/model';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { addDays, localDate, startOfLocalDate } from '../lib/days';
import { activityRepo } from './activity-repo';
import { staffRepo } from './repo';

// What each staff member did at the counter, per local day of the shop: read from the
// ledger (transactions.staff_id, source 'scan'), so it is exactly what changed the balances.

/** What a balance counts: stamps and points are different things, and credit is money. */
export type Unit = 'stamps' | 'points' | 'credit';
export const UNITS: readonly Unit[] = ['stamps', 'points', 'credit'];

export const unitOf = (passType: PassType): Unit => (passType === 'stamp_card' ? 'stamps' : passType === 'prepaid_card' ? 'credit' : 'points');

/** How many rows, and their amounts per unit in hundredths (never summed across units). */
export interface Tally {
  count: number;
  amounts: Partial<Record<Unit, number>>;
}

export interface StaffDay {
  /** The shop's calendar date, YYYY-MM-DD. */
  date: string;
  staffId: string;
  staffName: string;
  /** Stamps, points and credit awarded, as loyalty/figures.ts defines it (undone awards are not). */
  awarded: Tally;
  /** Rewards and amounts redeemed (positive amounts). */
  redeemed: Tally;
  /** Corrections that lowered or set a balance (signed, net); an undo is none. */
  corrected: Tally;
}

export const ACTIVITY_DAYS = 30;

const emptyTally = (): Tally => ({ count: 0, amounts: {} });

/**
 * The last `days` local days (today included) in the shop's time zone, newest day first and by
 * name within a day; only days on which a member did something. `staffId` narrows it to one member.
 */
export function staffActivity(deps: { db: Db; clock: Clock }, namespace: Namespace, timeZone: string, options: { days?: number; staffId?: string } = {}): StaffDay[] {
  const days = options.days ?? ACTIVITY_DAYS;
  const today = localDate(deps.clock.now(), timeZone);
  const dates = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  const dayStarts = dates.map((d) => startOfLocalDate(d, timeZone));
  const to = startOfLocalDate(addDays(today, 1), timeZone);
  const names = new Map(staffRepo(deps.db).list(namespace.orgId).map((s) => [s.id, s.name]));

  const byKey = new Map<string, StaffDay>();
  for (const cell of activityRepo(deps.db).cells({ orgId: namespace.orgId, livemode: namespace.livemode, dayStarts, to })) {
    if (options.staffId && cell.staffId !== options.staffId) continue;
    const date = dates[cell.dayIndex]!;
    const key = `${date} ${cell.staffId}`;
    let day = byKey.get(key);
    if (!day) {
      day = { date, staffId: cell.staffId, staffName: names.get(cell.staffId) ?? 'Unknown', awarded: emptyTally(), redeemed: emptyTally(), corrected: emptyTally() };
      byKey.set(key, day);
    }
    const tally = day[cell.figure];
    const unit = unitOf(cell.passType);
    tally.count += cell.count;
    tally.amounts[unit] = (tally.amounts[unit] ?? 0) + (cell.figure === 'redeemed' ? -cell.total : cell.total);
  }
  return [...byKey.values()].sort((a, b) => b.date.localeCompare(a.date) || a.staffName.localeCompare(b.staffName));
}
