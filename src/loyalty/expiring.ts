import type { Card, CardExpiry } from '../cards/model';
import type { Db } from '../db/connection';
import { formatDate, unitKind } from '../i18n/format';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { addDays, localDate, startOfLocalDate } from '../lib/days';
import { readOrgSettings } from '../orgs/settings';
import { lotsRepo, type Lot } from './lots-repo';

// When units expire (never retroactively; the oldest units go first). A lot
// carries the rule it was awarded under; these functions say when each lot ends, in the shop's days.

const DAY = 86_400_000;

/** The last millisecond of a local date: "at the end of the day" in the shop's time zone. */
export function endOfLocalDate(date: string, timeZone: string): number {
  return startOfLocalDate(addDays(date, 1), timeZone) - 1;
}

/** `date` plus `months` calendar months; a day the month lacks becomes its last (31 Jan + 1 month = 28 or 29 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The rule a lot awarded at `at` carries under the card's expiry setting (none: it never expires). */
export function lotRule(expiry: CardExpiry | null, at: number, timeZone: string): Pick<Lot, 'expiresAt' | 'inactiveDays'> {
  if (!expiry) return { expiresAt: null, inactiveDays: null };
  if ('months' in expiry) return { expiresAt: endOfLocalDate(addMonths(localDate(at, timeZone), expiry.months), timeZone), inactiveDays: null };
  return { expiresAt: null, inactiveDays: expiry.inactiveDays };
}

/**
 * The last millisecond a lot is valid, or null when it never expires. An inactivity lot lasts to
 * the end of the day `inactiveDays` after the last award, or after it was given when that is later
 * (a birthday treat or an opening balance is not taken a day after it was given).
 */
export function lotDeadline(lot: Pick<Lot, 'awardedAt' | 'expiresAt' | 'inactiveDays'>, lastAwardAt: number | null, timeZone: string): number | null {
  if (lot.expiresAt !== null) return lot.expiresAt;
  if (lot.inactiveDays === null) return null;
  const from = Math.max(lastAwardAt ?? 0, lot.awardedAt);
  return endOfLocalDate(addDays(localDate(from, timeZone), lot.inactiveDays), timeZone);
}

/** A cheap lower bound of lotDeadline for inactivity lots, for a query to narrow its rows (daylight saving moves a day by at most an hour or two). */
export const inactivityFloor = (from: number, inactiveDays: number) => from + inactiveDays * DAY - 3 * 3_600_000;

/** From when the customer is reminded of units valid through `at`: the start of the shop's day `remindDays` before that day. */
export function remindFrom(at: number, remindDays: number, timeZone: string): number {
  return startOfLocalDate(addDays(localDate(at, timeZone), -remindDays), timeZone);
}

export interface Expiring {
  /** Hundredths. */
  amount: number;
  /** The last millisecond they are valid. */
  at: number;
}

/** The next units to expire of these lots: the earliest deadline and all that ends then. */
export function nextExpiring(lots: readonly Lot[], lastAwardAt: number | null, timeZone: string): Expiring | null {
  let next: Expiring | null = null;
  for (const lot of lots) {
    const at = lotDeadline(lot, lastAwardAt, timeZone);
    if (at === null) continue;
    if (!next || at < next.at) next = { amount: lot.remaining, at };
    else if (at === next.at) next.amount += lot.remaining;
  }
  return next;
}

/** The customer's next expiry (units and when), or null: customer read, the pass, the reminder email. */
export function expiringFor(db: Db, customer: { id: string; orgId: string; lastAwardAt: number | null }, card: Pick<Card, 'lotsSince'>): Expiring | null {
  if (card.lotsSince === null) return null;
  const lots = lotsRepo(db).live(customer.id);
  if (lots.length === 0) return null;
  return nextExpiring(lots, customer.lastAwardAt, readOrgSettings(db, customer.orgId).timeZone);
}

/**
 * The next expiry as the pass shows it: from the reminder on (the sweep writes it, with a new pass
 * version) until the units are used or expire. Read from rows, never from the time, so a pass is
 * the same every time its version is fetched.
 */
export function remindedExpiring(db: Db, customer: { id: string; orgId: string; lastAwardAt: number | null }, card: Pick<Card, 'lotsSince'>): (Expiring & { timeZone: string }) | null {
  const next = expiringFor(db, customer, card);
  if (!next || !lotsRepo(db).reminded(customer.id, next.at)) return null;
  return { ...next, timeZone: readOrgSettings(db, customer.orgId).timeZone };
}

/** "12 points expire on 31 Jan" (a pass) or "… on 31 January" (a sentence), in the shop's time zone. */
export function expiringText(lang: Lang, card: Pick<Card, 'passType'>, expiring: Expiring, timeZone: string, style: 'dayMonth' | 'dayMonthLong'): string {
  return t(lang, 'pass.expiring.value', { kind: unitKind(card.passType), count: expiring.amount / 100, date: formatDate(lang, timeZone, expiring.at, style) });
}
