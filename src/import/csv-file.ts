import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { parse, CsvError } from 'csv-parse';
import { reason, type Reason } from '../lib/reasons';

// Reading an uploaded customer file as other loyalty apps and spreadsheets export it: comma,
// semicolon or tab between fields, UTF-8 with or without a byte-order mark (or Windows-1252, what
// older Excel writes as "CSV"), quoted fields with line breaks, CRLF or LF. csv-parse does the CSV;
// this file decides the delimiter, the limits and what to tell the owner when a file is not CSV.

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_ROWS = 50_000;
/** No customer file has more: a wider one is not a customer list, and its mapping form would be megabytes. */
export const MAX_COLUMNS = 200;
/** The text is handed to the parser in pieces this size. */
const PIECE = 64 * 1024;
/**
 * Records are read from the parser with promises, which resolve as microtasks: without a real turn
 * of the event loop every so often, a large file would be read in one go, with no request served
 * meanwhile.
 */
const YIELD_MS = 20;

/** A file the import cannot read: the message says what to do, and nothing has been written; `reason` says it as values. */
export class ImportFileError extends Error {
  constructor(
    message: string,
    readonly reason: Reason,
  ) {
    super(message);
  }
}

export interface CsvTable {
  /** The header row's cells, trimmed. */
  header: string[];
  /** The data rows (the header left out, blank rows too), each cell trimmed. */
  rows: string[][];
  /** Each data row's number as a spreadsheet shows it: the header is row 1, blank rows count. */
  rowNumbers: number[];
  delimiter: ',' | ';' | '\t';
}

/** The file's text: UTF-8 (a BOM is dropped), else Windows-1252; refuses what is not text at all. */
export function decodeCsvBytes(bytes: Buffer): string {
  if (bytes.length === 0) throw new ImportFileError('The file is empty.', reason('file.empty'));
  if (bytes.length > MAX_FILE_BYTES) {
    const [max, size] = [MAX_FILE_BYTES / 1024 / 1024, (bytes.length / 1024 / 1024).toFixed(1)];
    throw new ImportFileError(`The file is larger than ${max} MB (${size} MB): split it into smaller files.`, reason('file.tooLarge', { max, size }));
  }
  if (bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    throw new ImportFileError('This is a spreadsheet workbook (.xlsx or .ods), not a CSV file: open it and save it as "CSV UTF-8", then upload that.', reason('file.workbook'));
  }
  if (bytes.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))) {
    throw new ImportFileError('This is an old Excel workbook (.xls), not a CSV file: open it and save it as "CSV UTF-8", then upload that.', reason('file.workbook'));
  }
  // A NUL byte never appears in CSV text (UTF-16 files, images, archives are full of them).
  if (bytes.includes(0)) throw new ImportFileError('This is not a CSV file (it is not plain text). Export your customers as CSV and upload that file.', reason('file.notText'));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/**
 * Windows-1252 through ICU's table. Node 20.18.3 and later decode a whole buffer as Latin-1
 * instead, which turns the 32 characters Windows-1252 puts at 0x80–0x9F (€, ’, “, –, Š, œ …) into
 * invisible control characters (nodejs/node#56542); the streaming decode still goes through ICU.
 * A single-byte encoding has nothing left to flush after the one call.
 */
function decodeWindows1252(bytes: Buffer): string {
  return new TextDecoder('windows-1252').decode(bytes, { stream: true });
}

/** The delimiter of the header line (outside quotes): the most frequent of comma, semicolon and tab. */
export function detectDelimiter(text: string): CsvTable['delimiter'] {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  // Blank lines above the header do not end it.
  for (const ch of text.slice(0, 64 * 1024).replace(/^[\uFEFF\r\n]+/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch as keyof typeof counts]++;
  }
  const best = (Object.entries(counts) as [CsvTable['delimiter'], number][]).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > 0 ? best[0] : ',';
}

function* pieces(text: string): Generator<string> {
  for (let i = 0; i < text.length; i += PIECE) yield text.slice(i, i + PIECE);
}

/**
 * A cell written `'=…`, `'+…`, `'-…` or `'@…` is a spreadsheet's formula guard (this server's own
 * CSV files write it, and so do other apps): the value is what follows the apostrophe.
 */
