// What a customer's pass shows, decided once for the Apple pass, the Google object and the web
// pass, so the three can never disagree about a balance or a level. Labels and texts come from the
// catalogues in the customer's language; numbers and money are written as that language does.
import { takesRewards, type Card } from '../cards/model';
import { nextReward } from '../cards/rewards';
import type { Customer } from '../customers/model';
import { levelFor } from '../loyalty/balance';
import { expiringText, type Expiring } from '../loyalty/expiring';
import { formatMoney, formatNumber } from '../i18n/format';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { fromHundredths } from '../lib/money';
import type { LoyaltyBalance } from './google/objects';
import { passDisplayName } from './test-mode';

export interface PassDetail {
  key: string;
  label: string;
  value: string;
  /** Lock-screen notice on Apple when this value changes (contains %@). */
  changeMessage?: string;
}

/** The language a pass is written in, and the currency its store credit is money of (null: none named). */
export interface PassLocale {
  lang: Lang;
  currency: string | null;
}

export interface PassContent {
  /** The language of the labels and texts. */
  lang: Lang;
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
  /**
   * Level and reward progress, the next reward, what expires: most important first. The Apple
   * storeCard's front holds four; the Apple pass puts any further ones on its back.
   */
  details: PassDetail[];
  scanCode: string;
  holderName: string | null;
  /** The card's logo text, when it has one (Apple shows it beside the logo). */
  logoText: string | null;
  /** The customer's personal data was erased: the pass is void (Apple) or inactive (Google). */
  voided: boolean;
  /** A stamp card with a reward: its stamps as marks on a paper card, `have` of `of` filled. */
  stamps: { have: number; of: number } | null;
}

/** More marks than this do not fit a row on a phone: such a card shows its number alone. */
export const MAX_STAMP_MARKS = 30;

/** Who holds a pass, as far as the pass shows: a customer, or the console preview's sample. */
export type PassHolder = Pick<Customer, 'balance' | 'livemode' | 'scanCode' | 'name'> &
  Partial<Pick<Customer, 'erasedAt'>> & {
    /** Units the customer was reminded will expire (wallet/customer-content.ts), in the shop's time zone. */
    expiring?: (Expiring & { timeZone: string }) | null;
  };

export function passContent(card: Card, holder: PassHolder, organizationName: string, locale: PassLocale): PassContent {
  const testMode = !holder.livemode;
  const units = fromHundredths(holder.balance);
  const { lang } = locale;
  return {
    lang,
    title: passDisplayName(card.name, testMode),
    cardName: card.name,
    organizationName,
    testMode,
    balance: balanceOf(card, holder.balance, units, locale),
    details: [...detailsOf(card, holder.balance, lang), ...nextRewardDetail(card, holder.balance, lang), ...expiringDetail(card, holder, lang)],
    scanCode: holder.scanCode,
    holderName: holder.name,
    logoText: card.design?.logoText || null,
    voided: holder.erasedAt != null,
    stamps: stampsOf(card, holder.balance),
  };
}

function stampsOf(card: Card, balance: number): PassContent['stamps'] {
  if (card.passType !== 'stamp_card' || !card.reward) return null;
  const of = Math.floor(card.reward.cost / 100);
  if (of < 1 || of > MAX_STAMP_MARKS) return null;
  // Past the reward the row is simply full; the number above says how many there are.
  return { have: Math.min(of, Math.floor(balance / 100)), of };
}

function balanceOf(card: Card, hundredths: number, units: number, { lang, currency }: PassLocale): PassContent['balance'] {
  switch (card.passType) {
    case 'stamp_card':
      return { label: t(lang, 'pass.balance.stamps'), text: formatNumber(lang, units), appleValue: units, changeMessage: t(lang, 'pass.balance.stamps.changed'), google: { int: units } };
    case 'prepaid_card': {
      // Store credit keeps its cents on every surface: "12.50" (or "€12.50"), never 12.5.
      const text = formatMoney(lang, currency, hundredths);
      return { label: t(lang, 'pass.balance.credit'), text, appleValue: text, changeMessage: t(lang, 'pass.balance.credit.changed'), google: { string: text } };
    }
    default:
      return { label: t(lang, 'pass.balance.points'), text: formatNumber(lang, units), appleValue: units, changeMessage: t(lang, 'pass.balance.points.changed'), google: { int: units } };
  }
}

function detailsOf(card: Card, balance: number, lang: Lang): PassDetail[] {
  const details: PassDetail[] = [];
  if (card.passType === 'level_card') {
    const level = levelFor(card, balance);
    if (level) details.push({ key: 'level', label: t(lang, 'pass.level'), value: level.name, changeMessage: t(lang, 'pass.level.changed') });
    const next = card.levels?.find((l) => l.minPoints > balance);
    if (next) details.push({ key: 'nextLevel', label: t(lang, 'pass.nextLevel', { level: next.name }), value: t(lang, 'pass.nextLevel.value', { points: fromHundredths(next.minPoints - balance) }) });
  }
  if (card.reward && (card.passType === 'stamp_card' || card.passType === 'point_card')) {
    const { name, cost } = card.reward;
    const value = balance >= cost ? t(lang, 'pass.reward.ready') : t(lang, 'pass.reward.progress', { have: fromHundredths(balance), cost: fromHundredths(cost) });
    // Wallet reads changeMessage as a format string: a % of the merchant's text must be %%.
    details.push({ key: 'reward', label: name, value, changeMessage: `${name.replace(/%/g, '%%')}: %@` });
  }
  return details;
}

/**
 * "3 stamps to Cake": the cheapest reward the balance cannot pay yet (whatever the list order) and
 * what is missing, when it is another than the default reward, whose line ("Free coffee: 7 of 10")
 * already says how far that one is. So a card of one reward keeps its pass as it was, and the
 * line is gone once every reward is affordable.
 */
function nextRewardDetail(card: Card, balance: number, lang: Lang): PassDetail[] {
  if (!takesRewards(card.passType)) return [];
  const next = nextReward(card, balance);
  if (!next || next.reward.id === card.reward?.id) return [];
  const value = t(lang, 'pass.nextReward.value', { kind: card.passType === 'stamp_card' ? 'stamp' : 'point', count: fromHundredths(next.remaining), reward: next.reward.name });
  return [{ key: 'nextReward', label: t(lang, 'pass.nextReward'), value }];
}

/** "12 points expire on 31 Jan", once the customer was reminded; a new line notifies on Apple's lock screen. */
function expiringDetail(card: Card, holder: PassHolder, lang: Lang): PassDetail[] {
  if (!holder.expiring) return [];
  return [{ key: 'expiring', label: t(lang, 'pass.expiring'), value: expiringText(lang, card, holder.expiring, holder.expiring.timeZone, 'dayMonth'), changeMessage: '%@' }];
}
