// The one place HTML is written from data: every interpolated value is escaped unless it is
// explicitly marked as markup (`raw`), so card names, customer data and form input can never
// inject anything. Console, counter, sign-up and wallet pages all build on this.

export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Trusted markup: only for text this program generated itself (a QR code SVG, a chart). */
export const raw = (value: string) => new Markup(value);

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

function render(value: unknown): string {
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; arrays are joined; null, undefined and false render nothing. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Markup(out);
}

/**
 * JSON for a data attribute or an inline script: `<` is escaped, so no value can close the script
 * element. Inside an attribute the html template escapes it as usual.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
