import { cardsRepo } from '../cards/repo';
import type { Db } from '../db/connection';
import { readOrgSettings } from '../orgs/settings';
import { parseColor, type Rgb } from '../lib/colors';

// The org's colour on every merchant page (decisions §8): the brand colour of its settings, or else
// the background colour of its first card. Text on it is black or white, whichever reads better.

const FALLBACK: Rgb = [31, 78, 140];

/** WCAG relative luminance of an sRGB colour. */
function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function readableOn(rgb: Rgb): '#ffffff' | '#111111' {
  const l = luminance(rgb);
  // Contrast with white is 1.05/(l+.05), with near-black (l+.05)/(.0056+.05): pick the larger.
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.0556 ? '#ffffff' : '#111111';
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
