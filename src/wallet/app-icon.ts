// The web pass's icon for "Add to Home Screen" (the web app manifest, apple-touch-icon): the card's
// logo on a square of its background, or the drawn mark in the card's colours, as the wallets'
// icons are. Square sizes the platforms ask for; each drawn once per card version and kept.
import { createHash } from 'node:crypto';
import type { Card, CardLogoMeta } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Db } from '../db/connection';
import { parseColor } from '../lib/colors';
import { decodeImage, encodePngImage, onPlate } from '../lib/image';
import { drawnIcon } from './apple/default-images';
import { DEFAULT_PASS_COLORS } from './apple/pass-builder';
import { cached, cardBackground, logoVersion } from './logo-images';

/** 180: iOS's apple-touch-icon; 192 and 512: what Chrome wants in a manifest. */
export const APP_ICON_SIZES = [180, 192, 512] as const;
export type AppIconSize = (typeof APP_ICON_SIZES)[number];

export function appIconPng(db: Db, cardId: string, size: AppIconSize): Buffer | undefined {
  const repo = cardsRepo(db);
  const card = repo.findById(cardId);
  if (!card) return undefined;
  // Keyed by the logo's digest: the image itself is read only when the icon is drawn.
  const key = `app-icon/${card.id}/${size}/${logoVersion(card, repo.logoMeta(card.id))}/${card.design?.backgroundColor ?? ''}`;
  return cached(key, () => {
    const logo = repo.logoOf(card.id);
    return logo
      ? encodePngImage(onPlate(decodeImage(logo.png, 'png'), size, cardBackground(card), 0.7))
      : drawnIcon(size, {
          background: parseColor(card.design?.backgroundColor ?? DEFAULT_PASS_COLORS.background).rgb,
          foreground: parseColor(card.design?.foregroundColor ?? DEFAULT_PASS_COLORS.foreground).rgb,
        });
  });
}

/** The icon's address, versioned by what it is drawn from, so a new logo or colour shows at once. */
export function appIconUrl(card: Card, logo: Pick<CardLogoMeta, 'sha256'> | undefined, size: AppIconSize): string {
  const version = createHash('sha256').update(`${logoVersion(card, logo)}/${card.design?.backgroundColor ?? ''}`).digest('hex').slice(0, 12);
  return `/wallet/cards/${encodeURIComponent(card.id)}/app-icon-${size}.png?v=${version}`;
}
