// Numbers as people and their spreadsheets write them: `1.000,50` in Germany, `1,000.50` in
// Britain, `1 000,50` in France, `1'000.50` in Switzerland. The shop's country says which mark is
// the decimal one; Intl knows each country's marks (no table here). A value only one reading fits
// is read that way whatever the country (`12.50` and `12,50` are twelve and a half; in `1.000,50`
// the last mark is the decimal one). A value two readings fit (`1,000`: a thousand, or 1 with three
// decimals) is a thousand where the country groups thousands with that mark, and refused anywhere
// else: nobody writes a count of stamps as 1.000, so reading it as 1 would be a silent loss.

/** A country's marks: `group` is ' ' for any space (French and Swiss writing use narrow ones), "'" for any apostrophe. */
export interface NumberMarks {
  decimal: string;
  group: string;
}

const SPACES = /[\s\u00a0\u2007\u2009\u202f]/g;
const APOSTROPHES = /[\u2019\u2018\u02bc`´]/g;
const marksCache = new Map<string, NumberMarks | null>();

const plainMark = (mark: string) => mark.replace(SPACES, ' ').replace(APOSTROPHES, "'");

/** The marks numbers are written with in `country` (ISO 3166 alpha-2), from Intl; null without a country Intl knows. */
export function numberMarksOf(country: string | null): NumberMarks | null {
  if (!country) return null;
  if (marksCache.has(country)) return marksCache.get(country)!;
  let marks: NumberMarks | null = null;
  try {
    // The country's likely language (DE → de-Latn-DE, CH → de-Latn-CH), with Latin digits.
    const locale = new Intl.Locale('und', { region: country }).maximize();
    const parts = new Intl.NumberFormat(locale.baseName, { numberingSystem: 'latn' }).formatToParts(1234567.5);
    const decimal = parts.find((p) => p.type === 'decimal')?.value;
    const group = parts.find((p) => p.type === 'group')?.value;
    if (decimal && group) marks = { decimal: plainMark(decimal), group: plainMark(group) };
  } catch {
    marks = null;
  }
  marksCache.set(country, marks);
  return marks;
}

/** `ambiguous`: `mark` may group thousands or be the decimal mark, and the country does not say which. */
export type NumberReading = { ok: true; value: number } | { ok: false; problem: 'not_a_number' } | { ok: false; problem: 'ambiguous'; mark: string };

/** The integer part's digits when its grouping is one a country writes (1,234,567 or India's 12,34,567), else null. */
function ungroup(integer: string, group: string | null): string | null {
  if (group === null) return /^\d+$/.test(integer) ? integer : null;
  const g = group === '.' ? '\\.' : group;
  const western = new RegExp(`^\\d{1,3}(?:${g}\\d{3})+$`);
  const indian = new RegExp(`^\\d{1,2}(?:${g}\\d{2})*${g}\\d{3}$`);
  return western.test(integer) || indian.test(integer) ? integer.split(group).join('') : null;
}

/**
 * A number written as in `marks`' country (null: no country known), or why not. Grouping by
 * spaces or apostrophes is read anywhere (it is never a decimal mark); a leading minus is kept.
 */
export function readNumberText(raw: string, marks: NumberMarks | null): NumberReading {
  const notANumber: NumberReading = { ok: false, problem: 'not_a_number' };
  let text = plainMark(raw.trim()).replace(/\u2212/g, '-');
  const negative = text.startsWith('-');
  if (negative) text = text.slice(1);
  if (!/^\d(?:[\d.,' ]*\d)?$/.test(text)) return notANumber;
  const value = (integer: string, fraction = ''): NumberReading => {
    const n = Number(`${integer}.${fraction || '0'}`);
    return Number.isFinite(n) ? { ok: true, value: negative ? -n : n } : notANumber;
  };

  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  const spacing = [' ', "'"].find((mark) => text.includes(mark)) ?? null;
  if (spacing && [' ', "'"].every((mark) => text.includes(mark))) return notANumber;

  // Both marks: the last one is the decimal mark, the other groups the thousands.
  if (lastDot !== -1 && lastComma !== -1) {
    if (spacing) return notANumber;
    const decimalAt = Math.max(lastDot, lastComma);
    const group = decimalAt === lastDot ? ',' : '.';
    const integer = ungroup(text.slice(0, decimalAt), group);
    const fraction = text.slice(decimalAt + 1);
    return integer !== null && /^\d+$/.test(fraction) ? value(integer, fraction) : notANumber;
  }

  const mark = lastDot !== -1 ? '.' : lastComma !== -1 ? ',' : null;
  if (mark === null) {
    const integer = ungroup(text, spacing);
    return integer === null ? notANumber : value(integer);
  }
  const parts = text.split(mark);
  // The mark more than once: it can only group (a number has one decimal mark).
  if (parts.length > 2) {
    if (spacing) return notANumber;
    const integer = ungroup(text, mark);
    return integer === null ? notANumber : value(integer);
  }
  const [before, after] = parts as [string, string];
  const integer = ungroup(before, spacing);
  if (integer === null || after.includes(' ') || after.includes("'")) return notANumber;
  // Not three digits after it, grouped by spaces already, or not a first group before it (`0,125`,
  // `1000,000`): the mark is a decimal one.
  if (after.length !== 3 || spacing || /^0+$/.test(integer) || integer.length > 3) return value(integer, after);
  // `1,000`: a thousand where the mark groups, 1 where it is the decimal mark. The country decides.
  if (marks?.group === mark) return value(`${integer}${after}`);
  return { ok: false, problem: 'ambiguous', mark };
}
