import { localeOf, type Lang } from '../i18n/langs';
import { startOfLocalDate, localDate } from '../lib/days';

// A month of the books, `YYYY-MM`, on the shop's calendar: it begins at the first instant of its
// first day in the org's time zone and ends where the next month begins, so a sale at 00:30 on the
// 1st in Berlin (23:30 UTC the day before) is in the month the shop says it is.

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** `2026-03` as it is, or null when the text is not a month of years 1970–9999. */
export function parseMonth(text: string): string | null {
  const m = MONTH.exec(text.trim());
  return m && Number(m[1]) >= 1970 ? `${m[1]}-${m[2]}` : null;
}

/** The month after (`2026-12` → `2027-01`). */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}`;
}

/** The month before (`2026-01` → `2025-12`). */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${String(y - 1).padStart(4, '0')}-12` : `${String(y).padStart(4, '0')}-${String(m - 1).padStart(2, '0')}`;
}

/** [from, to) of the month in the zone, in ms. */
export function monthRange(month: string, timeZone: string): { from: number; to: number } {
  return { from: startOfLocalDate(`${month}-01`, timeZone), to: startOfLocalDate(`${nextMonth(month)}-01`, timeZone) };
}

/** The month an instant falls in, on the zone's calendar. */
export const monthOf = (ms: number, timeZone: string): string => localDate(ms, timeZone).slice(0, 7);

const monthFormats = new Map<Lang, Intl.DateTimeFormat>();

/** "March 2026", "März 2026". */
export function monthName(month: string, lang: Lang = 'en'): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  let f = monthFormats.get(lang);
  if (!f) monthFormats.set(lang, (f = new Intl.DateTimeFormat(localeOf(lang), { month: 'long', year: 'numeric', timeZone: 'UTC' })));
  return f.format(Date.UTC(y, m - 1, 1));
}
