// An erasure reaches what the import keeps of the person: a draft's file, the first values its
// mapping form shows and its stored dry run (the refused rows' CSV among them), and the values of a
// finished import's refused rows. A phone number written without its country code is the person's
// when the shop's country reads it as theirs, as the import itself reads it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inTransaction } from '../../src/db/transaction';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { fieldsOf, importSteps, type ImportSteps } from './console-steps';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let steps: ImportSteps;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Erasing Café');
  // A German shop: "0151 2345678" is +49 151 2345678.
  inTransaction(app.db, () => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin', country: 'DE' }));
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
  steps = importSteps(app, client);
});
after(() => app.close());

const csvText = (rows: string[][]) => rows.map((r) => r.join(';')).join('\r\n') + '\r\n';
const api = (method: string, path: string, body?: unknown) => app.request(method, `/api/v1${path}`, { key: org.keys.live, ...(body === undefined ? {} : { body }) });

interface ImportRow {
  file_name: string;
  csv: string | null;
  samples: string | null;
  check_report: string | null;
  check_csv: string | null;
  total_rows: number;
}
const importNamed = (name: string) => app.db.prepare('SELECT file_name, csv, samples, check_report, check_csv, total_rows FROM imports WHERE file_name = ?').get(name) as ImportRow;

async function enroll(person: { name: string; email?: string; phone?: string; externalCustomerId: string }): Promise<string> {
  const res = await api('POST', '/customers', { cardId: org.cards.stamps, ...person });
  assert.equal(res.status, 201, res.text);
  return res.body.passUserId as string;
}

describe('a draft import', () => {
  it('loses the person’s rows, by their email and by their phone written the shop’s way; its first values and stored dry run follow', async () => {
    const id = await enroll({ name: 'Ada Lovelace', email: 'ada@example.org', phone: '+49 151 2345678', externalCustomerId: 'crm-ada' });
    const file = [
      ['Name', 'E-Mail', 'Mobile', 'Stamps'],
      ['Ada Lovelace', '', '0151 2345678', '1'], // row 2: her phone, nationally written
      ['Grace Hopper', 'grace@example.org', '0170 1112223', '2'], // row 3: someone else
      ['Ada Half', 'ADA@example.org', '', '2.5'], // row 4: her email; refused by the dry run (half a stamp)
      ['Alan Turing', 'alan@example.org', '', 'x'], // row 5: refused, not her
    ];
    const upload = await steps.upload({ name: 'draft-ada.csv', bytes: csvText(file) }, org.cards.stamps);
    assert.equal(upload.status, 303, upload.text);
    const page = await client.request('GET', upload.location!);
    const dry = await steps.check(upload.location!, fieldsOf(page.text).mapping);
    assert.equal(dry.status, 200, dry.text);

    // The checks can fail: before the erasure each copy holds her.
    const before = importNamed('draft-ada.csv');
    assert.ok(before.csv!.includes('0151 2345678') && before.samples!.includes('0151 2345678') && before.samples!.includes('Ada Lovelace'));
    assert.ok(before.check_csv!.includes('ADA@example.org'), 'the refused rows’ CSV holds her row');
    assert.notEqual(before.check_report, null);

    assert.equal((await api('DELETE', `/customers/pu_${id}`)).status, 200);

    const after = importNamed('draft-ada.csv');
    for (const value of ['Ada Lovelace', '0151 2345678', 'ADA@example.org', 'Ada Half']) {
      assert.ok(!after.csv!.includes(value), `${value} left the file`);
      assert.ok(!after.samples!.includes(value), `${value} left the first values`);
    }
    assert.deepEqual(JSON.parse(after.samples!), [['Grace Hopper', 'Alan Turing'], ['grace@example.org', 'alan@example.org'], ['0170 1112223'], ['2', 'x']]);
    assert.equal(after.total_rows, 2);
    assert.equal(after.check_report, null, 'the dry run of the file as it was is gone');
    assert.equal(after.check_csv, null);
    // The draft is still the owner's to check and import.
    const again = await client.request('GET', upload.location!);
    assert.equal(again.status, 200);
    assert.match(again.text, /Grace Hopper/);
    assert.equal((await steps.check(upload.location!, fieldsOf(again.text).mapping)).status, 200);
  });
});

describe('a finished import', () => {
  it('forgets the values of the person’s refused rows and keeps their number and reason; other refused rows keep theirs', async () => {
    const file = [
      ['Name', 'E-Mail', 'Mobile', 'Stamps'],
      ['Bo Person', 'bo@example.org', '+49 151 9876543', '1'], // row 2: created
      ['Bo Again', 'BO@example.org', '', '2'], // row 3: refused, the email of row 2
      ['Bo Phone', '', '0151 9876543', '1'], // row 4: refused, the phone of row 2, written nationally
      ['Cy Other', 'cy@example.org', '', 'x'], // row 5: refused, not Bo
    ];
    const upload = await steps.upload({ name: 'done-bo.csv', bytes: csvText(file) }, org.cards.stamps);
    assert.equal(upload.status, 303, upload.text);
    const page = await client.request('GET', upload.location!);
    await steps.check(upload.location!, fieldsOf(page.text).mapping);
    await steps.runToEnd(upload.location!);
    const importId = /\/console\/customers\/import\/(imp_\w+)/.exec(upload.location!)![1]!;
    const cells = () => Object.fromEntries((app.db.prepare("SELECT row, cells FROM import_rows WHERE import_id = ? AND outcome = 'refused' ORDER BY row").all(importId) as { row: number; cells: string | null }[]).map((r) => [r.row, r.cells]));
    const reasons = () => app.db.prepare("SELECT row, column_name, message FROM import_rows WHERE import_id = ? AND outcome = 'refused' ORDER BY row").all(importId);
    assert.deepEqual(Object.keys(cells()), ['3', '4', '5']);
    assert.ok(Object.values(cells()).every((c) => c !== null), 'kept before the erasure');
    const before = reasons();

    assert.equal((await api('DELETE', '/customers/email:bo@example.org')).status, 200);

    assert.deepEqual(cells(), { 3: null, 4: null, 5: JSON.stringify(['Cy Other', 'cy@example.org', '', 'x']) });
    assert.deepEqual(reasons(), before, 'the report stays');
    const refused = await client.request('GET', `${upload.location!}/refused.csv`);
    assert.equal(refused.status, 200);
    assert.ok(!/Bo |bo@|9876543/i.test(refused.text), refused.text);
    assert.match(refused.text, /Cy Other/);
  });
});
