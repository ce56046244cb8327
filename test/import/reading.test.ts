// How a file is read and its columns suggested: the delimiters, encodings and quoting other apps
// write, and the headers of this server's own export and of other loyalty apps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Card } from '../../src/cards/model';
import { MAX_COLUMNS, readCsvFile } from '../../src/import/csv-file';
import { checkMapping, suggestMapping } from '../../src/import/mapping';
import { readRow, shopWriting } from '../../src/import/rows';

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

  it('refuses a file with only blank lines at once, saying so', async () => {
    for (const text of ['\n\n\n', '\uFEFF\r\n \r\n\t\r\n', '\n'.repeat(1_000_000)]) {
      await assert.rejects(readCsvFile(Buffer.from(text)), { name: 'Error', message: /^The file holds only blank lines/ });
    }
  });

  it('refuses a file of more empty rows than customer rows allowed, above the header or below it', async () => {
    for (const text of [`${',\n'.repeat(50_001)}Name,Email\nAda,a@example.com\n`, `Name,Email\n${',\n'.repeat(50_001)}Ada,a@example.com\n`]) {
      await assert.rejects(readCsvFile(Buffer.from(text)), { message: /^The file has more than 50,000 empty rows/ });
    }
    const { table } = await readCsvFile(Buffer.from(`${',\n'.repeat(3)}Name,Email\n${',\n'.repeat(3)}Ada,a@example.com\n`));
    assert.deepEqual(table.rowNumbers, [5]);
  });

  it('skips blank lines after the header, however many, counting them in the row numbers', async () => {
    const { table } = await readCsvFile(Buffer.from(`Name\n${'\n'.repeat(100_000)}Ada\n`));
    assert.deepEqual(table.rowNumbers, [100_002]);
  });

  it('decodes Windows-1252 with the characters it has beyond Latin-1: € ‘ ’ “ ” – …', async () => {
    // "Café Müller’s – “Grüße” für 5 €" as Excel on Windows writes it.
    const text = 'Name;Note\nCafé Müller’s;“Grüße” – für 5 € … Œuvre, ßüöä\n';
    const beyondLatin1: Record<string, number> = { '€': 0x80, '…': 0x85, Œ: 0x8c, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96 };
    const bytes = Buffer.from([...text].map((ch) => beyondLatin1[ch] ?? ch.charCodeAt(0)));
    assert.ok(bytes.every((b) => b < 0x100) && bytes.includes(0x80));
    const { table } = await readCsvFile(bytes);
    assert.deepEqual(table.rows, [['Café Müller’s', '“Grüße” – für 5 € … Œuvre, ßüöä']]);
  });

  it(`reads up to ${MAX_COLUMNS} columns and refuses a wider file before anything is built from it`, async () => {
    const header = (n: number) => Array.from({ length: n }, (_, i) => `C${i}`).join(',');
    const { table } = await readCsvFile(Buffer.from(`${header(MAX_COLUMNS)}\n${'x,'.repeat(MAX_COLUMNS - 1)}x\n`));
    assert.equal(table.header.length, MAX_COLUMNS);
    await assert.rejects(readCsvFile(Buffer.from(`${header(60_000)}\nx\n`)), { message: /^The header has 60,000 columns; a customer file has at most 200\./ });
    await assert.rejects(readCsvFile(Buffer.from(`Name,Email\n\nAda,a@example.com\n${'x,'.repeat(MAX_COLUMNS)}x\n`)), { message: /^Row 4 has 201 columns/ });
  });

  it("reads a cell behind a spreadsheet's formula guard as the value it guards", async () => {
    const { table } = await readCsvFile(Buffer.from("'=Name,Phone\n'=HYPERLINK(x),'+49 170 1234567\n'Tis,'-5\n"));
    assert.deepEqual(table.header, ['=Name', 'Phone']);
    assert.deepEqual(table.rows, [['=HYPERLINK(x)', '+49 170 1234567'], ["'Tis", '-5']]);
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
      const read = readRow(stamps, mapping, c.cells, (i) => ['Name', 'Email', 'Phone', 'Stamps', 'Cup size', 'Newsletter'][i]!, shopWriting(null));
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
    const read = (text: string) => readRow(prepaid, m, ['a@example.com', text], () => 'Cash_Balance', shopWriting('GB'));
    for (const [text, units] of [['12.50', 12.5], ['12,5', 12.5], ['€ 12.50', 12.5], ['12.50 EUR', 12.5]] as const) {
      const r = read(text);
      assert.ok(r.ok && r.request.initialPoints === units, text);
    }
    assert.equal(read('12.505').ok, false);
    assert.equal(read('abc12').ok, false);
  });
});

