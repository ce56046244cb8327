import type { Db } from '../db/connection';
import { parseColor, readColor, type Rgb } from '../lib/colors';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { fromHundredths } from '../lib/money';
import { readOrgSettings } from '../orgs/settings';
import { readableOn, themeCss } from '../web/theme';
import type { Card } from './model';
import { cardsRepo } from './repo';

// What the pages and emails show of a card: its own colours, so the sign-up page a customer scans
// into, the counter poster and the card email look like the card they get (a card without a design
// wears the org's colour), and the reward that makes joining worth a minute. Read here, from the
// card and the org's settings; web/theme.ts only turns colours into CSS.

const FALLBACK: Rgb = [31, 78, 140];

/**
 * The org's colour on every merchant page: the brand colour of its settings, or else the background
 * colour of its first card.
 */
export function orgAccent(db: Db, orgId: string): Rgb {
  const brand = readOrgSettings(db, orgId).brandColor;
  const first = cardsRepo(db).listForOrg(orgId).find((c) => c.design?.backgroundColor)?.design?.backgroundColor;
  for (const candidate of [brand, first]) {
    if (!candidate) continue;
    try {
      return parseColor(candidate).rgb;
    } catch {
      // A colour the card schema let through but the parser refuses: use the next one.
    }
  }
  return FALLBACK;
}

export interface CardColors {
  /** The card's background colour (or the org's). */
  background: Rgb;
  /** Its text colour: the card's foreground colour, or black or white, whichever reads better. */
  text: string;
  /** Buttons and focus rings on a white page: the background when it stands out from white, else the org's colour. */
  accent: Rgb;
}

const css = ([r, g, b]: Rgb) => `rgb(${r},${g},${b})`;

export function cardColors(db: Db, card: Card): CardColors {
  const org = orgAccent(db, card.orgId);
  const background = (card.design?.backgroundColor && readColor(card.design.backgroundColor)?.rgb) || org;
  const foreground = card.design?.foregroundColor ? readColor(card.design.foregroundColor) : null;
  // readableOn picks white text for colours at least ~4.5:1 against white: those work as a button on white.
  const standsOut = (rgb: Rgb) => readableOn(rgb) === '#ffffff';
  return {
    background,
    text: foreground ? css(foreground.rgb) : readableOn(background),
    accent: standsOut(background) ? background : standsOut(org) ? org : FALLBACK,
  };
}

/** The card's face as custom properties (--card-bg, --card-fg), for a rule of the caller's choosing. */
export function cardFaceVars(colors: CardColors): string {
  return `--card-bg:${css(colors.background)};--card-fg:${colors.text}`;
}

/** A whole page in the card's colours; generated here from parsed colours, safe to send under the nonce. */
export function cardColorsCss(colors: CardColors): string {
  return `${themeCss(colors.accent)}:root{${cardFaceVars(colors)}}`;
}

/**
 * "Free coffee after 10 stamps": the card's reward, for stamp and point cards that have one, in
 * `lang` (English until a page passes its own language).
 */
export function rewardLine(card: Card, lang: Lang = 'en'): string | null {
  if (!card.reward) return null;
  const cost = fromHundredths(card.reward.cost);
  if (card.passType === 'stamp_card') return t(lang, 'common.reward.stamps', { reward: card.reward.name, cost });
  if (card.passType === 'point_card') return t(lang, 'common.reward.points', { reward: card.reward.name, cost });
  return null;
}
