import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

// CSV as spreadsheets read it (RFC 4180): fields with a comma, a quote or a line break are quoted,
// quotes doubled, lines end in CRLF. A leading byte-order mark makes Excel read the file as UTF-8.
//
// Spreadsheet formula injection (OWASP "CSV Injection"): a customer can type their name as
// `=HYPERLINK(…)`; opened in a spreadsheet, that cell would run. Any cell starting with = + - @
// (or a tab or carriage return, which some spreadsheets skip before reading a formula) gets a
// leading apostrophe, which spreadsheets show as text and do not evaluate.
//
// Phone numbers are the one exception, because the guard made every one of them read
// `'+49 170 1234567` (a CSV file opened in a spreadsheet shows the apostrophe). A number this
// program formats itself from the stored E.164 key — `+`, then groups of digits separated by single
// spaces, nothing else — is written as it is: such a cell cannot call a function or name a cell,
// and a spreadsheet reads it as text (LibreOffice Calc does, checked in a test; two numbers with a
// space between them are no formula in Excel either). Without the spaces it would turn into the
// number 491701234567.

export const CSV_BOM = '\uFEFF';

/** A phone number written for spreadsheets: made only by spreadsheetPhone. */
export class SpreadsheetPhone {
  private constructor(readonly text: string) {}
  static readonly SHAPE = /^\+\d{1,3}(?: \d{1,14}){1,6}$/;
  /** `+491701234567` → `+49 170 1234567`, or null for anything that is not E.164. */
  static of(e164: string | null): SpreadsheetPhone | null {
    if (!e164 || !/^\+\d{7,15}$/.test(e164)) return null;
    const grouped = (parsePhoneNumberFromString(e164)?.formatInternational() ?? '').replace(/[^\d+]+/g, ' ').trim();
    // Anything else is written as typed, through the guard.
    return SpreadsheetPhone.SHAPE.test(grouped) ? new SpreadsheetPhone(grouped) : null;
  }
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | SpreadsheetPhone | null | undefined;

/** One cell: null and undefined are empty; numbers and phones are written as they are. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (value instanceof SpreadsheetPhone) return value.text;
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) || guarded !== guarded.trim() ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export function csvLine(cells: CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
