// What a customer's pass shows, decided once for the Apple pass, the Google object and the web
// pass, so the three can never disagree about a balance or a level.
import type { Card } from '../cards/model';
import type { Customer } from '../customers/model';
import { levelFor } from '../loyalty/balance';
import { expiringText, type Expiring } from '../loyalty/expiring';
import { fromHundredths } from '../lib/money';
import { relevantTextOf, type ShopLocation } from '../orgs/locations';
import type { LoyaltyBalance } from './google/objects';
import { passDisplayName } from './test-mode';

export interface PassDetail {
  key: string;
  label: string;
  value: string;
  /** Lock-screen notice on Apple when this value changes (contains %@). */
  changeMessage?: string;
}

export interface PassContent {
  /** The card name as the holder sees it (TEST · prefix in test mode). */
  title: string;
  cardName: string;
  organizationName: string;
  testMode: boolean;
  balance: {
    label: string;
    /** As shown on the web pass, e.g. "7" or "12.50". */
    text: string;
    /** pass.json primary field value: numbers for counters, a fixed 2-decimal string for credit. */
    appleValue: number | string;
    changeMessage: string;
    google: LoyaltyBalance;
  };
  /** Level and reward progress; at most four (the storeCard front holds four). */
  details: PassDetail[];
  scanCode: string;
  holderName: string | null;
  /** The card's logo text, when it has one (Apple shows it beside the logo). */
  logoText: string | null;
  /** The customer's personal data was erased: the pass is void (Apple) or inactive (Google). */
  voided: boolean;
  /** A stamp card with a reward: its stamps as marks on a paper card, `have` of `of` filled. */
  stamps: { have: number; of: number } | null;
  /** The latest message the shop sent to this pass (Apple's back field, the top of the web pass). */
  message: PassMessage | null;
  /** The shop's locations: Apple's lock screen near them, Google's pass, the web pass's map links. */
  locations: PassLocation[];
}

export interface PassMessage {
  id: string;
  header: string;
  body: string;
}

export interface PassLocation {
  name: string;
  latitude: number;
  longitude: number;
  /** What Apple's lock screen says near it. */
  relevantText: string;
}

/** More marks than this do not fit a row on a phone: such a card shows its number alone. */
export const MAX_STAMP_MARKS = 30;

/** Who holds a pass, as far as the pass shows: a customer, or the console preview's sample. */
export type PassHolder = Pick<Customer, 'balance' | 'livemode' | 'scanCode' | 'name'> &
  Partial<Pick<Customer, 'erasedAt'>> & {
    /** Units the customer was reminded will expire (wallet/customer-content.ts), in the shop's time zone. */
    expiring?: (Expiring & { timeZone: string }) | null;
    /** The latest message sent to the pass (wallet/pass-messages.ts). */
    message?: PassMessage | null;
  };

/** What the shop's settings put on every pass. */
export interface PassShop {
  locations?: readonly ShopLocation[];
}

export function passContent(card: Card, holder: PassHolder, organizationName: string, shop: PassShop = {}): PassContent {
  const testMode = !holder.livemode;
  const units = fromHundredths(holder.balance);
  return {
    title: passDisplayName(card.name, testMode),
    cardName: card.name,
    organizationName,
    testMode,
    balance: balanceOf(card, holder.balance, units),
    details: [...detailsOf(card, holder.balance), ...expiringDetail(card, holder)],
    scanCode: holder.scanCode,
    holderName: holder.name,
    logoText: card.design?.logoText || null,
    voided: holder.erasedAt != null,
    stamps: stampsOf(card, holder.balance),
    ...messageAndLocations(holder, shop),
  };
}

/** The shop's words to this pass and where the shop is; an erased customer's void pass shows neither. */
function messageAndLocations(holder: PassHolder, shop: PassShop): Pick<PassContent, 'message' | 'locations'> {
  if (holder.erasedAt != null) return { message: null, locations: [] };
  return {
    message: holder.message ?? null,
    locations: (shop.locations ?? []).map((l) => ({ name: l.name, latitude: l.latitude, longitude: l.longitude, relevantText: relevantTextOf(l) })),
  };
}

function stampsOf(card: Card, balance: number): PassContent['stamps'] {
  if (card.passType !== 'stamp_card' || !card.reward) return null;
  const of = Math.floor(card.reward.cost / 100);
  if (of < 1 || of > MAX_STAMP_MARKS) return null;
  // Past the reward the row is simply full; the number above says how many there are.
  return { have: Math.min(of, Math.floor(balance / 100)), of };
}

function balanceOf(card: Card, hundredths: number, units: number): PassContent['balance'] {
  switch (card.passType) {
    case 'stamp_card':
      return { label: 'Stamps', text: String(units), appleValue: units, changeMessage: 'You now have %@ stamps.', google: { int: units } };
    case 'prepaid_card': {
      // Store credit keeps its cents on every surface: "12.50", never 12.5.
      const text = (hundredths / 100).toFixed(2);
      return { label: 'Credit', text, appleValue: text, changeMessage: 'Your credit is now %@.', google: { string: text } };
    }
    default:
      return { label: 'Points', text: String(units), appleValue: units, changeMessage: 'You now have %@ points.', google: { int: units } };
  }
}

function detailsOf(card: Card, balance: number): PassDetail[] {
  const details: PassDetail[] = [];
  if (card.passType === 'level_card') {
    const level = levelFor(card, balance);
    if (level) details.push({ key: 'level', label: 'Level', value: level.name, changeMessage: 'Your level is now %@.' });
    const next = card.levels?.find((l) => l.minPoints > balance);
    if (next) details.push({ key: 'nextLevel', label: `Next: ${next.name}`, value: `${fromHundredths(next.minPoints - balance)} to go` });
  }
  if (card.reward && (card.passType === 'stamp_card' || card.passType === 'point_card')) {
    const { name, cost } = card.reward;
    const value = balance >= cost ? 'Ready to redeem' : `${fromHundredths(balance)} of ${fromHundredths(cost)}`;
    // Wallet reads changeMessage as a format string: a % of the merchant's text must be %%.
    details.push({ key: 'reward', label: name, value, changeMessage: `${name.replace(/%/g, '%%')}: %@` });
  }
  return details;
}

/** "12 points expire on 31 Jan", once the customer was reminded; a new line notifies on Apple's lock screen. */
function expiringDetail(card: Card, holder: PassHolder): PassDetail[] {
  if (!holder.expiring) return [];
  return [{ key: 'expiring', label: 'Expiring', value: expiringText(card, holder.expiring, holder.expiring.timeZone), changeMessage: '%@' }];
}
