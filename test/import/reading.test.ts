// How a file is read and its columns suggested: the delimiters, encodings and quoting other apps
// write, and the headers of this server's own export and of other loyalty apps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Card } from '../../src/cards/model';
import { ImportFileError, readCsvFile } from '../../src/import/csv-file';
import { checkMapping, suggestMapping } from '../../src/import/mapping';
import { readRow } from '../../src/import/rows';

const card = (passType: Card['passType'], questions: Card['questions'] = []): Card =>
  ({ id: 'card_x', orgId: 'org_x', name: 'Card', passType, questions, dataCollectionEnabled: false }) as unknown as Card;
const stamps = card('stamp_card', [
  { key: 'size', label: 'Cup size', type: 'select', options: [{ value: 'S', label: 'Small' }] },
  { key: 'news', label: 'Newsletter', type: 'checkbox' },
  { key: 'memberNo', label: 'Member number', type: 'number' },
] as Card['questions']);

describe('reading a CSV file', () => {
  const cases: { name: string; bytes: Buffer; header: string[]; rows: string[][] }[] = [
    { name: 'commas, LF', bytes: Buffer.from('Name,Email\nAda,ada@example.com\n'), header: ['Name', 'Email'], rows: [['Ada', 'ada@example.com']] },
    { name: 'semicolons, CRLF, a BOM (European Excel)', bytes: Buffer.from('\uFEFFName;Stamps\r\nJürgen Weiß;3,5\r\n'), header: ['Name', 'Stamps'], rows: [['Jürgen Weiß', '3,5']] },
    { name: 'tabs', bytes: Buffer.from('Name\tEmail\nAda\tada@example.com\n'), header: ['Name', 'Email'], rows: [['Ada', 'ada@example.com']] },
    { name: 'quoted separators, quotes and line breaks', bytes: Buffer.from('Name,Note\n"Smith, Jo","say ""hi""\nthere"\n'), header: ['Name', 'Note'], rows: [['Smith, Jo', 'say "hi"\nthere']] },
    { name: 'a comma inside quotes in a semicolon header', bytes: Buffer.from('"Name, full";Email\nAda;a@example.com\n'), header: ['Name, full', 'Email'], rows: [['Ada', 'a@example.com']] },
    { name: 'Windows-1252 (older Excel "CSV")', bytes: Buffer.from([...Buffer.from('Name\n'), 0x4a, 0xfc, 0x72, 0x67, 0x65, 0x6e, 0x0a]), header: ['Name'], rows: [['Jürgen']] },
    { name: 'short rows and blank lines', bytes: Buffer.from('Name,Email,Phone\n\nAda\n,,\nBo,b@example.com\n'), header: ['Name', 'Email', 'Phone'], rows: [['Ada'], ['Bo', 'b@example.com']] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { table } = await readCsvFile(c.bytes);
      assert.deepEqual(table.header, c.header);
      assert.deepEqual(table.rows, c.rows);
    });
  }

  it('numbers rows as a spreadsheet does, blank rows included', async () => {
    const { table } = await readCsvFile(Buffer.from('Name\n\nAda\n"Two\nlines"\n\nBo\n'));
    assert.deepEqual(table.rowNumbers, [3, 4, 6]);
  });

  it('refuses a file with only blank lines', async () => {
    await assert.rejects(readCsvFile(Buffer.from('\n\n\n')), ImportFileError);
  });
});

