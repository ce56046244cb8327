// The console's Report page and its CSV over HTTP: one card's month with figures worked out by
// hand (an opening balance from enrolment, earns with a promotion, corrections both ways, a
// reward, an award at 23:58 on the 31st undone at 00:02 on the 1st), the form's refusals on their
// fields, live data only, and the CSV of one card and of every card.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enrollCustomer } from '../../src/loyalty/enroll';
import { customersRepo } from '../../src/customers/repo';
import { adjust, earn, redeem, reverseTransaction } from '../../src/loyalty/service';
import { writeOrgSettings } from '../../src/orgs/settings';
import { staffRepo } from '../../src/staff/repo';
import type { TestApp } from '../support/app';
import { seedBooksOrg, type BooksOrg } from '../support/books-year';
import { ConsoleClient, seedConsoleOrg, startTestApp } from '../support/console';

let app: TestApp;
let org: BooksOrg;
let client: ConsoleClient;

// Berlin: CET (UTC+1) until 29 March 2026, CEST (UTC+2) from then on.
const berlin = (iso: string, offsetHours: number) => Date.parse(`${iso}Z`) - offsetHours * 3_600_000;

before(async () => {
  app = await startTestApp();
  app.clock.set(berlin('2026-02-20T12:00:00', 1));
  org = await seedBooksOrg(app);
  const sam = staffRepo(app.db).list(org.orgId).find((s) => s.name === 'Sam')!;
  const live = { orgId: org.orgId, livemode: true };
  app.clock.set(berlin('2026-02-25T10:00:00', 1));
  const ada = enrollCustomer(app.deps, live, { cardId: org.cards.stamps, externalCustomerId: 'ada', name: 'Ada', initialPoints: 4 }, { channel: 'api', idempotencyKey: null }).passUserId;
  const fresh = () => customersRepo(app.db).findByPassUserId(ada)!;
  const stamps = (amount: number, source: 'api' | 'scan' = 'api') => earn(app.deps, { customer: fresh(), source, staff: source === 'scan' ? { id: sam.id, name: sam.name } : null, type: 'stamps', basis: { from: 'amount', amount: amount * 100 } });

  app.clock.set(berlin('2026-03-02T10:00:00', 1));
  stamps(3);
  app.clock.set(berlin('2026-03-07T09:00:00', 1)); // Saturday morning: one stamp more
  stamps(2, 'scan');
  app.clock.set(berlin('2026-03-09T10:00:00', 1));
  adjust(app.deps, { customer: fresh(), source: 'console', balanceCorrection: 200, note: 'goodwill' });
  adjust(app.deps, { customer: fresh(), source: 'console', balanceCorrection: -100, note: 'typo' });
  app.clock.set(berlin('2026-03-10T10:00:00', 1));
  redeem(app.deps, { customer: fresh(), source: 'scan', staff: { id: sam.id, name: sam.name }, type: 'reward' });
  app.clock.set(berlin('2026-03-31T23:58:00', 2));
  const late = stamps(1, 'scan');
  app.clock.set(berlin('2026-04-01T00:02:00', 2));
  reverseTransaction(app.deps, { customer: fresh(), transactionId: late.transaction.id, source: 'scan', staff: { id: sam.id, name: sam.name } });
  // Test data: never in the books.
  enrollCustomer(app.deps, { orgId: org.orgId, livemode: false }, { cardId: org.cards.stamps, externalCustomerId: 'sandbox', initialPoints: 50 }, { channel: 'api', idempotencyKey: null });

  app.clock.set(berlin('2026-04-02T09:00:00', 2));
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
});
after(() => app.close());

/** The books table as { line: [units, money] }. */
function table(page: string): Record<string, string[]> {
  const body = /<table class="books-table"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1];
  assert.ok(body, 'the page has the books table');
  const rows: Record<string, string[]> = {};
  for (const row of body.matchAll(/<tr class="[a-z]+">\s*<th scope="row">([^<]*)<\/th>([\s\S]*?)<\/tr>/g)) rows[row[1]!] = [...row[2]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]!);
  return rows;
}

const get = (path: string) => client.request('GET', path);

/** Runs `fn` with the admin's console language set to German (Settings → Account), then back to English. */
async function inGerman(fn: () => Promise<void>) {
  const setLanguage = async (language: 'de' | 'en') => {
    const csrf = await client.csrfFrom('/console/settings/account');
    assert.equal((await client.request('POST', '/console/settings/account', { form: { _csrf: csrf, language } })).status, 303);
  };
  await setLanguage('de');
  try {
    await fn();
  } finally {
    await setLanguage('en');
  }
}

