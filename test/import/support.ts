// Customer files as other apps export them, with the outcome the import must report for each row.

export interface FileRow {
  cells: string[];
  outcome: 'created' | 'matched' | 'refused';
  /** The refused row's column and a piece of its message. */
  column?: string;
  message?: RegExp;
}

export const HEADER = ['First name', 'Last name', 'E-Mail', 'Mobile', 'Stamps', 'Cup size', 'Member number'];

const quote = (cell: string) => (/[";\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/**
 * `good` customers (a few with quoted names, a line break in one), then one row of each kind the
 * import refuses, with a blank line among them: semicolons, a BOM and CRLF, as a
 * European Excel writes them. Row numbers are a spreadsheet's (the header is row 1).
 */
export function customerFile(good: number, options: { emailPrefix?: string; otherCardExternalId?: string } = {}): { text: string; rows: (FileRow & { row: number })[] } {
  const prefix = options.emailPrefix ?? 'c';
  const rows: FileRow[] = [];
  for (let i = 0; i < good; i++) {
    const last = i % 17 === 0 ? `Smith; "Jr" ${i}` : i === 5 ? 'Two\r\nLines' : `Last${i}`;
    rows.push({ cells: [`First${i}`, last, `${prefix}${i}@example.com`, `+49 170 ${String(1_000_000 + i)}`, String(i % 10), i % 2 ? 'Small' : 'L', String(1000 + i)], outcome: 'created' });
  }
  rows.push({ cells: ['Bad', 'Email', `${prefix}bad@`, '', '1', '', ''], outcome: 'refused', column: 'E-Mail', message: /not an email address/ });
  // No number in any country (a national number is read in the shop's country, which a test org takes from the machine's zone).
  rows.push({ cells: ['Bad', 'Phone', '', '0170-CALL-ME', '1', '', ''], outcome: 'refused', column: 'Mobile', message: /is not a phone number/ });
  rows.push({ cells: ['Half', 'Stamp', `${prefix}half@example.com`, '', '2.5', '', ''], outcome: 'refused', column: 'Stamps', message: /whole number of stamps/ });
  rows.push({ cells: ['Big', 'Cup', `${prefix}big@example.com`, '', '1', 'Huge', ''], outcome: 'refused', column: 'Cup size', message: /not one of the choices \(Small, Large\)/ });
  rows.push({ cells: ['', '', '', '', '4', '', ''], outcome: 'refused', message: /no name, email, phone or external id/ });
  // The email of row 2 again (in another case) and the phone of row 3: refused, never merged into them.
  rows.push({ cells: ['Again', 'Zero', `${prefix}0@EXAMPLE.com`, '', '9', '', ''], outcome: 'refused', column: 'E-Mail', message: /same email as row 2$/ });
  rows.push({ cells: ['Same', 'Phone', '', '+49 (170) 1000001', '3', '', ''], outcome: 'refused', column: 'Mobile', message: /same phone as row 3$/ });
  rows.push({ cells: ['Minus', 'One', `${prefix}minus@example.com`, '', '-1', '', ''], outcome: 'refused', column: 'Stamps', message: /below zero/ });
  const lines = [HEADER.join(';')];
  const numbered: (FileRow & { row: number })[] = [];
  rows.forEach((r, i) => {
    if (i === good) lines.push(''); // a blank line: skipped, but counted in the row numbers
    lines.push(r.cells.map(quote).join(';'));
    numbered.push({ ...r, row: lines.length });
  });
  return { text: `\uFEFF${lines.join('\r\n')}\r\n`, rows: numbered };
}

export function expectedCounts(rows: FileRow[]): { created: number; matched: number; refused: number } {
  return {
    created: rows.filter((r) => r.outcome === 'created').length,
    matched: rows.filter((r) => r.outcome === 'matched').length,
    refused: rows.filter((r) => r.outcome === 'refused').length,
  };
}