describe('suggested columns', () => {
  const cases: { name: string; header: string[]; want: (string | null)[]; on?: Card }[] = [
    {
      name: "this server's own export",
      header: ['Name', 'Email', 'Phone', 'External id', 'Card', 'Balance', 'Unit', 'Level', 'Status', 'Joined via', 'Created', 'Consent given', 'Customer id', 'Cup size', 'Newsletter', 'Member number'],
      want: ['name', 'email', 'phone', 'externalId', null, 'balance', null, null, null, null, null, null, null, 'q:size', 'q:news', 'q:memberNo'],
    },
    { name: 'Stamped', header: ['first_name', 'last_name', 'email', 'points'], want: ['firstName', 'lastName', 'email', 'balance'] },
    { name: 'LoyLap', header: ['Name', 'Mobile', 'Stamp_Balance', 'Cash_Balance'], want: ['name', 'phone', 'balance', null] },
    { name: 'LoyLap on a store-credit card', header: ['Name', 'Mobile', 'Stamp_Balance', 'Cash_Balance'], want: ['name', 'phone', null, 'balance'], on: card('prepaid_card') },
    { name: 'Stamp Me', header: ['First Name', 'Last Name', 'Email', 'Active Stamps', 'Completed Stamps'], want: ['firstName', 'lastName', 'email', 'balance', null] },
    { name: 'German', header: ['Vorname', 'Nachname', 'E-Mail-Adresse', 'Handy', 'Stempel', 'Kundennummer'], want: ['firstName', 'lastName', 'email', 'phone', 'balance', 'externalId'] },
    { name: 'a question by its key', header: ['email', 'memberno'], want: ['email', 'q:memberNo'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(suggestMapping(c.on ?? stamps, c.header), c.want));
});

describe('a row read by the mapping', () => {
  const mapping = checkMapping(stamps, ['Name', 'Email', 'Phone', 'Stamps', 'Cup size', 'Newsletter'], ['name', 'email', 'phone', 'balance', 'q:size', 'q:news']).mapping!;
  const cases: { cells: string[]; want: RegExp | Record<string, unknown> }[] = [
    { cells: ['Ada  \n Lovelace', 'ada@example.com', '+44 20 7946 0958', '7', 'small', 'ja'], want: { name: 'Ada Lovelace', initialPoints: 7, customFields: { size: 'S', news: true } } },
    { cells: ['Ada', '', '', '', 'S', 'no'], want: { name: 'Ada', email: null, initialPoints: 0, customFields: { size: 'S', news: false } } },
    { cells: ['Ada', '', '', '7.0', '', ''], want: { initialPoints: 7 } },
    { cells: ['Ada', '', '', 'seven', '', ''], want: /^Stamps: is not a whole number of stamps/ },
    { cells: ['Ada', '', '', '', '', 'maybe'], want: /^Newsletter: is not yes or no/ },
    { cells: ['Ada', '', '+1 555 0100', '', '', ''], want: /^Phone: is not a phone number with its country code/ },
    { cells: ['x'.repeat(201), '', '', '', '', ''], want: /^Name: is longer than 200 characters/ },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.cells).slice(0, 70), () => {
      const read = readRow(stamps, mapping, c.cells, (i) => ['Name', 'Email', 'Phone', 'Stamps', 'Cup size', 'Newsletter'][i]!);
      if (c.want instanceof RegExp) {
        assert.equal(read.ok, false);
        if (!read.ok) assert.match(`${read.column}: ${read.message}`, c.want);
      } else {
        assert.equal(read.ok, true);
        if (read.ok) for (const [k, v] of Object.entries(c.want)) assert.deepEqual(read.request[k as keyof typeof read.request], v, k);
      }
    });
  }

  it('store credit: cents, a decimal comma and a currency sign', () => {
    const prepaid = card('prepaid_card');
    const m = checkMapping(prepaid, ['Email', 'Cash_Balance'], ['email', 'balance']).mapping!;
    const read = (text: string) => readRow(prepaid, m, ['a@example.com', text], () => 'Cash_Balance');
    for (const [text, units] of [['12.50', 12.5], ['12,5', 12.5], ['€ 12.50', 12.5], ['12.50 EUR', 12.5]] as const) {
      const r = read(text);
      assert.ok(r.ok && r.request.initialPoints === units, text);
    }
    assert.equal(read('12.505').ok, false);
    assert.equal(read('abc12').ok, false);
  });
});
