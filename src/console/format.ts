import type { Card, PassType } from '../cards/model';
import type { Channel } from '../lib/changes';

// How the console writes numbers, amounts and times for a shop owner: amounts in the card's own
// units (stamps, points, store credit in money), times on the shop's clock (the org's time zone).

// Made at first use, like every format here: the first Intl call costs the server's start ~20 ms.
let numberFormat: Intl.NumberFormat | undefined;
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string, kind: 'date' | 'time' | 'day'): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = timeFormats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'time'
        ? { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : kind === 'date'
          ? { timeZone, day: 'numeric', month: 'short', year: 'numeric' }
          : { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' };
    f = new Intl.DateTimeFormat('en-GB', options);
    timeFormats.set(key, f);
  }
  return f;
}

/** "14 May 2026, 09:30" on the shop's clock. */
export const formatTime = (ms: number, timeZone: string) => dateTimeFormat(timeZone, 'time').format(ms);

/** "14 May 2026" on the shop's clock. */
export const formatDate = (ms: number, timeZone: string) => dateTimeFormat(timeZone, 'date').format(ms);

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

/** A local calendar date (`2026-05-14`, lib/days) as "Thu 14 May". */
export function formatDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return dateTimeFormat('UTC', 'day').format(Date.UTC(y, m - 1, d));
}

export const formatNumber = (n: number) => (numberFormat ??= new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 })).format(n);

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

/** Store credit in hundredths as money: "€12.50", or "12.50" when no currency is known. */
export function formatMoney(hundredths: number, currency: string | null): string {
  const key = currency ?? '';
  let f = moneyFormats.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-GB', currency ? { style: 'currency', currency } : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      // An ISO code Intl does not know still reads as "12.50 XYZ".
      f = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(key, f);
  }
  const text = f.format(hundredths / 100);
  return currency && f.resolvedOptions().style !== 'currency' ? `${text} ${currency}` : text;
}

/** An amount of a card's units (hundredths) as the owner reads it: "7 stamps", "1 point", "€12.50". */
export function formatAmount(card: Pick<Card, 'passType' | 'accrual'>, hundredths: number): string {
  const unit = unitOf(card.passType);
  if (unit === 'credit') return formatMoney(hundredths, currencyOf(card));
  const n = hundredths / 100;
  const word = unit === 'stamps' ? (n === 1 ? 'stamp' : 'stamps') : n === 1 ? 'point' : 'points';
  return `${formatNumber(n)} ${word}`;
}

/** A signed change: "+3 stamps", "−€5.00". */
export function formatChange(card: Pick<Card, 'passType' | 'accrual'>, hundredths: number): string {
  const text = formatAmount(card, Math.abs(hundredths));
  return hundredths > 0 ? `+${text}` : hundredths < 0 ? `−${text}` : text;
}

export const CHANNELS: readonly Channel[] = ['api', 'scan', 'signup', 'console', 'import'];

const CHANNEL_LABELS: Record<Channel, string> = { api: 'API', scan: 'Counter', signup: 'Sign-up form', console: 'Console', import: 'Imported', expiry: 'Expiry', birthday: 'Birthday' };

/** The channel as the owner knows it: the counter, not "scan". */
export const channelLabel = (channel: Channel) => CHANNEL_LABELS[channel];

const PASS_TYPE_LABELS: Record<PassType, string> = { stamp_card: 'Stamp card', point_card: 'Point card', level_card: 'Level card', prepaid_card: 'Gift card (store credit)' };

export const passTypeLabel = (passType: PassType) => PASS_TYPE_LABELS[passType];

/** How the console names a customer: the name, else what else tells them apart. */
export const customerLabel = (c: { name: string | null; externalId: string | null; email: string | null; phone: string | null }) =>
  c.name ?? c.externalId ?? c.email ?? c.phone ?? 'Customer without a name';
