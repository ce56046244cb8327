// The card's uploaded logo in the sizes each wallet draws, made from the one stored PNG
// (cards/logo.ts) and kept: scaling costs milliseconds and every pass download needs them.
//   Apple: logo.png within the 160 × 50 pt logo box (@2x, @3x: 320 × 100, 480 × 150 px); icon.png
//   (29 pt: 29, 58, 87 px) from the logo on the card's background when the logo is about square —
//   a wide word mark would be unreadable at 29 pt, so those keep the drawn icon.
//   Google: the class's programLogo, which Google crops to a circle: the logo within the middle of
//   a square in the card's background.
import { createHash } from 'node:crypto';
import type { Card, CardLogo, CardLogoMeta } from '../cards/model';
import { parseColor, type Rgb } from '../lib/colors';
import { decodeImage, encodePngImage, onPlate, scaleToFit, type RgbaImage } from '../lib/image';
import { DEFAULT_PASS_COLORS } from './apple/pass-builder';

export interface AppleLogoImages {
  logo: Readonly<Record<string, Buffer>>;
  /** Only for a logo about as wide as high. */
  icon?: Readonly<Record<string, Buffer>>;
}

const APPLE_LOGO_BOX = { width: 160, height: 50 };
const APPLE_ICON_POINTS = 29;
/** Widest (or tallest) logo that still makes an icon: 3 : 2. */
const ICON_MAX_RATIO = 1.5;
const GOOGLE_LOGO_MAX = 660;

const CACHE_SIZE = 64;
const cache = new Map<string, unknown>();

export function cached<T>(key: string, make: () => T): T {
  if (cache.has(key)) {
    const hit = cache.get(key) as T;
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = make();
  cache.set(key, made);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return made;
}

const pixelsOf = (logo: CardLogo): RgbaImage => decodeImage(logo.png, 'png');

/** The card's background as RGB (the pass default when it has none). */
export function cardBackground(card: Card): Rgb {
  return parseColor(card.design?.backgroundColor ?? DEFAULT_PASS_COLORS.background).rgb;
}

export function appleLogoImages(logo: CardLogo, background: Rgb): AppleLogoImages {
  return cached(`apple/${logo.sha256}/${background.join(',')}`, () => {
    const pixels = pixelsOf(logo);
    const scales = [['', 1], ['@2x', 2], ['@3x', 3]] as const;
    const images: AppleLogoImages = {
      logo: Object.freeze(Object.fromEntries(scales.map(([suffix, s]) => [`logo${suffix}.png`, encodePngImage(scaleToFit(pixels, APPLE_LOGO_BOX.width * s, APPLE_LOGO_BOX.height * s))]))),
    };
    if (Math.max(logo.width / logo.height, logo.height / logo.width) <= ICON_MAX_RATIO) {
      images.icon = Object.freeze(Object.fromEntries(scales.map(([suffix, s]) => [`icon${suffix}.png`, encodePngImage(onPlate(pixels, APPLE_ICON_POINTS * s, background, 0.86))])));
    }
    return images;
  });
}

/** Google's programLogo: a square of up to 660 px, the logo filling the middle 70 %. */
export function googleLogoPng(logo: CardLogo, background: Rgb): Buffer {
  return cached(`google/${logo.sha256}/${background.join(',')}`, () => {
    const side = Math.min(GOOGLE_LOGO_MAX, Math.max(128, Math.round(Math.max(logo.width, logo.height) / 0.7)));
    return encodePngImage(onPlate(pixelsOf(logo), side, background, 0.7));
  });
}

/** The logo as uploaded, no larger than the web pass shows it twice over (for sharp screens). */
export function webLogoPng(logo: CardLogo): Buffer {
  return cached(`web/${logo.sha256}`, () => encodePngImage(scaleToFit(pixelsOf(logo), 480, 150)));
}

/**
 * A version for the logo URLs: Google fetches a class logo once and keeps it, so a changed logo
 * (or, for the drawn one, changed colours) must have a new address.
 */
export function logoVersion(card: Card, logo: Pick<CardLogoMeta, 'sha256'> | undefined): string {
  const source = logo ? `upload:${logo.sha256}` : `drawn:${card.design?.backgroundColor ?? ''}/${card.design?.foregroundColor ?? ''}`;
  return createHash('sha256').update(source).digest('hex').slice(0, 12);
}

/** Where a page finds the card's uploaded logo (the web pass, sign-up pages, poster; same origin; versioned, so a new logo shows at once). */
export function passLogoUrl(card: Card, logo: CardLogoMeta | undefined): string | undefined {
  return logo && `/wallet/cards/${encodeURIComponent(card.id)}/pass-logo.png?v=${logoVersion(card, logo)}`;
}
