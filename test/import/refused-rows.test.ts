// Rows of one file that repeat an earlier row's email, phone or external id: the dry run flags
// each with the row it repeats, the import refuses it (never merges it into that row's customer),
// and the refused rows come back as a CSV with their values and the reason, under the file's own
// headers, to be fixed and imported again as they are. The dry run is made once and kept with
// the draft: its page and its CSV never read the file again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { sweepImportDrafts } from '../../src/import/service';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { fieldsOf, figures, importSteps, type ImportSteps } from './console-steps';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let steps: ImportSteps;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Twin Café');
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
  steps = importSteps(app, client);
});
after(() => app.close());

const HEADER = ['Name', 'E-Mail', 'Mobile', 'Member id', 'Stamps'];
const FILE = [
  HEADER,
  ['Ada Lovelace', 'ada@example.com', '+44 7700 900001', 'M1', '3'], // row 2
  ['Bob Marley', 'bob@example.com', '+44 7700 900002', 'M2', '4'], // row 3
  ['Ada Twin', 'ADA@Example.com', '+44 7700 900003', 'M3', '5'], // row 4: the email of row 2
  ['Bob Junior', '', '+44 (7700) 900-002', 'M4', '6'], // row 5: the phone of row 3
  ['Carl Jung', 'carl@example.com', '', 'M1', '7'], // row 6: the external id of row 2
  ['Dora Maar', 'dora@example.com', '', 'M5', '=1+1'], // row 7: no number
];
const REFUSED = [
  { Row: '4', 'Refused because': 'E-Mail: same email as row 2', values: FILE[3]! },
  { Row: '5', 'Refused because': 'Mobile: same phone as row 3', values: [...FILE[4]!.slice(0, 2), '+44 7700 900002', ...FILE[4]!.slice(3)] },
  { Row: '6', 'Refused because': 'Member id: same external id as row 2', values: FILE[5]! },
  { Row: '7', 'Refused because': 'Stamps: is not a whole number of stamps (such as 7)', values: FILE[6]! },
];
const csvText = (rows: string[][]) => rows.map((r) => r.join(',')).join('\r\n') + '\r\n';
const count = (sql: string) => (app.db.prepare(sql).get() as { n: number }).n;

/** A downloaded refused-rows CSV: its header, and each row as the owner's spreadsheet reads it. */
function readRefusedCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  const records = parse(text, { bom: true }) as string[][];
  const header = records[0]!;
  return { header, rows: records.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) };
}