export const unguard = (cell: string) => (/^'[=+\-@]/.test(cell) ? cell.slice(1) : cell);

/**
 * Parses the text into a header and rows, yielding to the event loop between pieces. Blank rows
 * are left out (but counted in the row numbers); a row with fewer cells than the header reads the
 * missing ones as empty.
 */
export async function parseCsvText(text: string): Promise<CsvTable> {
  // Nothing but line breaks and spaces: refused before the parser walks millions of empty lines.
  if (!/\S/.test(text)) throw new ImportFileError('The file holds only blank lines: export your customers again as CSV and upload that file.', reason('file.blank'));
  const delimiter = detectDelimiter(text);
  // Empty lines are skipped by the parser itself (counted in info.empty_lines, for the row numbers):
  // as records, each one shorter than the header would cost csv-parse an error object, and a file
  // of blank lines would take minutes.
  const parser = Readable.from(pieces(text)).pipe(
    parse({ delimiter, bom: true, trim: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true, max_record_size: 1024 * 1024 }),
  );
  let header: string[] | null = null;
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  /** Lines above the header (blank ones): the header is row 1 however far down it starts. */
  let above = 0;
  let emptyRows = 0;
  let sliceStart = performance.now();
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { records: number; empty_lines: number } }>) {
      const line = info.records + info.empty_lines;
      if (performance.now() - sliceStart > YIELD_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
      if (record.length > MAX_COLUMNS) {
        parser.destroy();
        throw new ImportFileError(
          `${header ? `Row ${line - above}` : 'The header'} has ${record.length.toLocaleString('en-GB')} columns; a customer file has at most ${MAX_COLUMNS}. Export only the customer columns and upload that file.`,
          reason('file.columns', { row: header ? line - above : 'header', count: record.length, max: MAX_COLUMNS }),
        );
      }
      if (record.every((cell) => cell === '')) {
        // A row of empty cells (`,,,`) is skipped, above the header too (it is not the header). To
        // the parser each is a record, slow when shorter than the header: as many as the customer
        // rows allowed, then the file is refused.
        if (++emptyRows > MAX_ROWS) {
          parser.destroy();
          throw new ImportFileError(`The file has more than ${MAX_ROWS.toLocaleString('en-GB')} empty rows: delete them in your spreadsheet and export the file again.`, reason('file.emptyRows', { max: MAX_ROWS }));
        }
        continue;
      }
      if (!header) {
        header = record.map(unguard);
        above = line - 1;
        continue;
      }
      if (rows.length === MAX_ROWS) {
        parser.destroy();
        throw new ImportFileError(`The file has more than ${MAX_ROWS.toLocaleString('en-GB')} customer rows: split it into files of at most ${MAX_ROWS.toLocaleString('en-GB')}.`, reason('file.tooManyRows', { max: MAX_ROWS }));
      }
      rows.push(record.map(unguard));
      rowNumbers.push(line - above);
    }
  } catch (err) {
    if (err instanceof CsvError) throw new ImportFileError(`The file could not be read as CSV (${csvProblem(err)}). Export it again as CSV and upload that file.`, reason('file.notCsv'));
    throw err;
  }
  if (!header || header.every((cell) => cell === '')) throw new ImportFileError('The file has no header row: its first line must name the columns (Name, Email, Phone …).', reason('file.noHeader'));
  if (rows.length === 0) throw new ImportFileError('The file has a header but no customer rows.', reason('file.noRows'));
  return { header, rows, rowNumbers, delimiter };
}

function csvProblem(err: CsvError): string {
  const line = (err as CsvError & { lines?: number }).lines;
  const where = line ? ` near line ${line}` : '';
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return `a quote is never closed${where}`;
  if (err.code === 'CSV_MAX_RECORD_SIZE') return `a row is longer than 1 MB${where}`;
  return `${err.code.toLowerCase().replace(/^csv_/, '').replace(/_/g, ' ')}${where}`;
}

/** Reads an uploaded file whole: its text and its table, or an ImportFileError. */
export async function readCsvFile(bytes: Buffer): Promise<{ text: string; table: CsvTable }> {
  const text = decodeCsvBytes(bytes);
  return { text, table: await parseCsvText(text) };
}
