import type { Rgb } from '../lib/colors';
import { contrastRatio } from '../lib/contrast';

// A page's colour as CSS: text on it is black or white, whichever reads better. Which colour a
// page wears (the org's, a card's) is read by the feature that knows (cards/face.ts orgAccent).

const NEAR_BLACK: Rgb = [17, 17, 17];

/** White or near-black text on `rgb`, whichever contrasts more. */
export function readableOn(rgb: Rgb): '#ffffff' | '#111111' {
  return contrastRatio(rgb, [255, 255, 255]) >= contrastRatio(rgb, NEAR_BLACK) ? '#ffffff' : '#111111';
}

/** CSS custom properties for a page in this colour; generated here, so safe to send under the nonce. */
export function themeCss(rgb: Rgb): string {
  const [r, g, b] = rgb;
  return `:root{--accent:rgb(${r},${g},${b});--accent-fg:${readableOn(rgb)};--focus:0 0 0 3px rgba(${r},${g},${b},.35)}`;
}