describe('the Report page', () => {
  it('is in the console menu; without a month it shows the month so far of the first card', async () => {
    const res = await get('/console/report');
    assert.equal(res.status, 200);
    assert.match(res.text, /<a href="\/console\/report" aria-current="page">Report<\/a>/);
    assert.match(res.text, /<label for="f-month">Month<\/label>\s*<input id="f-month" name="month" type="month" value="2026-04"/);
    assert.match(res.text, /<label for="f-card">Card<\/label>/);
    assert.match(res.text, /<h2 id="books-heading">Coffee stamps · April 2026 so far<\/h2>/);
    // The award of 31 March undone on 1 April nets against Earned in April.
    assert.deepEqual(table(res.text).Earned, ['−1', '−0.30']);
  });

  it("a month's books of one card, worked out by hand, in stamps and in money", async () => {
    const res = await get(`/console/report?month=2026-03&card=${org.cards.stamps}`);
    assert.equal(res.status, 200);
    assert.match(res.text, /<h2 id="books-heading">Coffee stamps · March 2026<\/h2>/);
    assert.match(res.text, /One stamp is worth 0\.30\./);
    assert.deepEqual(table(res.text), {
      'Opening balance': ['4', '1.20'],
      Earned: ['+7', '+2.10'],
      'of which promotions': ['+1', '+0.30'],
      'Birthday treats': ['0', '0.00'],
      Imported: ['0', '0.00'],
      'Corrections added': ['+2', '+0.60'],
      'Corrections taken off': ['−1', '−0.30'],
      Redeemed: ['−10', '−3.00'],
      Expired: ['0', '0.00'],
      'Closing balance': ['2', '0.60'],
      'Customers with a balance': ['1', ''],
    });
    const february = table((await get(`/console/report?month=2026-02&card=${org.cards.stamps}`)).text);
    assert.deepEqual([february['Opening balance'], february.Imported, february['Closing balance']], [['0', '0.00'], ['+4', '+1.20'], ['4', '1.20']]);
  });

  it('draws the movements as an SVG chart a screen reader can read', async () => {
    const res = await get(`/console/report?month=2026-03&card=${org.cards.stamps}`);
    const svg = /<svg class="movements-chart"[\s\S]*?<\/svg>/.exec(res.text)?.[0];
    assert.ok(svg);
    assert.match(svg, /role="img" aria-labelledby="movements-title movements-desc"/);
    assert.match(svg, /<title id="movements-title">Movements of Coffee stamps in March 2026, in stamps<\/title>/);
    assert.match(svg, /<desc id="movements-desc">Earned: \+7; Birthday: 0; Imported: 0; Corrected \+: \+2; Corrected −: −1; Redeemed: −10; Expired: 0\.<\/desc>/);
    // Increases to the right of the zero line, decreases to its left; nothing drawn for 0.
    const bars = [...svg.matchAll(/<rect class="bar (in|out)" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)].map((m) => ({ side: m[1], x: Number(m[2]), width: Number(m[3]) }));
    assert.deepEqual(bars.map((b) => b.side), ['in', 'in', 'in', 'in', 'out', 'out', 'in']);
    const zero = Number(/<rect class="axis" x="([\d.]+)"/.exec(svg)![1]) + 0.5;
    assert.ok(Math.abs(bars[0]!.x - zero) < 0.01 && Math.abs(bars[5]!.x + bars[5]!.width - zero) < 0.01, 'bars start at the zero line');
    assert.ok(bars[5]!.width > bars[0]!.width, 'the redemption (10) is longer than the earned 7');
    assert.equal(bars[1]!.width, 0);
  });

  it('in German: the words, numbers, month and money as a German admin reads them, and the shop’s currency', async () => {
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { currency: 'EUR' }))();
    try {
      await inGerman(async () => {
        const res = await get(`/console/report?month=2026-03&card=${org.cards.stamps}`);
        assert.equal(res.status, 200);
        assert.match(res.text, /<h1>Bericht<\/h1>/);
        assert.match(res.text, /<label for="f-month">Monat<\/label>/);
        assert.match(res.text, /<h2 id="books-heading">Coffee stamps · März 2026<\/h2>/);
        assert.match(res.text, /Stempelkarte · Ein Stempel ist 0,30\u00a0€ wert\./);
        assert.match(res.text, /<th scope="col" class="num">Stempel<\/th><th scope="col" class="num">Geldwert \(EUR\)<\/th>/);
        assert.deepEqual(table(res.text), {
          Anfangsbestand: ['4', '1,20\u00a0€'],
          Gesammelt: ['+7', '+2,10\u00a0€'],
          'davon durch Aktionen': ['+1', '+0,30\u00a0€'],
          'Zum Geburtstag': ['0', '0,00\u00a0€'],
          Importiert: ['0', '0,00\u00a0€'],
          'Korrekturen nach oben': ['+2', '+0,60\u00a0€'],
          'Korrekturen nach unten': ['−1', '−0,30\u00a0€'],
          Eingelöst: ['−10', '−3,00\u00a0€'],
          Verfallen: ['0', '0,00\u00a0€'],
          Endbestand: ['2', '0,60\u00a0€'],
          'Kunden mit Guthaben': ['1', ''],
        });
        assert.match(res.text, /<title id="movements-title">Bewegungen von Coffee stamps im März 2026, in Stempeln<\/title>/);
        assert.match(res.text, /<desc id="movements-desc">Gesammelt: \+7; Geburtstag: 0; Importiert: 0; Korrektur \+: \+2; Korrektur −: −1; Eingelöst: −10; Verfallen: 0\.<\/desc>/);
        assert.match(res.text, />CSV herunterladen<\/a>/);

        const refused = await get('/console/report?month=2026-05');
        assert.equal(refused.status, 400);
        assert.match(refused.text, /<span class="error" id="f-month-error">2026-05 hat noch nicht begonnen\.<\/span>/);
        assert.match((await get('/console/report?month=März')).text, /<span class="error" id="f-month-error">Geben Sie einen Monat als JJJJ-MM an, z\. B\. 2026-03\.<\/span>/);

        // The download: German headers, numbers as plain as in English, the shop's currency.
        const csv = await get(`/console/report.csv?month=2026-03&card=${org.cards.stamps}`);
        const [header, line] = csv.text.replace(/^\uFEFF/, '').split('\r\n');
        assert.match(header!, /^Monat,Karten-ID,Karte,Einheit,Anfangsbestand,Gesammelt,Davon durch Aktionen,/);
        assert.match(header!, /,Endbestand \(Geldwert\)$/);
        assert.equal(line, `2026-03,${org.cards.stamps},Coffee stamps,Stempel,4,7,1,0,0,2,-1,-10,0,2,1,EUR,0.3,1.2,2.1,0.3,0,0,0.6,-0.3,-3,0,0,0.6`);
        assert.match((await get('/console/report.csv?month=2026-3')).text, /Monat: Geben Sie einen Monat als JJJJ-MM an/);
      });
    } finally {
      app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { currency: null }))();
    }
  });

  it('a card without a unit value shows units only; store credit is money', async () => {
    const club = await get(`/console/report?month=2026-03&card=${org.cards.levels}`);
    assert.equal(club.status, 200);
    assert.match(club.text, /Give a unit a money value in the card’s settings/);
    assert.deepEqual(table(club.text)['Closing balance'], ['0']);
    const gift = await get(`/console/report?month=2026-03&card=${org.cards.prepaid}`);
    assert.match(gift.text, /<th scope="col" class="num">Credit<\/th><\/tr>/);
    assert.deepEqual(table(gift.text)['Closing balance'], ['€0.00']);
  });

  const refusals: { name: string; query: string; field: 'month' | 'card'; message: RegExp }[] = [
    { name: 'a month that is no month', query: 'month=2026-13', field: 'month', message: /Must be a month written YYYY-MM, e\.g\. 2026-03/ },
    { name: 'a month in words', query: 'month=March', field: 'month', message: /Must be a month written YYYY-MM/ },
    { name: 'a month that has not begun', query: 'month=2026-05', field: 'month', message: /2026-05 has not begun yet/ },
    { name: 'a card that does not exist', query: 'month=2026-03&card=card_nope', field: 'card', message: /Pick one of your cards\./ },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}: 400, the form back with the message on its field, no figures`, async () => {
      const res = await get(`/console/report?${r.query}`);
      assert.equal(res.status, 400);
      assert.match(res.text, new RegExp(`<span class="error" id="f-${r.field}-error">${r.message.source}`));
      assert.match(res.text, new RegExp(`id="f-${r.field}"[^>]*aria-describedby="f-${r.field}-error" aria-invalid="true"`));
      assert.doesNotMatch(res.text, /books-table/);
    });
  }

  it("refuses another org's card like any unknown one", async () => {
    const other = await seedConsoleOrg(app, 'Other Café');
    const res = await get(`/console/report?month=2026-03&card=${other.cards.stamps}`);
    assert.equal(res.status, 400);
    assert.match(res.text, /Pick one of your cards\./);
    const csv = await get(`/console/report.csv?month=2026-03&card=${other.cards.stamps}`);
    assert.equal(csv.status, 404);
    assert.doesNotMatch(csv.text, /Other Café|Coffee stamps/);
  });

  it('downloads the CSV of the card shown, and of every card', async () => {
    const page = await get(`/console/report?month=2026-03&card=${org.cards.stamps}`);
    const link = /<a class="button secondary" href="([^"]+)" download="([^"]+)">Download CSV<\/a>/.exec(page.text)!;
    assert.equal(link[2], `books-2026-03-${org.cards.stamps}.csv`);
    const res = await get(link[1]!.replace(/&amp;/g, '&'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="books-2026-03-${org.cards.stamps}.csv"`);
    const [header, line, end] = res.text.replace(/^\uFEFF/, '').split('\r\n');
    assert.equal(
      header,
      'Month,Card id,Card,Unit,Opening,Earned,Of which promotions,Birthday,Imported,Corrections added,Corrections taken off,Redeemed,Expired,Closing,Customers with a balance,Currency,Unit value,' +
        'Opening (money),Earned (money),Of which promotions (money),Birthday (money),Imported (money),Corrections added (money),Corrections taken off (money),Redeemed (money),Expired (money),Rounding (money),Closing (money)',
    );
    assert.equal(line, `2026-03,${org.cards.stamps},Coffee stamps,stamps,4,7,1,0,0,2,-1,-10,0,2,1,,0.3,1.2,2.1,0.3,0,0,0.6,-0.3,-3,0,0,0.6`);
    assert.equal(end, '');
    const all = await get('/console/report.csv?month=2026-03');
    assert.equal(all.headers.get('content-disposition'), 'attachment; filename="books-2026-03.csv"');
    const lines = all.text.trim().split('\r\n').slice(1);
    assert.deepEqual(lines.map((l) => l.split(',')[2]), ['Coffee stamps', 'Coffee points', 'Club', 'Gift card']);
    assert.equal(lines[2], `2026-03,${org.cards.levels},Club,points,${'0,'.repeat(10)}0${','.repeat(13)}`, 'no unit value: the money cells are empty');
  });

  it('the CSV refuses a bad month with a page that says so', async () => {
    const res = await get('/console/report.csv?month=2026-3');
    assert.equal(res.status, 400);
    assert.match(res.text, /Month: Must be a month written YYYY-MM/);
  });

  it('in test mode it says the books count live data only and shows no figures', async () => {
    const csrf = await client.csrfFrom('/console/report');
    await client.request('POST', '/console/mode', { form: { _csrf: csrf, mode: 'test', returnTo: '/console/report' } });
    try {
      const res = await get(`/console/report?month=2026-03&card=${org.cards.stamps}`);
      assert.equal(res.status, 200);
      assert.match(res.text, /The report counts live data only\./);
      assert.doesNotMatch(res.text, /books-table/);
      // The download is of live data whatever the switch says: the sandbox's opening balance of 50 is not in it.
      const csv = await get(`/console/report.csv?month=2026-04&card=${org.cards.stamps}`);
      assert.match(csv.text, new RegExp(`\r\n2026-04,${org.cards.stamps},Coffee stamps,stamps,2,-1,`));
    } finally {
      const again = await client.csrfFrom('/console/report');
      await client.request('POST', '/console/mode', { form: { _csrf: again, mode: 'live', returnTo: '/console/report' } });
    }
  });

  it('an org without cards is told to make one', async () => {
    const empty = await app.seedWithAdmins({ orgs: [{ name: 'Empty Café', admins: [{ email: 'empty@example.com', password: 'correct horse battery staple' }] }] });
    assert.ok(empty.orgs[0]);
    const other = new ConsoleClient(app);
    await other.signIn('empty@example.com', 'correct horse battery staple');
    const res = await other.request('GET', '/console/report');
    assert.equal(res.status, 200);
    assert.match(res.text, /No cards yet: the books are kept per card\. <a href="\/console\/cards">Make a card<\/a>/);
  });
});
