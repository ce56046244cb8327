import { localeOf, type Lang } from './langs';
import { t } from './translate';

// Dates, numbers and money as each language writes them, through Intl: dates in the shop's time
// zone, money in the shop's currency (or the card's). The Intl objects are built once per
// language, zone and style and kept: building one costs far more than formatting with it.

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (!value) cache.set(key, (value = make()));
  return value;
}

const DATE_STYLES = {
  /** "10 Feb", "10. Feb.": where space is short (a pass). */
  dayMonth: { day: 'numeric', month: 'short' },
  /** "10 February", "10. Februar": in a sentence. */
  dayMonthLong: { day: 'numeric', month: 'long' },
  /** "10 February 2026". */
  date: { day: 'numeric', month: 'long', year: 'numeric' },
  /** "10 Feb 2026, 14:30". */
  dateTime: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof DATE_STYLES;

/** A moment (ms) as a date in `timeZone`, the shop's. */
export function formatDate(lang: Lang, timeZone: string, ms: number, style: DateStyle): string {
  return cached(`d|${lang}|${timeZone}|${style}`, () => new Intl.DateTimeFormat(localeOf(lang), { timeZone, ...DATE_STYLES[style] })).format(ms);
}

/** "1,234.5", "1.234,5": a number with at most `decimals` decimals (exactly that many when `fixed`). */
export function formatNumber(lang: Lang, n: number, options: { decimals?: number; fixed?: boolean } = {}): string {
  const decimals = options.decimals ?? 2;
  const min = options.fixed ? decimals : 0;
  return cached(`n|${lang}|${min}|${decimals}`, () => new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: min, maximumFractionDigits: decimals })).format(n);
}

/** "€12.50", "12,50 €": hundredths of `currency` (ISO 4217); without a currency, the amount with its two decimals. */
export function formatMoney(lang: Lang, currency: string | null, hundredths: number): string {
  if (!currency) return formatNumber(lang, hundredths / 100, { decimals: 2, fixed: true });
  return cached(`m|${lang}|${currency}`, () => new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency })).format(hundredths / 100);
}

/** What a card counts in words: stamps, or points (point and level cards). */
export type UnitKind = 'stamp' | 'point';
export const unitKind = (passType: string): UnitKind => (passType === 'stamp_card' ? 'stamp' : 'point');

/** "3 stamps", "1 Punkt", "12,50 €": an amount of a card's units (hundredths); store credit is money. */
export function formatUnits(lang: Lang, card: { passType: string }, hundredths: number, currency: string | null = null): string {
  if (card.passType === 'prepaid_card') return formatMoney(lang, currency, hundredths);
  return t(lang, 'common.units', { kind: unitKind(card.passType), count: hundredths / 100 });
}
