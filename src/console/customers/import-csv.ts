import type { Mapping } from '../../import/mapping';
import type { ReportRow } from '../../import/jobs';
import { normalizePhone } from '../../lib/contact';
import { CSV_BOM, csvLine, SpreadsheetPhone, type CsvValue } from './csv';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { rowMessage } from '../refusals';

// The refused rows of an import as a file the owner fixes and imports again: each row's number in
// the uploaded file and why it was refused, then the file's own columns with the row's values, under
// the file's own headers, so the next import suggests the same mapping. The first two columns have
// headers no mapping takes, so they are left out when this file comes back.

/** The header line: the two columns of the refusal (in the admin's language), then the uploaded file's header. */
export function refusedCsvHeader(lang: ConsoleLang, header: readonly string[]): string {
  return CSV_BOM + csvLine([tConsole(lang, 'console.csv.row'), tConsole(lang, 'console.csv.refusedBecause'), ...header]);
}

/** The reason as the report words it, in the admin's language: the column, then the message. */
const reason = (lang: ConsoleLang, r: ReportRow) => (r.column ? `${r.column}: ${rowMessage(lang, r)}` : rowMessage(lang, r));

/**
 * One refused row. A phone number with its country code is written as a spreadsheet keeps it
 * (csv.ts SpreadsheetPhone); every other value goes through the formula guard, which the import
 * reads back off.
 */
export function refusedCsvLine(lang: ConsoleLang, r: ReportRow, mapping: Mapping | null): string {
  const phoneColumn = mapping?.indexOf('phone') ?? -1;
  const cells: CsvValue[] = (r.cells ?? []).map((cell, i) => (i === phoneColumn ? (SpreadsheetPhone.of(normalizePhone(cell)) ?? cell) : cell));
  return csvLine([r.row, reason(lang, r), ...cells]);
}