function assertRefusedRows(text: string): void {
  const { header, rows } = readRefusedCsv(text);
  assert.deepEqual(header, ['Row', 'Refused because', ...HEADER]);
  assert.deepEqual(
    rows.map((r) => ({ Row: r.Row, 'Refused because': r['Refused because'], values: HEADER.map((h) => r[h]!.replace(/^'(?=[=+\-@])/, '')) })),
    REFUSED,
  );
}

describe('rows that repeat an earlier row of the file', () => {
  let path: string;
  let checkCsv: string;

  it('the dry run flags each repeat with the row it repeats', async () => {
    const res = await steps.upload({ name: 'twins.csv', bytes: csvText(FILE) }, org.cards.stamps);
    assert.equal(res.status, 303, res.text);
    path = res.location!;
    const page = await client.request('GET', path);
    const mapping = fieldsOf(page.text).mapping;
    assert.deepEqual(mapping, ['name', 'email', 'phone', 'externalId', 'balance']);
    const dry = await steps.check(path, mapping);
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(figures(dry.text), { created: 2, matched: 0, refused: 4 });
    const shown = [...dry.text.matchAll(/<td data-label="Row" class="num">(\d+)<\/td><td data-label="Column">([^<]*)<\/td><td data-label="Problem">([^<]*)<\/td>/g)].map((m) => `${m[1]} ${m[2]}: ${m[3]}`);
    assert.deepEqual(shown.slice(0, 3), ['4 E-Mail: same email as row 2', '5 Mobile: same phone as row 3', '6 Member id: same external id as row 2']);
    assert.equal(count('SELECT count(*) AS n FROM customers'), 0, 'a dry run writes nothing');
  });

  it('offers the refused rows as CSV: the row, the reason and its values under the file’s headers', async () => {
    const res = await client.request('GET', `${path}/check.csv`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition')!, /attachment; filename="refused-rows-imp_\w+\.csv"/);
    checkCsv = res.text;
    assertRefusedRows(checkCsv);
  });

  it('keeps the dry run with the draft: its page and its CSV never read the file again', async () => {
    const stored = app.db.prepare('SELECT csv FROM imports WHERE file_name = ?').get('twins.csv') as { csv: string };
    // A file that can no longer be read: a page or a CSV that read it again would fail.
    app.db.prepare("UPDATE imports SET csv = 'Name' WHERE file_name = 'twins.csv'").run();
    const page = await client.request('GET', path);
    assert.equal(page.status, 200);
    assert.deepEqual(figures(page.text), { created: 2, matched: 0, refused: 4 });
    assert.deepEqual(fieldsOf(page.text).mapping, ['name', 'email', 'phone', 'externalId', 'balance']);
    assert.equal((await client.request('GET', `${path}/check.csv`)).text, checkCsv);
    app.db.prepare("UPDATE imports SET csv = ? WHERE file_name = 'twins.csv'").run(stored.csv);
  });

  it('the import refuses the repeats: the first row’s customer is left as it was', async () => {
    const done = await steps.runToEnd(path);
    assert.deepEqual(figures(done), { created: 2, matched: 0, refused: 4 });
    const ada = app.db.prepare("SELECT name, balance FROM customers WHERE email_norm = 'ada@example.com'").all();
    assert.deepEqual(ada, [{ name: 'Ada Lovelace', balance: 300 }]);
    assert.equal(count('SELECT count(*) AS n FROM customers'), 2);
  });

  it('the finished import offers the same refused rows, and they import again once fixed', async () => {
    const page = await client.request('GET', path);
    assert.match(page.text, /Download the refused rows \(CSV\)/);
    const refused = await client.request('GET', `${path}/refused.csv`);
    assert.equal(refused.status, 200);
    assertRefusedRows(refused.text);

    // The owner fixes each row in the downloaded file and uploads it as it is.
    const fixes: Record<string, [string, string]> = { '4': ['E-Mail', 'ada.twin@example.com'], '5': ['Mobile', '+44 7700 900005'], '6': ['Member id', 'M6'], '7': ['Stamps', '2'] };
    const records = parse(refused.text, { bom: true }) as string[][];
    const header = records[0]!;
    const fixed = [header, ...records.slice(1).map((r) => r.map((cell, i) => (fixes[r[0]!]![0] === header[i] ? fixes[r[0]!]![1] : cell)))];
    const again = await steps.upload({ name: 'refused-fixed.csv', bytes: csvText(fixed.map((r) => r.map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)))) }, org.cards.stamps);
    assert.equal(again.status, 303, again.text);
    const form = await client.request('GET', again.location!);
    assert.deepEqual(fieldsOf(form.text).mapping, ['', '', 'name', 'email', 'phone', 'externalId', 'balance'], 'the row and the reason are left out');
    const dry = await steps.check(again.location!, fieldsOf(form.text).mapping);
    assert.deepEqual(figures(dry.text), { created: 4, matched: 0, refused: 0 });
    await steps.runToEnd(again.location!);
    assert.equal(count('SELECT count(*) AS n FROM customers'), 6);
    assert.equal(count("SELECT count(*) AS n FROM customers WHERE name = 'Dora Maar' AND balance = 200"), 1);
  });

  it('forgets the refused rows’ values 30 days after the import, keeping the report', async () => {
    app.clock.advance(29 * 86_400_000);
    sweepImportDrafts(app.deps);
    await client.signIn(org.admin.email, org.admin.password); // the session ended meanwhile
    assert.equal((await client.request('GET', `${path}/refused.csv`)).status, 200);
    app.clock.advance(2 * 86_400_000);
    sweepImportDrafts(app.deps);
    await client.signIn(org.admin.email, org.admin.password);
    assert.equal(count('SELECT count(*) AS n FROM import_rows WHERE cells IS NOT NULL'), 0);
    assert.equal((await client.request('GET', `${path}/refused.csv`)).status, 404);
    assert.doesNotMatch((await client.request('GET', path)).text, /Download the refused rows/);
    const report = parse((await client.request('GET', `${path}/report.csv`)).text, { bom: true, columns: true }) as Record<string, string>[];
    assert.deepEqual(report.filter((r) => r.Outcome === 'refused').map((r) => r.Row), ['4', '5', '6', '7']);
  });
});
