import { cardsRepo } from '../cards/repo';
import type { Db } from '../db/connection';
import { readOrgSettings } from '../orgs/settings';
import { parseColor, type Rgb } from '../lib/colors';
import { contrastRatio } from '../lib/contrast';

// The org's colour on every merchant page (decisions §8): the brand colour of its settings, or else
// the background colour of its first card. Text on it is black or white, whichever reads better.

const FALLBACK: Rgb = [31, 78, 140];

const NEAR_BLACK: Rgb = [17, 17, 17];

/** White or near-black text on `rgb`, whichever contrasts more. */
export function readableOn(rgb: Rgb): '#ffffff' | '#111111' {
  return contrastRatio(rgb, [255, 255, 255]) >= contrastRatio(rgb, NEAR_BLACK) ? '#ffffff' : '#111111';
}

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

/** CSS custom properties for a page in this colour; generated here, so safe to send under the nonce. */
export function themeCss(rgb: Rgb): string {
  const [r, g, b] = rgb;
  return `:root{--accent:rgb(${r},${g},${b});--accent-fg:${readableOn(rgb)};--focus:0 0 0 3px rgba(${r},${g},${b},.35)}`;
}
