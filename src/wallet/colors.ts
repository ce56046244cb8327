// Card colours arrive from a colour picker (#rrggbb) or already in Apple's rgb(r, g, b) form;
// Apple Wallet wants the latter, Google Wallet wants #rrggbb. One parser for both.
export type Rgb = readonly [number, number, number];

export interface ParsedColor {
  /** Apple Wallet's form: "rgb(r, g, b)". */
  css: string;
  /** Google Wallet's form: "#rrggbb". */
  hex: string;
  rgb: Rgb;
}

/** Accepts "rgb(r, g, b)", "#rgb" or "#rrggbb"; throws naming `what` otherwise. */
export function parseColor(value: string, what = 'color'): ParsedColor {
  const text = value.trim();
  let rgb: number[] | undefined;
  const fn = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i.exec(text);
  if (fn) rgb = fn.slice(1, 4).map(Number);
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text);
  if (hex) {
    const h = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!;
    rgb = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  }
  if (!rgb || rgb.some((n) => n > 255)) throw new Error(`${what} colour "${value}" is not rgb(r, g, b) or #rrggbb`);
  const [r, g, b] = rgb as [number, number, number];
  return {
    css: `rgb(${r}, ${g}, ${b})`,
    hex: `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`,
    rgb: [r, g, b],
  };
}
