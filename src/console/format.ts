import type { Card, PassType } from '../cards/model';
import { formatNumber as formatLangNumber } from '../i18n/format';
import { localeOf, type ConsoleLang } from '../i18n/langs';
import { tConsole, type ConsoleKey } from '../i18n/translate';
import type { Channel } from '../lib/changes';

// How the console writes numbers, amounts and times for a shop owner, in the admin's language
// (English is written as in Britain, German as in Germany): amounts in the card's own units
// (stamps, points, store credit in money), times on the shop's clock (the org's time zone).
// Every function takes the language last, English when not given.

// Made at first use, like every format here: the first Intl call costs the server's start ~20 ms.
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string, kind: 'date' | 'time' | 'day', lang: ConsoleLang): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone} ${lang}`;
  let f = timeFormats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'time'
        ? { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : kind === 'date'
          ? { timeZone, day: 'numeric', month: 'short', year: 'numeric' }
          : { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' };
    f = new Intl.DateTimeFormat(localeOf(lang), options);
    timeFormats.set(key, f);
  }
  return f;
}

/** "14 May 2026, 09:30" ("14. Mai 2026, 09:30") on the shop's clock. */
export const formatTime = (ms: number, timeZone: string, lang: ConsoleLang = 'en') => dateTimeFormat(timeZone, 'time', lang).format(ms);

/** "14 May 2026" ("14. Mai 2026") on the shop's clock. */
export const formatDate = (ms: number, timeZone: string, lang: ConsoleLang = 'en') => dateTimeFormat(timeZone, 'date', lang).format(ms);

/** "2026-05-14 09:30" on the shop's clock: for exports, which spreadsheets sort as text. */
export function formatSortableTime(ms: number, timeZone: string): string {
  const key = `sortable ${timeZone}`;
  let f = timeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    timeFormats.set(key, f);
  }
  return f.format(ms);
}

/** A local calendar date (`2026-05-14`, lib/days) as "Thu 14 May" ("Do., 14. Mai"). */
export function formatDay(date: string, lang: ConsoleLang = 'en'): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return dateTimeFormat('UTC', 'day', lang).format(Date.UTC(y, m - 1, d));
}

/** "1,234.5" ("1.234,5"): at most two decimals. */
export const formatNumber = (n: number, lang: ConsoleLang = 'en') => formatLangNumber(lang, n);

/** The unit a card counts in: stamp cards stamps, point and level cards points, prepaid cards money. */
export type Unit = 'stamps' | 'points' | 'credit';

export function unitOf(passType: PassType): Unit {
  return passType === 'stamp_card' ? 'stamps' : passType === 'prepaid_card' ? 'credit' : 'points';
}

/** The currency of a prepaid card's money (its spend rule's), when it names one. */
export function currencyOf(card: Pick<Card, 'accrual'>): string | null {
  return card.accrual?.spend?.currency ?? null;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Store credit in hundredths as money: "€12.50" ("12,50 €"), or "12.50" when no currency is known. */
export function formatMoney(hundredths: number, currency: string | null, lang: ConsoleLang = 'en'): string {
  const key = `${currency ?? ''} ${lang}`;
  let f = moneyFormats.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(localeOf(lang), currency ? { style: 'currency', currency } : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      // An ISO code Intl does not know still reads as "12.50 XYZ".
      f = new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(key, f);
  }
  const text = f.format(hundredths / 100);
  return currency && f.resolvedOptions().style !== 'currency' ? `${text} ${currency}` : text;
}

/** An amount of a card's units (hundredths) as the owner reads it: "7 stamps", "1 point", "€12.50" ("7 Stempel", "12,50 €"). */
export function formatAmount(card: Pick<Card, 'passType' | 'accrual'>, hundredths: number, lang: ConsoleLang = 'en'): string {
  const unit = unitOf(card.passType);
  if (unit === 'credit') return formatMoney(hundredths, currencyOf(card), lang);
  return tConsole(lang, 'console.format.units', { unit, count: hundredths / 100 });
}

/** A signed change: "+3 stamps", "−€5.00". */
export function formatChange(card: Pick<Card, 'passType' | 'accrual'>, hundredths: number, lang: ConsoleLang = 'en'): string {
  const text = formatAmount(card, Math.abs(hundredths), lang);
  return hundredths > 0 ? `+${text}` : hundredths < 0 ? `−${text}` : text;
}

export const CHANNELS: readonly Channel[] = ['api', 'scan', 'signup', 'console', 'import'];

const CHANNEL_LABELS: Record<Channel, ConsoleKey> = {
  api: 'console.channel.api',
  scan: 'console.channel.scan',
  signup: 'console.channel.signup',
  console: 'console.channel.console',
  import: 'console.channel.import',
  expiry: 'console.channel.expiry',
  birthday: 'console.channel.birthday',
};

/** The channel as the owner knows it: the counter, not "scan". */
export const channelLabel = (channel: Channel, lang: ConsoleLang = 'en') => tConsole(lang, CHANNEL_LABELS[channel]);

const PASS_TYPE_LABELS: Record<PassType, ConsoleKey> = {
  stamp_card: 'console.passType.stamp_card',
  point_card: 'console.passType.point_card',
  level_card: 'console.passType.level_card',
  prepaid_card: 'console.passType.prepaid_card',
};

export const passTypeLabel = (passType: PassType, lang: ConsoleLang = 'en') => tConsole(lang, PASS_TYPE_LABELS[passType]);

/** How the console names a customer: the name, else what else tells them apart. */
export const customerLabel = (c: { name: string | null; externalId: string | null; email: string | null; phone: string | null }, lang: ConsoleLang = 'en') =>
  c.name ?? c.externalId ?? c.email ?? c.phone ?? tConsole(lang, 'console.format.noName');
