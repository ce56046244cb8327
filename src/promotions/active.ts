import { localDateTime } from '../lib/days';
import { MULTIPLIER_SCALE, type Promotion, type Weekday } from './model';

// Which promotions run at an instant, and what they add to an award. Pure: the earn, the counter
// ("what this tap gives") and the console's list of what runs now and next all ask here, so they
// can never disagree. The instant is read on the shop's wall clock, so a daylight-saving change
// moves nothing: "14:00–17:00" is 14:00–17:00 local time on either side of it.

/** An instant as the shop's calendar and clock show it. */
export interface ShopMoment {
  /** `YYYY-MM-DD` */
  date: string;
  weekday: Weekday;
  /** `HH:MM` */
  time: string;
}

/** The weekday of a calendar date `YYYY-MM-DD`, Monday 1 … Sunday 7. */
export function weekdayOf(date: string): Weekday {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 is Sunday
  return (day === 0 ? 7 : day) as Weekday;
}

/** The shop's date, weekday and time at `at` (ms) in `timeZone`. */
export function shopMoment(at: number, timeZone: string): ShopMoment {
  const [date, time] = localDateTime(at, timeZone).split(' ') as [string, string];
  return { date, weekday: weekdayOf(date), time };
}

/** Whether the promotion runs at this shop moment: within its dates, on one of its weekdays, inside its hours. */
export function runsAt(promotion: Promotion, moment: ShopMoment): boolean {
  if (moment.date < promotion.startsOn || moment.date > promotion.endsOn) return false;
  if (promotion.weekdays && !promotion.weekdays.includes(moment.weekday)) return false;
  if (promotion.hours && (moment.time < promotion.hours.from || moment.time >= promotion.hours.to)) return false;
  return true;
}

/** Whether the promotion runs at some time of the shop day `date`: within its dates, on one of its weekdays (then within its hours). */
export function runsOn(promotion: Promotion, date: string): boolean {
  return runsAt(promotion, { date, weekday: weekdayOf(date), time: promotion.hours?.from ?? '00:00' });
}

/** The card's promotions that run at `at` (ms), in the order given (oldest first from the repo). */
export function activeAt(promotions: readonly Promotion[], at: number, timeZone: string): Promotion[] {
  const moment = shopMoment(at, timeZone);
  return promotions.filter((p) => runsAt(p, moment));
}

/** Whether the promotion's last day is behind the shop's `today` (`YYYY-MM-DD`): it can never run again. */
export const hasEnded = (promotion: Pick<Promotion, 'endsOn'>, today: string): boolean => promotion.endsOn < today;

/**
 * What the running promotions add to an award of `base` hundredths (whole units): every
 * multiplier multiplies the base, every bonus adds, and the result is rounded down to whole units:
 * floor(base × m1 × m2 …) − base + b1 + b2 …, in hundredths. Integer arithmetic throughout (ten
 * multipliers of up to 10 on a billion units pass 2^53, hence BigInt).
 */
export function promotionExtra(base: number, active: readonly Promotion[]): number {
  const units = BigInt(Math.floor(base / 100));
  let numerator = units;
  let denominator = 1n;
  let bonuses = 0n;
  for (const p of active) {
    if (p.kind === 'multiplier') {
      numerator *= BigInt(p.value);
      denominator *= BigInt(MULTIPLIER_SCALE);
    } else bonuses += BigInt(Math.floor(p.value / 100));
  }
  return Number((numerator / denominator - units + bonuses) * 100n);
}
