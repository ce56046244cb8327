// CSV as spreadsheets read it (RFC 4180): fields with a comma, a quote or a line break are quoted,
// quotes doubled, lines end in CRLF. A leading byte-order mark makes Excel read the file as UTF-8.
//
// Spreadsheet formula injection (OWASP "CSV Injection"): a customer can type their name as
// `=HYPERLINK(…)`; opened in a spreadsheet, that cell would run. Any cell starting with = + - @
// (or a tab or carriage return, which some spreadsheets skip before reading a formula) gets a
// leading apostrophe, which spreadsheets show as text and do not evaluate.

export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null and undefined are empty; numbers are written as they are. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) || guarded !== guarded.trim() ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export function csvLine(cells: (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
