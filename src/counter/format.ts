import type { Card } from '../cards/model';
import type { LedgerRow } from '../loyalty/repo';
import type { Channel } from '../lib/changes';
import type { Customer } from '../customers/model';
import { formatDate, formatMoney, formatNumber } from '../i18n/format';
import { localeOf, type Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import type { OrgSettings } from '../orgs/settings';

// How the counter says amounts and entries, in the shop's language: "4 stamps", "+20 points",
// "Free coffee redeemed". Amounts are hundredths; stamp, point and level cards count whole units,
// store credit is money in the card's currency (its spend currency, else the shop's).

/** The shop's language, time zone and currency: everything the counter's words depend on. */
export interface Voice {
  lang: Lang;
  timeZone: string;
  /** The shop's currency (org setting), for store credit on cards that name none. */
  currency: string | null;
}

export const voiceOf = (settings: Pick<OrgSettings, 'language' | 'timeZone' | 'currency'>): Voice => ({ lang: settings.language, timeZone: settings.timeZone, currency: settings.currency });

/** What a card counts, as the catalogue's selects name it. */
export type UnitKind = 'stamp' | 'point' | 'credit';
export const kindOf = (card: Pick<Card, 'passType'>): UnitKind => (card.passType === 'stamp_card' ? 'stamp' : card.passType === 'prepaid_card' ? 'credit' : 'point');

const currencyOf = (v: Voice, card: Pick<Card, 'accrual'>) => card.accrual?.spend?.currency ?? v.currency;

/** "4", "1,250" or "€12.50" (store credit is money). */
export function amountText(v: Voice, card: Card, hundredths: number): string {
  const units = Math.abs(hundredths);
  return card.passType === 'prepaid_card' ? formatMoney(v.lang, currencyOf(v, card), units) : formatNumber(v.lang, Math.round(units / 100), { decimals: 0 });
}

/** The word for what the card counts after a number (amountText): "stamps", "Punkt", "credit". */
export function unitWord(v: Voice, card: Card, hundredths: number): string {
  return t(v.lang, 'counter.unitWord', { kind: kindOf(card), count: Math.abs(hundredths) / 100 });
}

/** "4 stamps", "120 points", "€12.50 credit". */
export function balanceText(v: Voice, card: Card, hundredths: number): string {
  const kind = kindOf(card);
  const count = Math.abs(hundredths) / 100;
  return t(v.lang, 'counter.units', { kind, count: kind === 'credit' ? count : Math.round(count), amount: kind === 'credit' ? amountText(v, card, hundredths) : '' });
}

/** "+1 stamp", "−20 points" (a true minus sign, so it reads as one). */
export function signedText(v: Voice, card: Card, hundredths: number): string {
  return `${hundredths < 0 ? '−' : '+'}${balanceText(v, card, hundredths)}`;
}

const lists = new Map<Lang, Intl.ListFormat>();
/** "Double Tuesday", "Double Tuesday and Happy week", "A, B and C", as the language lists things. */
export function namesText(v: Pick<Voice, 'lang'>, names: readonly string[]): string {
  let list = lists.get(v.lang);
  if (!list) lists.set(v.lang, (list = new Intl.ListFormat(localeOf(v.lang), { type: 'conjunction' })));
  return list.format(names);
}

/** "+2 stamps (+1 stamp from Double Tuesday)" for an earn promotions added to; `names` maps the card's promotion ids to their names. */
function withPromotionNote(v: Voice, card: Card, entry: string, row: Pick<LedgerRow, 'details'>, names: ReadonlyMap<string, string>): string {
  const applied = row.details && 'promotions' in row.details ? row.details.promotions : undefined;
  if (!applied || applied.extra <= 0) return entry;
  const known = applied.ids.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
  const extra = signedText(v, card, applied.extra);
  if (known.length === applied.ids.length) return t(v.lang, 'counter.entry.promotion', { entry, extra, names: namesText(v, known) });
  return t(v.lang, 'counter.entry.promotionUnnamed', { entry, extra, count: applied.ids.length });
}

/** What a ledger row did, in the staff's words. */
export function entryText(v: Voice, card: Card, row: Pick<LedgerRow, 'kind' | 'change' | 'details'>, promotionNames: ReadonlyMap<string, string> = new Map()): string {
  const details = row.details;
  const change = signedText(v, card, row.change);
  if (row.kind === 'redeem' && details && 'reward' in details) return t(v.lang, 'counter.entry.redeemed', { reward: details.reward.name });
  if (row.kind === 'reversal') return t(v.lang, 'counter.entry.undo', { change });
  if (row.kind === 'initial') return t(v.lang, 'counter.entry.initial', { units: balanceText(v, card, row.change) });
  if (row.kind === 'expiry') return t(v.lang, 'counter.entry.expired', { change });
  if (row.kind === 'birthday') return t(v.lang, 'counter.entry.birthday', { change });
  if (row.kind === 'earn') return withPromotionNote(v, card, details && 'from' in details ? t(v.lang, 'counter.entry.sale', { change }) : change, row, promotionNames);
  return change;
}

/** Who or what made an entry: "counter", "API", "sign-up form". */
export const channelWord = (v: Pick<Voice, 'lang'>, source: Channel) => t(v.lang, 'counter.channel', { channel: source });

const clocks = new Map<string, Intl.DateTimeFormat>();

/** "14:05" today, "3 Jan 14:05" on another day, in the shop's time zone. */
export function whenText(v: Voice, ms: number, now: number): string {
  const key = `${v.lang}|${v.timeZone}`;
  let clock = clocks.get(key);
  if (!clock) clocks.set(key, (clock = new Intl.DateTimeFormat(localeOf(v.lang), { timeZone: v.timeZone, hour: '2-digit', minute: '2-digit' })));
  const date = formatDate(v.lang, v.timeZone, ms, 'dayMonth');
  const sameDay = date === formatDate(v.lang, v.timeZone, now, 'dayMonth') && Math.abs(now - ms) < 86_400_000;
  return sameDay ? clock.format(ms) : t(v.lang, 'counter.history.when', { date, time: clock.format(ms) });
}

export const cardTypeWord = (v: Pick<Voice, 'lang'>, card: Card) => t(v.lang, 'counter.cardType', { type: card.passType });

/** How staff know a customer: the name, else the email or phone, else "Customer without a name" (or `fallback`). */
export const displayName = (v: Pick<Voice, 'lang'>, c: Pick<Customer, 'name' | 'email' | 'phone'>, fallback?: string) => c.name || c.email || c.phone || (fallback ?? t(v.lang, 'counter.noName'));
