// Customers → Import over HTTP, as the owner's browser sends it: upload, mapping, dry run (nothing
// written), import (chunks in the server), report; bad files refused with nothing written; the
// customers, ledger rows, events and dashboard sums an import leaves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { customersRepo } from '../../src/customers/repo';
import { dashboardData } from '../../src/console/dashboard/service';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { insertCustomer, insertWebhook } from '../support/customers';
import { fieldsOf, figure, importSteps, type ImportSteps } from './console-steps';
import { customerFile, expectedCounts } from './support';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let upload: ImportSteps['upload'];
let check: ImportSteps['check'];
let runToEnd: ImportSteps['runToEnd'];

const count = (sql: string, ...params: unknown[]) => (app.db.prepare(sql).get(...params) as { n: number }).n;
const customersOfCard = (cardId: string, livemode = 1) => count('SELECT count(*) AS n FROM customers WHERE card_id = ? AND livemode = ?', cardId, livemode);

before(async () => {
  // Mail set up (nothing listens there): the test app runs no mail worker, so queued emails stay rows.
  app = await startTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'Import Café <shop@example.com>' } });
  org = await seedConsoleOrg(app, 'Import Café');
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
  ({ upload, check, runToEnd } = importSteps(app, client));
});
after(() => app.close());

describe('console import of a few hundred customers with bad rows', () => {
  const file = customerFile(300);
  const counts = expectedCounts(file.rows);
  let path: string;
  let webhookId: string;

  before(() => {
    webhookId = insertWebhook(app, org.orgId, true);
  });

  it('uploads the file and suggests a mapping from its headers', async () => {
    const res = await upload({ name: 'stamp-me-export.csv', bytes: file.text }, org.cards.stamps);
    assert.equal(res.status, 303, res.text);
    path = res.location!;
    assert.match(path, /^\/console\/customers\/import\/imp_\w+$/);
    const page = await client.request('GET', path);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`<strong>stamp-me-export\\.csv</strong>: ${file.rows.length} rows`));
    assert.deepEqual(fieldsOf(page.text).mapping, ['firstName', 'lastName', 'email', 'phone', 'balance', 'q:size', 'q:memberNo']);
    assert.equal(customersOfCard(org.cards.stamps), 0, 'an upload writes no customer');
  });

  it('refuses a mapping without a name, email, phone or external id, or with a field twice', async () => {
    const none = await check(path, ['', '', '', '', 'balance', '', '']);
    assert.equal(none.status, 400);
    assert.match(none.text, /Choose a column for at least one of name, email, phone or external id/);
    const twice = await check(path, ['firstName', 'lastName', 'email', 'email', 'balance', '', '']);
    assert.equal(twice.status, 400);
    assert.match(twice.text, /“E-Mail” already goes there/);
    const both = await check(path, ['name', 'lastName', 'email', '', '', '', '']);
    assert.equal(both.status, 400);
    assert.match(both.text, /Choose either Name, or First name and Last name/);
    assert.doesNotMatch(both.text, /Import \d+ customers/, 'no import button without a dry run');
  });

  it('a dry run reports what would happen, each refused row with its row, column and message, and writes nothing', async () => {
    const changes = count('SELECT total_changes() AS n');
    const res = await check(path, ['firstName', 'lastName', 'email', 'phone', 'balance', 'q:size', 'q:memberNo']);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual({ created: figure(res.text, 'created'), matched: figure(res.text, 'matched'), refused: figure(res.text, 'refused') }, counts);
    const table = /<table class="stacked refused-table"[\s\S]*?<\/table>/.exec(res.text)![0];
    const shown = [...table.matchAll(/<td data-label="Row" class="num">(\d+)<\/td><td data-label="Column">([^<]*)<\/td><td data-label="Problem">([^<]*)<\/td>/g)];
    const refused = file.rows.filter((r) => r.outcome === 'refused');
    assert.equal(shown.length, refused.length);
    refused.forEach((r, i) => {
      assert.equal(Number(shown[i]![1]), r.row);
      assert.equal(shown[i]![2], r.column ?? '—');
      assert.match(shown[i]![3]!.replace(/&#39;|&quot;/g, "'"), r.message!);
    });
    assert.match(res.text, /<button type="submit">Import 300 customers<\/button>/);
    assert.equal(customersOfCard(org.cards.stamps), 0);
    // The only write is the checked mapping on the draft itself.
    assert.equal(count('SELECT total_changes() AS n') - changes, 1);
    const csv = parse((await client.request('GET', `${path}/check.csv`)).text, { bom: true, columns: true }) as Record<string, string>[];
    assert.deepEqual(csv.map((r) => Number(r.Row)), refused.map((r) => r.row));
  });

  it('imports in the server, then reports created, matched and refused rows as CSV', async () => {
    const done = await runToEnd(path);
    assert.deepEqual({ created: figure(done, 'created'), matched: figure(done, 'matched'), refused: figure(done, 'refused') }, counts);
    assert.equal(customersOfCard(org.cards.stamps), counts.created);
    const report = parse((await client.request('GET', `${path}/report.csv`)).text, { bom: true, columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(report[0]!), ['Row', 'Outcome', 'Column', 'Message', 'Customer id']);
    assert.deepEqual(report.map((r) => [Number(r.Row), r.Outcome]), file.rows.map((r) => [r.row, r.outcome]));
    assert.ok(report.filter((r) => r.Outcome !== 'refused').every((r) => /^pu_\w{24}$/.test(r['Customer id']!)));
    assert.equal(count("SELECT count(*) AS n FROM imports WHERE csv IS NOT NULL AND status = 'done'"), 0, 'the file is not kept once imported');
  });

  it('creates each customer through enroll: answers, opening balance as one "Imported balance" row, customer.enrolled with source import', () => {
    const [first] = customersRepo(app.db).findByEmail({ orgId: org.orgId, livemode: true }, 'c5@example.com', org.cards.stamps);
    assert.ok(first);
    assert.equal(first.name, 'First5 Two Lines');
    assert.equal(first.source, 'import');
    assert.equal(first.phoneNorm, '+491701000005');
    assert.deepEqual(first.customFields, { size: 'S', memberNo: 1005 });
    assert.equal(first.balance, 500);
    assert.deepEqual(app.db.prepare('SELECT kind, change, source, note, is_award FROM transactions WHERE customer_id = ?').all(first.id), [
      { kind: 'initial', change: 500, source: 'import', note: 'Imported balance', is_award: 0 },
    ]);
    const events = app.db.prepare("SELECT type, payload FROM events WHERE customer_id = ? ORDER BY rowid").all(first.id) as { type: string; payload: string }[];
    assert.deepEqual(events.map((e) => e.type), ['customer.enrolled'], 'no balance.updated for an opening balance');
    assert.equal(JSON.parse(events[0]!.payload).data.source, 'import');
    assert.equal(count("SELECT count(*) AS n FROM events WHERE type = 'customer.enrolled' AND org_id = ?", org.orgId), counts.created);
    assert.equal(count('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?', webhookId), counts.created);
    const zero = customersRepo(app.db).findByEmail({ orgId: org.orgId, livemode: true }, 'c0@example.com', org.cards.stamps)[0]!;
    assert.equal(zero.balance, 0, 'no ledger row for a zero opening balance');
    assert.equal(zero.name, 'First0 Smith; "Jr" 0');
  });

  it('the dashboard shows the imported customers and balances under Imported, never as stamps awarded', async () => {
    const data = dashboardData(app.db, { orgId: org.orgId, livemode: true }, app.clock.now());
    const imported = data.byChannel.today.find((b) => b.key === 'import')!;
    const stamps = file.rows.filter((r) => r.outcome === 'created').reduce((sum, r) => sum + Number(r.cells[4]) * 100, 0);
    assert.equal(imported.label, 'Imported');
    assert.equal(imported.totals.newCustomers, counts.created);
    assert.equal(imported.totals.importedStamps, stamps);
    assert.equal(data.today.stamps, 0, 'no stamps awarded');
    assert.equal(data.today.awards, 0);
    const page = await client.request('GET', '/console/dashboard');
    assert.match(page.text, /Stamps imported/);
  });

  it('emails every customer the import created their card once, and again only when asked', async () => {
    const queuedFor = () => count("SELECT count(*) AS n FROM mail_sends WHERE kind = 'card' AND requested_via = 'import' AND status = 'pending'");
    const send = async (resend: boolean) => {
      const page = await client.request('GET', path);
      assert.match(page.text, /Email every imported customer their card/);
      const res = await client.request('POST', `${path}/email`, { form: { _csrf: fieldsOf(page.text).csrf, ...(resend ? { resend: '1' } : {}) } });
      assert.equal(res.status, 303);
      return (await client.request('GET', res.headers.get('location')!)).text;
    };
    // Every created row of the file has an email address.
    const first = await send(false);
    assert.equal(queuedFor(), counts.created);
    assert.match(first, new RegExp(`${counts.created} emails are on their way`));
    const again = await send(false);
    assert.equal(queuedFor(), counts.created, 'never twice unless asked');
    assert.match(again, /No email was queued\. \d+ customers were sent their card already\./);
    await send(true);
    assert.equal(queuedFor(), 2 * counts.created);
    const imported = new Set(customersRepo(app.db).findByEmail({ orgId: org.orgId, livemode: true }, 'c1@example.com', org.cards.stamps).map((c) => c.id));
    assert.equal(count('SELECT count(*) AS n FROM mail_sends WHERE customer_id = ?', [...imported][0]), 2);
  });

  it('importing the same file again creates nothing: every row that was imported is matched', async () => {
    const again = await upload({ name: 'again.csv', bytes: file.text }, org.cards.stamps);
    const res = await check(again.location!, ['firstName', 'lastName', 'email', 'phone', 'balance', 'q:size', 'q:memberNo']);
    assert.deepEqual({ created: figure(res.text, 'created'), matched: figure(res.text, 'matched'), refused: figure(res.text, 'refused') }, { created: 0, matched: counts.created + counts.matched, refused: counts.refused });
    assert.match(res.text, /There is nobody new to import/);
    assert.equal(customersOfCard(org.cards.stamps), counts.created);
  });
});

describe('rows with only a name', () => {
  it('are recognised when the very same file is imported again, and not otherwise', async () => {
    const text = 'Name\nAda Lovelace\nAda Lovelace\nGrace Hopper\n';
    const first = await upload({ name: 'names.csv', bytes: text }, org.cards.points);
    await check(first.location!, ['name']);
    await runToEnd(first.location!);
    assert.equal(customersOfCard(org.cards.points), 3, 'two people may share a name');
    const again = await upload({ name: 'names.csv', bytes: text }, org.cards.points);
    const res = await check(again.location!, ['name']);
    assert.deepEqual([figure(res.text, 'created'), figure(res.text, 'matched')], [0, 3]);
    assert.match(res.text, /There is nobody new to import/);
  });
});

describe('files the import cannot use: a clear message, nothing written', () => {
  const cases: { name: string; file: { name: string; bytes: Buffer | string }; message: RegExp }[] = [
    { name: 'an empty file', file: { name: 'empty.csv', bytes: '' }, message: /The file is empty/ },
    { name: 'an Excel workbook', file: { name: 'customers.xlsx', bytes: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 1)]) }, message: /spreadsheet workbook \(\.xlsx or \.ods\), not a CSV file/ },
    { name: 'an image', file: { name: 'logo.png', bytes: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') }, message: /not a CSV file \(it is not plain text\)/ },
    { name: 'a header only', file: { name: 'header.csv', bytes: 'Name,Email\r\n' }, message: /a header but no customer rows/ },
    { name: 'a quote never closed', file: { name: 'broken.csv', bytes: 'Name,Email\n"Ada,ada@example.com\n' }, message: /could not be read as CSV \(a quote is never closed/ },
    { name: 'more than 10 MB', file: { name: 'big.csv', bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') }, message: /larger than 10 MB/ },
    { name: 'more than 50,000 rows', file: { name: 'long.csv', bytes: `Email\n${Array.from({ length: 50_001 }, (_, i) => `c${i}@example.com`).join('\n')}\n` }, message: /more than 50,000 customer rows/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const drafts = count('SELECT count(*) AS n FROM imports');
      const res = await upload(c.file, org.cards.levels);
      assert.equal(res.status, 400);
      assert.match(res.text, c.message);
      assert.match(res.text, /aria-invalid="true"/);
      assert.equal(count('SELECT count(*) AS n FROM imports'), drafts);
    });
  }

  it('a file with no column the import can use is refused at the mapping step', async () => {
    const res = await upload({ name: 'odd.csv', bytes: 'Colour,Shoe size\nred,42\n' }, org.cards.levels);
    assert.equal(res.status, 303);
    const page = await client.request('GET', res.location!);
    assert.deepEqual(fieldsOf(page.text).mapping, ['', '']);
    const checked = await check(res.location!, ['', '']);
    assert.equal(checked.status, 400);
    assert.match(checked.text, /Choose a column for at least one of name, email, phone or external id/);
    assert.equal(customersOfCard(org.cards.levels), 0);
  });

  it("an import of another org or mode is not found, and a draft can't start before its dry run", async () => {
    const res = await upload({ name: 'x.csv', bytes: 'Email\nx@example.com\n' }, org.cards.levels);
    const page = await client.request('GET', res.location!);
    const start = await client.request('POST', `${res.location}/start`, { form: { _csrf: fieldsOf(page.text).csrf } });
    assert.equal(start.status, 409);
    assert.match(start.text, /check the file \(dry run\) before importing it/i);
    assert.equal((await client.request('GET', '/console/customers/import/imp_nosuchimport')).status, 404);
  });
});

describe('a draft uploaded before its header and first values were kept apart', () => {
  it('shows its mapping form from the file, and checks it', async () => {
    const res = await upload({ name: 'older.csv', bytes: 'Name,Email\nAda,ada-older@example.com\n' }, org.cards.levels);
    app.db.prepare("UPDATE imports SET header = NULL, samples = NULL WHERE file_name = 'older.csv'").run();
    const page = await client.request('GET', res.location!);
    assert.equal(page.status, 200);
    assert.deepEqual(fieldsOf(page.text).mapping, ['name', 'email']);
    assert.match(page.text, /ada-older@example\.com/);
    const dry = await check(res.location!, ['name', 'email']);
    assert.equal(figure(dry.text, 'created'), 1);
  });
});

describe('test data', () => {
  it('holds at most 100 customers: the rows past it are refused with a clear message', async () => {
    const page = await client.request('GET', '/console/customers');
    await client.request('POST', '/console/mode', { form: { _csrf: fieldsOf(page.text).csrf, mode: 'test', returnTo: '/console/customers' } });
    for (let i = 0; i < 95; i++) insertCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, livemode: false, name: `Test ${i}` });
    const text = `Email,Cash_Balance\n${Array.from({ length: 8 }, (_, i) => `t${i}@example.com,12.50`).join('\n')}\n`;
    const res = await upload({ name: 'test.csv', bytes: text }, org.cards.prepaid);
    const dry = await check(res.location!, ['email', 'balance']);
    assert.deepEqual([figure(dry.text, 'created'), figure(dry.text, 'refused')], [5, 3]);
    assert.match(dry.text, /test data holds at most 100 customers/);
    const done = await runToEnd(res.location!);
    assert.deepEqual([figure(done, 'created'), figure(done, 'refused')], [5, 3]);
    assert.equal(customersOfCard(org.cards.prepaid, 0), 100);
    assert.equal(customersOfCard(org.cards.prepaid, 1), 0, 'nothing in live data');
    const credit = app.db.prepare("SELECT change FROM transactions WHERE source = 'import' AND livemode = 0").all() as { change: number }[];
    assert.deepEqual(credit.map((r) => r.change), [1250, 1250, 1250, 1250, 1250]);
  });
});


