import * as v from 'valibot';

// The one colour rule. Card colours arrive from a colour picker (#rrggbb), as shorthand (#rgb),
// or already in Apple's rgb(r, g, b) form; Apple Wallet wants the last, Google Wallet and CSS take
// #rrggbb. The card schema accepts exactly what this parser reads, and every renderer (web pass,
// .pkpass, the drawn logo, the Google class) reads through it, so an accepted colour always renders.
//
// Accepted, case-insensitive, surrounding spaces ignored: `#rgb`, `#rrggbb`, `rgb(r, g, b)` with
// whole numbers 0–255 and optional spaces around them. Refused: names (`red`: a short list would
// surprise, the full CSS list is 148 names for what a picker never sends), `rgba()`, percentages,
// fractions, the space-separated CSS 4 syntax, #rgba/#rrggbbaa (Wallet has no transparency).

export type Rgb = readonly [number, number, number];

export interface ParsedColor {
  /** Apple Wallet's form: "rgb(r, g, b)". */
  css: string;
  /** Google Wallet's form: "#rrggbb". */
  hex: string;
  rgb: Rgb;
}

export const COLOR_FORMS = '#rgb, #rrggbb or rgb(r, g, b) with r, g and b from 0 to 255';

const RGB_FUNCTION = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i;
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The colour in every form a renderer needs, or null when it is not one of COLOR_FORMS. */
export function readColor(value: string): ParsedColor | null {
  const text = value.trim();
  let rgb: number[] | undefined;
  const fn = RGB_FUNCTION.exec(text);
  if (fn) rgb = fn.slice(1, 4).map(Number);
  const hex = HEX.exec(text);
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!;
    rgb = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16));
  }
  if (!rgb || rgb.some((n) => n > 255)) return null;
  const [r, g, b] = rgb as [number, number, number];
  return {
    css: `rgb(${r}, ${g}, ${b})`,
    hex: `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`,
    rgb: [r, g, b],
  };
}

/** readColor for values already validated (card designs, defaults): throws naming `what` otherwise. */
export function parseColor(value: string, what = 'color'): ParsedColor {
  const color = readColor(value);
  if (!color) throw new Error(`${what} colour "${value}" is not ${COLOR_FORMS}`);
  return color;
}

/** The schema of a colour field: a string readColor reads. */
export const ColorSchema = v.pipe(
  v.string(),
  v.check((value) => readColor(value) !== null, `must be ${COLOR_FORMS}`),
  v.description(`A colour: ${COLOR_FORMS}`),
);
