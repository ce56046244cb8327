// The customer list as CSV: what the search and the card filter show, every page, streamed; quoted
// as spreadsheets read it; cells that a spreadsheet would run as a formula are defused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { csvCell } from '../../src/console/customers/csv';
import { exportLines } from '../../src/console/customers/export';
import { writeOrgSettings } from '../../src/orgs/settings';
import { cardsRepo } from '../../src/cards/repo';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { insertCustomer } from '../support/customers';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;

/** RFC 4180 read back: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += ch;
  }
  assert.equal(cell, '', 'the file ends with CRLF');
  return rows;
}

async function download(query = ''): Promise<{ status: number; headers: Headers; text: string; rows: { [column: string]: string }[] }> {
  const res = await client.request('GET', `/console/customers/export.csv${query}`);
  const [header, ...lines] = parseCsv(res.text.replace(/^\uFEFF/, ''));
  return { ...res, rows: lines.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]!])) as Record<string, string>) };
}

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Export Café');
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' }))();
  app.clock.set(Date.UTC(2026, 6, 1, 22, 30)); // 00:30 on 2 July in Berlin
  insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, name: 'Smith, "Jo"\nSecond line', email: 'jo@example.com', externalId: 'X-1', balance: 700 });
  app.clock.advance(60_000);
  insertCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, name: '=HYPERLINK("http://evil.example","click")', phone: '+49 170 1234567', balance: 1250 });
  app.clock.advance(60_000);
  insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, name: '@SUM(A1:A9)', email: 'level@example.com', balance: 15000 });
  app.clock.advance(60_000);
  insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, name: '-2+3', externalId: '+cmd' });
  for (let i = 0; i < 60; i++) insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, name: `Bulk Buyer ${i}` });
  insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, name: 'Test Only', livemode: false });
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
});
after(() => app.close());

describe('CSV export of the customer list', () => {
  it('is a download of every customer of the namespace, over more than one page of the list', async () => {
    const res = await download();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="customers-live-2026-07-02.csv"');
    // One column per question of any card after the fixed ones (the standard org's stamp card asks seven).
    assert.ok(res.text.startsWith('Name,Email,Phone,External id,Card,Balance,Unit,Level,Status,Joined via,Created,Consent given,Customer id,Member number,Cup size,Nickname,Birthday,Newsletter,Other email,Other phone\r\n'));
    // fetch's text() drops a byte-order mark; the bytes show it is there for spreadsheets.
    const bytes = Buffer.from(await (await fetch(`${app.url}/console/customers/export.csv`, { headers: { Cookie: client.cookieHeader() } })).arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0xef, 0xbb, 0xbf, 0x4e]);
    assert.equal(res.rows.length, 64);
    assert.ok(!res.rows.some((r) => r.Name === 'Test Only'), 'no test customer in a live export');
  });

  it('quotes commas, quotes and line breaks, and writes amounts in the card units', async () => {
    const { rows } = await download('?q=jo%40example.com');
    assert.equal(rows.length, 1);
    assert.deepEqual({ ...rows[0], 'Customer id': undefined }, {
      Name: 'Smith, "Jo"\nSecond line',
      Email: 'jo@example.com',
      Phone: '',
      'External id': 'X-1',
      Card: 'Coffee stamps',
      Balance: '7',
      Unit: 'stamps',
      Level: '',
      Status: 'Not installed yet',
      'Joined via': 'API',
      Created: '2026-07-02 00:30',
      'Consent given': '',
      'Customer id': undefined,
      ...Object.fromEntries(['Member number', 'Cup size', 'Nickname', 'Birthday', 'Newsletter', 'Other email', 'Other phone'].map((h) => [h, ''])),
    });
    const raw = (await client.request('GET', '/console/customers/export.csv?q=jo%40example.com')).text;
    assert.match(raw, /\r\n"Smith, ""Jo""\nSecond line",jo@example.com,/);
  });

  it("puts an apostrophe before a cell a spreadsheet would run as a formula (= + - @)", async () => {
    const { rows } = await download();
    const byCard = (name: string) => rows.find((r) => r.Name!.includes(name))!;
    assert.equal(byCard('HYPERLINK').Name, `'=HYPERLINK("http://evil.example","click")`);
    assert.equal(byCard('HYPERLINK').Phone, '+49 170 1234567', 'a phone number reads as one, without the apostrophe');
    assert.equal(byCard('HYPERLINK').Balance, '12.50', 'store credit with 2 decimals');
    assert.equal(byCard('HYPERLINK').Unit, 'EUR');
    assert.equal(byCard('SUM').Name, "'@SUM(A1:A9)");
    assert.equal(byCard('SUM').Level, 'Silver');
    assert.equal(byCard('-2+3').Name, "'-2+3");
    assert.equal(byCard('-2+3')['External id'], "'+cmd");
  });

  it('exports what the search and the card filter show', async () => {
    const bulk = await download('?q=bulk');
    assert.equal(bulk.rows.length, 60);
    assert.ok(bulk.rows.every((r) => r.Name!.startsWith('Bulk Buyer')));
    const points = await download(`?card=${org.cards.points}`);
    assert.equal(points.rows.length, 61);
    assert.ok(points.rows.every((r) => r.Card === 'Points'));
    const stampsBulk = await download(`?card=${org.cards.stamps}&q=bulk`);
    assert.equal(stampsBulk.rows.length, 0);
    assert.equal((await client.request('GET', '/console/customers/export.csv?card=card_unknown')).status, 404);
  });

  it('in test mode, exports the test customers with the day each is removed', async () => {
    const csrf = await client.csrfFrom('/console/customers');
    await client.request('POST', '/console/mode', { form: { _csrf: csrf, mode: 'test', returnTo: '/console/customers' } });
    try {
      const res = await download();
      assert.match(res.headers.get('content-disposition')!, /customers-test-/);
      assert.deepEqual(res.rows.map((r) => r.Name), ['Test Only']);
      assert.ok(res.rows[0]!['Removed on']!.startsWith('2026-08-01'));
    } finally {
      const again = await client.csrfFrom('/console/customers');
      await client.request('POST', '/console/mode', { form: { _csrf: again, mode: 'live', returnTo: '/console/customers' } });
    }
  });

  it('is written batch by batch: each batch is one keyset read, and all of them together are the whole list', () => {
    const cards = new Map(cardsRepo(app.db).listForOrg(org.orgId).map((c) => [c.id, c]));
    const consoleContext = { lang: 'en', livemode: true, namespace: { orgId: org.orgId, livemode: true } } as Parameters<typeof exportLines>[1];
    const chunks = [...exportLines(app.db, consoleContext, { q: '', cardId: null }, cards, 'UTC', 7)];
    assert.equal(chunks.length, 1 + Math.ceil(64 / 7), 'the header, then one chunk per batch of 7');
    const text = chunks.join('');
    assert.equal(parseCsv(text.slice(1)).length, 65);
  });
});

describe('csvCell', () => {
  const cases: [string | number | null, string][] = [
    ['plain', 'plain'],
    [null, ''],
    [12.5, '12.5'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded ', '" padded "'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@A1', "'@A1"],
    ['\t=1', "'\t=1"],
    ['=a,b', `"'=a,b"`],
  ];
  for (const [input, expected] of cases) it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.equal(csvCell(input), expected));
});