describe('numbers as the shop’s country writes them', () => {
  const prepaid = card('prepaid_card');
  const read = (on: Card, country: string | null, balance: string, memberNo = '') => {
    const m = checkMapping(on, ['Email', 'Balance', 'Member number'], ['email', 'balance', ...(on === stamps ? ['q:memberNo'] : [''])]).mapping!;
    const r = readRow(on, m, ['a@example.com', balance, memberNo], (i) => ['Email', 'Balance', 'Member number'][i]!, shopWriting(country));
    return r.ok ? { balance: r.request.initialPoints, memberNo: r.request.customFields.memberNo } : `${r.column}: ${r.message}`;
  };
  const AMBIGUOUS = /^Balance: is ambiguous: the “[.,]” could separate thousands or decimals/;
  // [card, country, cell, units or refusal]
  const cases: [Card, string | null, string, number | RegExp][] = [
    [stamps, 'DE', '1.000', 1000],
    [stamps, 'DE', '1,000', AMBIGUOUS],
    [stamps, 'DE', '12.345.678', 12_345_678],
    [stamps, 'DE', '1.000,00', 1000],
    [stamps, 'GB', '1,000', 1000],
    [stamps, 'GB', '1.000', AMBIGUOUS],
    [stamps, 'US', '1,000,000', 1_000_000],
    [stamps, 'FR', '1 000', 1000],
    [stamps, 'FR', '1\u202f000', 1000],
    [stamps, 'CH', "1'000", 1000],
    [stamps, null, '1,000', AMBIGUOUS],
    [stamps, null, '1.000', AMBIGUOUS],
    [stamps, null, '1000', 1000],
    [stamps, 'DE', '1,5', /^Balance: is not a whole number of stamps/],
    [stamps, 'DE', '1.00.0', /^Balance: is not a whole number of stamps/],
    [prepaid, 'DE', '1.000,50', 1000.5],
    [prepaid, 'DE', '12,50', 12.5],
    [prepaid, 'DE', '12.50', 12.5],
    [prepaid, 'DE', '1.234', 1234],
    [prepaid, 'DE', '1,234', AMBIGUOUS],
    [prepaid, 'DE', '0,125', /^Balance: has more than 2 decimals/],
    [prepaid, 'DE', '€ 1.000,50', 1000.5],
    [prepaid, 'DE', '1.000,50 EUR', 1000.5],
    [prepaid, 'GB', '1,000.50', 1000.5],
    [prepaid, 'GB', '£1,234.56', 1234.56],
    [prepaid, 'GB', '1.000,50', 1000.5],
    [prepaid, 'FR', '1 000,50 €', 1000.5],
    [prepaid, 'IN', '1,00,000.50', 100_000.5],
  ];
  for (const [on, country, cell, want] of cases) {
    it(`${on.passType} in ${country ?? 'no country'}: ${JSON.stringify(cell)}`, () => {
      const got = read(on, country, cell);
      if (want instanceof RegExp) assert.match(String(got), want);
      else assert.deepEqual(got, { balance: want, memberNo: undefined });
    });
  }

  it('a number question is read the same way', () => {
    assert.deepEqual(read(stamps, 'DE', '', '1.000'), { balance: 0, memberNo: 1000 });
    assert.match(String(read(stamps, 'GB', '', '1.000')), /^Member number: is ambiguous: the “[.,]” could separate thousands or decimals/);
  });
});

describe('phone numbers as the shop’s country writes them', () => {
  const m = checkMapping(stamps, ['Name', 'Phone'], ['name', 'phone']).mapping!;
  const read = (country: string | null, phone: string) => {
    const r = readRow(stamps, m, ['Ada', phone], () => 'Phone', shopWriting(country));
    return r.ok ? r.request.phone : r.message;
  };
  it('reads a national number in the shop’s country and stores it as E.164', () => {
    assert.equal(read('DE', '0151 2345678'), '+491512345678');
    assert.equal(read('DE', '0049 151 2345678'), '+491512345678');
    assert.equal(read('GB', '07700 900123'), '+447700900123');
    assert.equal(read('DE', '+44 20 7946 0958'), '+44 20 7946 0958', 'an international number is kept as written');
  });
  it('refuses what is no number of that country, with the country’s own example', () => {
    assert.equal(read('DE', '0151 234567890123'), 'is not a phone number (such as 01512 3456789 or +49 1512 3456789)');
    assert.equal(read('DE', '0151 CALL ME'), 'is not a phone number (such as 01512 3456789 or +49 1512 3456789)');
    assert.equal(read(null, '0151 2345678'), 'is not a phone number with its country code (such as +49 170 1234567)');
  });
});
