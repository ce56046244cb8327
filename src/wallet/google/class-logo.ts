// The Google class's programLogo, which Google fetches from us (cardLogoUrl): the card's uploaded
// logo on its background, or the default mark drawn in the card's colours, like the Apple pass icon.
import { cardsRepo } from '../../cards/repo';
import type { Db } from '../../db/connection';
import { defaultPassImages } from '../apple/default-images';
import { DEFAULT_PASS_COLORS } from '../apple/pass-builder';
import { parseColor } from '../../lib/colors';
import { cardBackground, googleLogoPng, webLogoPng } from '../logo-images';

/** The PNG for the card's class logo, or undefined when there is no such card. */
export function classLogoPng(db: Db, cardId: string): Buffer | undefined {
  const card = cardsRepo(db).findById(cardId);
  if (!card) return undefined;
  const logo = cardsRepo(db).logoOf(card.id);
  if (logo) return googleLogoPng(logo, cardBackground(card));
  const background = parseColor(card.design?.backgroundColor ?? DEFAULT_PASS_COLORS.background).rgb;
  const foreground = parseColor(card.design?.foregroundColor ?? DEFAULT_PASS_COLORS.foreground).rgb;
  return defaultPassImages({ background, foreground }).icon['icon@3x.png'];
}

/** The uploaded logo in its own proportions, for the web pass; undefined without one. */
export function passLogoPng(db: Db, cardId: string): Buffer | undefined {
  const logo = cardsRepo(db).logoOf(cardId);
  return logo && webLogoPng(logo);
}
