import type { Card } from '../cards/model';
import type { LedgerRow } from '../loyalty/repo';
import type { Channel } from '../lib/changes';
import type { Customer } from '../customers/model';

// How the counter says amounts and entries: "4 stamps", "+20 points", "Free coffee redeemed".
// Amounts are hundredths; stamp, point and level cards count whole units, store credit cents.

/** "4" or "12.50" (store credit keeps its cents). */
export function amountText(card: Card, hundredths: number): string {
  const units = Math.abs(hundredths) / 100;
  return card.passType === 'prepaid_card' ? units.toFixed(2) : String(Math.round(units));
}

/** The word for what the card counts, singular for exactly one. */
export function unitWord(card: Card, hundredths: number): string {
  const one = Math.abs(hundredths) === 100;
  switch (card.passType) {
    case 'stamp_card':
      return one ? 'stamp' : 'stamps';
    case 'prepaid_card':
      return 'credit';
    default:
      return one ? 'point' : 'points';
  }
}

/** "4 stamps", "120 points", "12.50 credit". */
export function balanceText(card: Card, hundredths: number): string {
  return `${amountText(card, hundredths)} ${unitWord(card, hundredths)}`;
}

/** "+1 stamp", "−20 points" (a true minus sign, so it reads as one). */
export function signedText(card: Card, hundredths: number): string {
  return `${hundredths < 0 ? '−' : '+'}${balanceText(card, hundredths)}`;
}

/** "Double Tuesday", "Double Tuesday and Happy week", "A, B and C". */
export function namesText(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** " (+2 from Double Tuesday)" after an earn promotions added to; `names` maps the card's promotion ids to their names. */
function promotionNote(card: Card, row: Pick<LedgerRow, 'details'>, names: ReadonlyMap<string, string>): string {
  const applied = row.details && 'promotions' in row.details ? row.details.promotions : undefined;
  if (!applied || applied.extra <= 0) return '';
  const known = applied.ids.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
  const from = known.length === applied.ids.length ? namesText(known) : applied.ids.length === 1 ? 'a promotion' : 'promotions';
  return ` (${signedText(card, applied.extra)} from ${from})`;
}

/** What a ledger row did, in the staff's words. */
export function entryText(card: Card, row: Pick<LedgerRow, 'kind' | 'change' | 'details'>, promotionNames: ReadonlyMap<string, string> = new Map()): string {
  const details = row.details;
  if (row.kind === 'redeem' && details && 'reward' in details) return `${details.reward.name} redeemed`;
  if (row.kind === 'reversal') return `Undo (${signedText(card, row.change)})`;
  if (row.kind === 'initial') return `Opening balance ${balanceText(card, row.change)}`;
  if (row.kind === 'expiry') return `Expired (${signedText(card, row.change)})`;
  if (row.kind === 'birthday') return `Birthday ${signedText(card, row.change)}`;
  if (row.kind === 'earn') return `${signedText(card, row.change)}${details && 'from' in details ? ' · sale' : ''}${promotionNote(card, row, promotionNames)}`;
  return signedText(card, row.change);
}

const CHANNEL_WORDS: Record<Channel, string> = { api: 'API', scan: 'counter', signup: 'sign-up form', console: 'console', import: 'import', expiry: 'expiry', birthday: 'birthday' };
export const channelWord = (source: Channel) => CHANNEL_WORDS[source];

const clockFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "14:05" today, "3 Jan 14:05" on another day, in the shop's time zone. */
export function whenText(ms: number, now: number, timeZone: string): string {
  let clock = clockFormats.get(timeZone);
  if (!clock) clockFormats.set(timeZone, (clock = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' })));
  let date = dateFormats.get(timeZone);
  if (!date) dateFormats.set(timeZone, (date = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short' })));
  const sameDay = date.format(ms) === date.format(now) && Math.abs(now - ms) < 86_400_000;
  return sameDay ? clock.format(ms) : `${date.format(ms)} ${clock.format(ms)}`;
}

const TYPE_WORDS: Record<Card['passType'], string> = { stamp_card: 'stamp card', point_card: 'points card', level_card: 'membership levels', prepaid_card: 'store credit' };
export const cardTypeWord = (card: Card) => TYPE_WORDS[card.passType];

/** How staff know a customer: the name, else the email or phone, else `fallback`. */
export const displayName = (c: Pick<Customer, 'name' | 'email' | 'phone'>, fallback = 'Customer without a name') => c.name || c.email || c.phone || fallback;
