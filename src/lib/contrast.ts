// WCAG 2 contrast between two colours, for the card editor's warning when a pass's text would be
// hard to read on its background (below 4.5 : 1, the level for normal text). No imports: the
// console's browser bundle uses this file too, to warn while the owner types.

export type Rgb = readonly [number, number, number];

/** WCAG relative luminance of an sRGB colour. */
function relativeLuminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** (lighter + 0.05) / (darker + 0.05): 1 for the same colour, 21 for black on white. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export const MIN_TEXT_CONTRAST = 4.5;

/** "1.0 : 1", "3.9 : 1": rounded down, so a ratio shown as 4.5 is never below it. */
export const ratioText = (ratio: number) => `${(Math.floor(ratio * 10) / 10).toFixed(1)} : 1`;
