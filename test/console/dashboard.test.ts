// The dashboard's figures for a seeded mix of channels, staff members and days, counted on the
// shop's calendar (Europe/Berlin, across the change to summer time), and the counter's unusual
// days. Activity is placed on its day by moving the fake clock.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { enrollCustomer } from '../../src/loyalty/enroll';
import type { Customer } from '../../src/customers/model';
import { customersRepo } from '../../src/customers/repo';
import type { Channel, StaffRef } from '../../src/lib/changes';
import { adjust, earn, redeem, reverseTransaction } from '../../src/loyalty/service';
import { writeOrgSettings } from '../../src/orgs/settings';
import { sweepTestCustomers } from '../../src/customers/test-mode';
import { COUNTER_AWARD_CUSTOMERS_SQL, COUNTER_AWARDS_OF_SQL, LARGE_COUNTER_AWARDS_SQL, REPEAT_CUSTOMERS_SQL } from '../../src/console/dashboard/repo';
import { staffRepo } from '../../src/staff/repo';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let sam: StaffRef;
let alex: StaffRef;
const who: Record<string, string> = {};

// Berlin moves its clocks from 02:00 CET to 03:00 CEST on Sunday 29 March 2026: that day has 23 hours.
const berlin = (iso: string, offsetHours: number) => Date.parse(`${iso}Z`) - offsetHours * 3_600_000;
const NOW = berlin('2026-03-29T23:30:00', 2);

const fresh = (id: string): Customer => customersRepo(app.db).findByPassUserId(id)!;
const live = { orgId: '', livemode: true };

function enrollAt(at: number, channel: Channel, cardId: string, name: string, initialPoints?: number, livemode = true): string {
  app.clock.set(at);
  return enrollCustomer(app.deps, { ...live, livemode }, { cardId, name, ...(initialPoints ? { initialPoints } : {}) }, { channel, idempotencyKey: null }).passUserId;
}

function award(at: number, id: string, source: Channel, amount: number, staff?: StaffRef, type: 'stamps' | 'points' = 'stamps'): void {
  app.clock.set(at);
  earn(app.deps, { customer: fresh(id), source, staff: staff ?? null, type, basis: { from: 'amount', amount: amount * 100 } });
}

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Dashboard Café', undefined, { staff: [{ name: 'Sam', pin: '2468' }, { name: 'Alex', pin: '1357' }] });
  live.orgId = org.orgId;
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin', counter: { lockAfterMinutes: 5, staffDailyAwardCap: 3, customerDailyAwardCap: null } }))();
  const staff = staffRepo(app.db).list(org.orgId);
  const member = (name: string) => staff.find((s) => s.name === name)!;
  sam = { id: member('Sam').id, name: 'Sam' };
  alex = { id: member('Alex').id, name: 'Alex' };

  // Long-standing customers (outside the 30 days).
  const early = berlin('2026-02-01T12:00:00', 1);
  who.s1 = enrollAt(early, 'api', org.cards.stamps, 'Stamp One');
  who.s2 = enrollAt(early, 'api', org.cards.stamps, 'Stamp Two', 10);
  who.p1 = enrollAt(early, 'api', org.cards.points, 'Point One');
  who.g1 = enrollAt(early, 'api', org.cards.prepaid, 'Gift One');

  // 30 days before today's date (27 Feb) is outside; 28 Feb, day 1 of 30, is inside.
  award(berlin('2026-02-27T23:59:00', 1), who.p1, 'api', 100, undefined, 'points');
  enrollAt(berlin('2026-02-27T23:59:30', 1), 'api', org.cards.points, 'Too Old');
  award(berlin('2026-02-28T00:00:00', 1), who.p1, 'api', 5, undefined, 'points');
  enrollAt(berlin('2026-02-28T00:01:00', 1), 'api', org.cards.points, 'First Day');

  // 24 March: Alex gives one customer 6 counter awards (staff cap 3 reached; 5 or more to one customer).
  for (let i = 0; i < 6; i++) award(berlin(`2026-03-24T10:0${i}:00`, 1), who.p1, 'scan', 1, alex, 'points');
  // 26 March: 7 awards through the API to one customer are no counter activity: never flagged.
  for (let i = 0; i < 7; i++) award(berlin(`2026-03-26T11:0${i}:00`, 1), who.s1, 'api', 1);
  // 27 March: Sam exactly at the cap (3), and 4 counter awards to one customer (below 5).
  for (let i = 0; i < 3; i++) award(berlin(`2026-03-27T09:0${i}:00`, 1), who.s2, 'scan', 1, sam);
  award(berlin('2026-03-27T09:10:00', 1), who.s2, 'scan', 1, alex);
  // 28 March, 23:30 CET: still the 28th in Berlin.
  award(berlin('2026-03-28T23:30:00', 1), who.s1, 'scan', 1, sam);
  enrollAt(berlin('2026-03-28T23:40:00', 1), 'console', org.cards.stamps, 'Yesterday Console');

  // Today, 29 March. 00:30 CET is 23:30 UTC on the 28th, but the 29th in Berlin.
  award(berlin('2026-03-29T00:30:00', 1), who.s1, 'api', 2);
  award(berlin('2026-03-29T10:00:00', 2), who.s1, 'scan', 1, sam);
  award(berlin('2026-03-29T10:01:00', 2), who.s1, 'scan', 1, sam);
  app.clock.set(berlin('2026-03-29T10:05:00', 2));
  earn(app.deps, { customer: fresh(who.p1), source: 'scan', staff: alex, type: 'points', basis: { from: 'spend', amount: 1000, currency: 'EUR' } });
  app.clock.set(berlin('2026-03-29T10:10:00', 2));
  earn(app.deps, { customer: fresh(who.g1), source: 'api', type: 'points', basis: { from: 'amount', amount: 1250 } });
  app.clock.set(berlin('2026-03-29T11:00:00', 2));
  redeem(app.deps, { customer: fresh(who.s2), source: 'scan', staff: sam, type: 'reward' });
  app.clock.set(berlin('2026-03-29T12:00:00', 2));
  adjust(app.deps, { customer: fresh(who.s1), source: 'console', balanceCorrection: 300, note: 'goodwill' });
  adjust(app.deps, { customer: fresh(who.s1), source: 'console', balanceCorrection: -100, note: 'typo' }); // lowering is no award
  enrollAt(berlin('2026-03-29T13:00:00', 2), 'api', org.cards.stamps, 'Today Api');
  enrollAt(berlin('2026-03-29T13:01:00', 2), 'signup', org.cards.stamps, 'Today Signup A');
  enrollAt(berlin('2026-03-29T13:02:00', 2), 'signup', org.cards.points, 'Today Signup B');
  enrollAt(berlin('2026-03-29T13:03:00', 2), 'scan', org.cards.stamps, 'Today Counter');
  // Test data: never in the live figures.
  const sandbox = enrollAt(berlin('2026-03-29T14:00:00', 2), 'api', org.cards.stamps, 'Sandbox', undefined, false);
  award(berlin('2026-03-29T14:01:00', 2), sandbox, 'api', 4);

  app.clock.set(NOW);
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
});
after(() => app.close());

async function dashboard(): Promise<string> {
  const res = await client.request('GET', '/console/dashboard');
  assert.equal(res.status, 200);
  return res.text;
}

const figure = (page: string, id: string) => new RegExp(`id="${id}"><dt>[^<]*</dt><dd class="stat">([^<]*)</dd>`).exec(page)?.[1];

/** A breakdown table as { row label: { column: value } }. */
function breakdown(page: string, id: string): Record<string, Record<string, string>> {
  const table = new RegExp(`<table class="stacked breakdown-table" aria-labelledby="${id}">([\\s\\S]*?)</table>`).exec(page);
  if (!table) return {};
  const columns = [...table[1]!.matchAll(/<th scope="col" class="num">([^<]*)<\/th>/g)].map((m) => m[1]!);
  const rows: Record<string, Record<string, string>> = {};
  for (const row of table[1]!.matchAll(/<tr><th scope="row" data-label="">([^<]*)<\/th>([\s\S]*?)<\/tr>/g)) {
    const values = [...row[2]!.matchAll(/<span class="n">([^<]*)<\/span>/g)].map((m) => m[1]!);
    rows[row[1]!] = Object.fromEntries(columns.map((c, i) => [c, values[i]!]));
  }
  return rows;
}

/** The per-day table: { "Sun 29 Mar": { column: value } }. */
function perDay(page: string): Record<string, Record<string, string>> {
  const table = /<table class="per-day-table">([\s\S]*?)<\/table>/.exec(page)![1]!;
  const columns = [...table.matchAll(/<th scope="col" class="num">([^<]*)<\/th>/g)].map((m) => m[1]!);
  const rows: Record<string, Record<string, string>> = {};
  for (const row of table.matchAll(/<tr><th scope="row" class="nowrap">([^<]*)<\/th>([\s\S]*?)<\/tr>/g)) {
    rows[row[1]!] = Object.fromEntries([...row[2]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m, i) => [columns[i]!, m[1]!]));
  }
  return rows;
}

describe('the dashboard', () => {
  it("today on the shop's calendar: stamps, points and store credit apart, rewards, new customers", async () => {
    const page = await dashboard();
    assert.match(page, /Today is Sun 29 Mar · times in Europe\/Berlin/);
    // 2 (API, 00:30 CET) + 2 (counter) + 3 (console): the 28th's 23:30 award and the lowering are not today's.
    assert.deepEqual(
      ['stamps', 'points', 'credit', 'rewards', 'new-customers'].map((k) => figure(page, `today-${k}`)),
      ['7', '15', '€12.50', '1', '4'],
    );
  });

  it('today by channel and by staff member', async () => {
    const page = await dashboard();
    const columns = (stamps: string, points: string, credit: string, rewards: string, customers?: string) => ({
      'Stamps awarded': stamps, 'Points awarded': points, 'Store credit added': credit, 'Rewards redeemed': rewards, ...(customers === undefined ? {} : { 'New customers': customers }),
    });
    assert.deepEqual(breakdown(page, 'today-channel'), {
      API: columns('2', '0', '€12.50', '0', '1'),
      Counter: columns('2', '15', '€0.00', '1', '1'),
      'Sign-up form': columns('0', '0', '€0.00', '0', '2'),
      Console: columns('3', '0', '€0.00', '0', '0'),
    });
    assert.deepEqual(breakdown(page, 'today-staff'), { Sam: columns('2', '0', '€0.00', '1'), Alex: columns('0', '15', '€0.00', '0') });
  });

  it('the last 30 days: every local day from 28 February, by channel and staff, with a bar per day', async () => {
    const page = await dashboard();
    const month = (key: string) => new RegExp(`id="month-${key}-caption"><span class="daily-label">[^<]*</span> <span class="daily-total">([^<]*)</span>`).exec(page)?.[1];
    // stamps: 7 today + 1 (28th) + 3 + 1 (27th) + 7 (26th); points: 15 + 6 + 5 (28 Feb), not the 100 of 27 Feb.
    assert.deepEqual(['stamps', 'points', 'credit', 'rewards', 'new-customers'].map(month), ['19', '26', '€12.50', '1', '6']);
    const days = perDay(page);
    assert.equal(Object.keys(days).length, 30);
    assert.deepEqual(Object.keys(days).slice(0, 3), ['Sun 29 Mar', 'Sat 28 Mar', 'Fri 27 Mar']);
    assert.equal(Object.keys(days).at(-1), 'Sat 28 Feb');
    assert.deepEqual(days['Sat 28 Mar'], { 'Stamps awarded': '1', 'Points awarded': '0', 'Store credit added': '€0.00', 'Rewards redeemed': '0', 'New customers': '1' });
    assert.deepEqual(days['Sat 28 Feb'], { 'Stamps awarded': '0', 'Points awarded': '5', 'Store credit added': '€0.00', 'Rewards redeemed': '0', 'New customers': '1' });
    assert.equal(days['Sun 29 Mar']!['Stamps awarded'], '7');

    assert.deepEqual(breakdown(page, 'month-staff'), {
      Alex: { 'Stamps awarded': '1', 'Points awarded': '21', 'Store credit added': '€0.00', 'Rewards redeemed': '0' },
      Sam: { 'Stamps awarded': '6', 'Points awarded': '0', 'Store credit added': '€0.00', 'Rewards redeemed': '1' },
    });
    assert.deepEqual(breakdown(page, 'month-channel').API, { 'Stamps awarded': '9', 'Points awarded': '5', 'Store credit added': '€12.50', 'Rewards redeemed': '0', 'New customers': '2' });
    assert.deepEqual(breakdown(page, 'month-channel').Console, { 'Stamps awarded': '3', 'Points awarded': '0', 'Store credit added': '€0.00', 'Rewards redeemed': '0', 'New customers': '1' });

    const stampsChart = /<figure class="daily" id="month-stamps"[\s\S]*?<\/figure>/.exec(page)![0];
    assert.equal([...stampsChart.matchAll(/<rect class="bar( today)?"/g)].length, 30);
    assert.match(stampsChart, /role="img" aria-label="Stamps awarded per day over the last 30 days: 19 in all, 7 today, the most on Thu 26 Mar \(7\)\."/);
    assert.doesNotMatch(page, /style="/, 'no style attributes: the CSP has no unsafe-inline');
  });

  it('flags the unusual days of the counter: a staff member at the cap, a customer with many awards', async () => {
    const page = await dashboard();
    const table = /<table class="stacked unusual-table">([\s\S]*?)<\/table>/.exec(page)![1]!;
    const rows = [...table.matchAll(/<tr>\s*<td data-label="Day" class="nowrap">([^<]*)<\/td>\s*<td data-label="Who"><a href="([^"]*)">([^<]*)<\/a>[\s\S]*?<td data-label="Counter awards" class="num">(\d+)<\/td>\s*<td data-label="Why">([^<]*)<\/td>/g)].map((m) => m.slice(1).join(' | '));
    assert.deepEqual(rows, [
      `Fri 27 Mar | /console/staff/${sam.id} | Sam | 3 | Reached the daily cap of 3`,
      `Tue 24 Mar | /console/staff/${alex.id} | Alex | 6 | Reached the daily cap of 3`,
      `Tue 24 Mar | /console/customers/${who.p1} | Point One | 6 | 5 or more in one day`,
    ]);
  });

  it("follows the owner's caps: a customer cap replaces the unusual mark; no staff cap, no staff flags", async () => {
    const set = (counter: { staffDailyAwardCap: number | null; customerDailyAwardCap: number | null }) =>
      app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { counter: { lockAfterMinutes: 5, ...counter } }))();
    try {
      set({ staffDailyAwardCap: null, customerDailyAwardCap: 4 });
      let page = await dashboard();
      assert.doesNotMatch(page, /\(staff\)/);
      assert.match(page, /no staff member \(no daily cap for staff is set\)/);
      const flagged = [...page.matchAll(/<a href="\/console\/customers\/([^"]+)">([^<]*)<\/a> <span class="muted small">\(customer\)<\/span>/g)].map((m) => m[2]);
      assert.deepEqual(flagged, ['Stamp Two', 'Point One'], '4 counter awards on the 27th reach a cap of 4 (Sam 3 + Alex 1)');
      assert.match(page, /Reached the daily cap of 4/);
      // A cap of 2 is found without the count of awards before (that finds a third award of a day).
      set({ staffDailyAwardCap: null, customerDailyAwardCap: 2 });
      page = await dashboard();
      const two = [...page.matchAll(/<td data-label="Day" class="nowrap">([^<]*)<\/td>\s*<td data-label="Who"><a href="\/console\/customers\/[^"]+">([^<]*)<\/a>[\s\S]*?<td data-label="Counter awards" class="num">(\d+)<\/td>/g)].map((m) => m.slice(1).join(' | '));
      assert.deepEqual(two, ['Sun 29 Mar | Stamp One | 2', 'Fri 27 Mar | Stamp Two | 4', 'Tue 24 Mar | Point One | 6'], "the 28th's late award and the 29th's two are on two days");
      set({ staffDailyAwardCap: 7, customerDailyAwardCap: 7 });
      page = await dashboard();
      assert.match(page, /Nothing unusual in the last 30 days\./);
    } finally {
      set({ staffDailyAwardCap: 3, customerDailyAwardCap: null });
    }
  });

  it('test data: only the sandbox, and how many of its 100 customers are used', async () => {
    const csrf = await client.csrfFrom('/console/dashboard');
    await client.request('POST', '/console/mode', { form: { _csrf: csrf, mode: 'test', returnTo: '/console/dashboard' } });
    try {
      const page = await dashboard();
      assert.match(page, /1 of 100 test customers used\./);
      assert.deepEqual(['stamps', 'points', 'rewards', 'new-customers'].map((k) => figure(page, `today-${k}`)), ['4', '0', '0', '1']);
    } finally {
      const again = await client.csrfFrom('/console/dashboard');
      await client.request('POST', '/console/mode', { form: { _csrf: again, mode: 'live', returnTo: '/console/dashboard' } });
    }
  });

  it('a day of another zone: the same activity counted in Asia/Kathmandu (+05:45; set by the old name ICU lists, Asia/Katmandu) lands on its own days', async () => {
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Asia/Katmandu' }))();
    try {
      // 23:30 CEST on the 29th is 03:15 on the 30th in Kathmandu: "today" is the 30th there, and quiet.
      const page = await dashboard();
      assert.match(page, /Today is Mon 30 Mar · times in Asia\/Kathmandu/);
      assert.equal(figure(page, 'today-stamps'), '0');
      assert.equal(perDay(page)['Sun 29 Mar']!['Stamps awarded'], '8', "Berlin's 28th at 23:30 is 04:15 on the 29th there");
    } finally {
      app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' }))();
    }
  });
});

describe("the dashboard's quarter-hour sums (migration 9)", () => {
  // What the triggers keep, recomputed from the ledger and the customers as they are.
  const fromLedger = () =>
    app.db.prepare(`SELECT t.org_id, t.livemode, t.created_at / 900000 AS slot, t.source, coalesce(t.staff_id, '') AS staff_id, c.card_id,
        sum(CASE WHEN t.is_award = 1 THEN t.change ELSE 0 END) AS awarded, sum(t.is_award) AS awards,
        sum(CASE WHEN t.kind = 'redeem' AND json_extract(t.details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END) AS rewards
      FROM transactions t JOIN customers c ON c.id = t.customer_id
      WHERE (t.is_award = 1 OR (t.kind = 'redeem' AND json_extract(t.details, '$.reward') IS NOT NULL))
        AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.kind = 'reversal' AND json_extract(r.details, '$.reverses') = t.id)
      GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`).all();
  const kept = () => app.db.prepare('SELECT * FROM ledger_slots WHERE awards <> 0 OR rewards <> 0 OR awarded <> 0 ORDER BY 1, 2, 3, 4, 5, 6').all();
  const customersFromTable = () => app.db.prepare('SELECT org_id, livemode, created_at / 900000 AS slot, source, count(*) AS customers FROM customers GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4').all();
  const customersKept = () => app.db.prepare('SELECT * FROM customer_slots WHERE customers > 0 ORDER BY 1, 2, 3, 4').all();

  it('equal the ledger and the customers, also after the test sweep removes customers with their history', () => {
    assert.ok(kept().length > 10);
    assert.deepEqual(kept(), fromLedger());
    assert.deepEqual(customersKept(), customersFromTable());
    const saved = app.clock.now();
    try {
      app.clock.set(NOW + 31 * 86_400_000);
      assert.equal(sweepTestCustomers({ db: app.db, clock: app.clock }), 1);
      assert.deepEqual(kept(), fromLedger());
      assert.deepEqual(customersKept(), customersFromTable());
      assert.equal((app.db.prepare('SELECT count(*) AS n FROM ledger_slots WHERE livemode = 0 AND awards <> 0').get() as { n: number }).n, 0);
    } finally {
      app.clock.set(saved);
    }
  });

  it('an award or a reward undone at the counter counts for nothing, also after the test sweep', async () => {
    const other = await seedConsoleOrg(app, 'Undo Café', undefined, { staff: [{ name: 'Kim', pin: '8642' }] });
    const kim = staffRepo(app.db).list(other.orgId).map((m) => ({ id: m.id, name: m.name }))[0]!;
    const saved = app.clock.now();
    try {
      for (const livemode of [true, false]) {
        app.clock.set(NOW - 3_600_000);
        const id = enrollCustomer(app.deps, { orgId: other.orgId, livemode }, { cardId: other.cards.stamps, name: 'Undone' }, { channel: 'scan', staff: kim, idempotencyKey: null }).passUserId;
        const given = earn(app.deps, { customer: fresh(id), source: 'scan', staff: kim, type: 'stamps', basis: { from: 'amount', amount: 1000 } });
        const redeemed = redeem(app.deps, { customer: fresh(id), source: 'scan', staff: kim, type: 'reward' });
        app.clock.advance(60_000);
        reverseTransaction(app.deps, { customer: fresh(id), source: 'scan', staff: kim, transactionId: redeemed.transaction.id });
        reverseTransaction(app.deps, { customer: fresh(id), source: 'scan', staff: kim, transactionId: given.transaction.id });
      }
      const sums = app.db.prepare('SELECT sum(awarded) AS awarded, sum(awards) AS awards, sum(rewards) AS rewards FROM ledger_slots WHERE org_id = ?').get(other.orgId);
      assert.deepEqual(sums, { awarded: 0, awards: 0, rewards: 0 });
      assert.deepEqual(kept(), fromLedger());
      app.clock.set(NOW + 31 * 86_400_000);
      sweepTestCustomers({ db: app.db, clock: app.clock });
      assert.deepEqual(kept(), fromLedger(), 'the sweep takes out only what still counted');
    } finally {
      app.clock.set(saved);
    }
  });

  it("the unusual-day reads use the partial indexes of counter awards and each customer's rows, never the whole ledger", () => {
    const plan = (sql: string) => (app.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ ids: '[]', orgId: 'o', livemode: 1, from: 0, to: 1, atLeast: 5 }) as { detail: string }[]).map((r) => r.detail).join(' | ');
    assert.match(
      plan(REPEAT_CUSTOMERS_SQL),
      /SEARCH transactions USING INDEX transactions_counter_repeats \(org_id=\? AND livemode=\? AND created_at>\? AND created_at<\?\)/,
    );
    assert.match(
      plan(COUNTER_AWARD_CUSTOMERS_SQL),
      /SEARCH transactions USING COVERING INDEX transactions_counter_awards \(org_id=\? AND livemode=\? AND created_at>\? AND created_at<\?\)/,
    );
    assert.match(
      plan(COUNTER_AWARDS_OF_SQL),
      /SEARCH t USING INDEX transactions_customer \(customer_id=\? AND created_at>\? AND created_at<\?\)/,
    );
  });

  it('the large counter awards are read through the partial index of counter awards, also where the statistics favour the time index', () => {
    // A month of a busy shop as PRAGMA optimize records it: 30,000 ledger rows, 12,000 of them
    // counter awards, each index as selective per org and mode. SQLite then rated the ledger's time
    // index as good and read every channel's rows of the month for this panel.
    const db = new Database(':memory:');
    try {
      db.exec(readFileSync('schema.sql', 'utf8'));
      db.exec('ANALYZE');
      const stats = db.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
      for (const [idx, stat] of [
        ['transactions_org_time', '30000 1370 1370 1'],
        ['transactions_counter_awards', '12000 1370 1370 1 1 1'],
        ['transactions_customer', '30000 2 1'],
        ['transactions_staff', '12000 1370 1'],
      ]) stats.run('transactions', idx, stat);
      db.exec('ANALYZE sqlite_schema');
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LARGE_COUNTER_AWARDS_SQL}`).all({ orgId: 'o', livemode: 1, from: 0, to: 1, stamps: 1000, points: 50000, credit: 5000 }) as { detail: string }[]).map((r) => r.detail);
      assert.match(plan[0]!, /^SEARCH t USING INDEX transactions_counter_awards \(org_id=\? AND livemode=\? AND created_at>\? AND created_at<\?\)$/, plan.join('\n'));
      assert.deepEqual(plan.filter((d) => /^SCAN /.test(d)), [], plan.join('\n'));
    } finally {
      db.close();
    }
  });
});

describe('the dashboard in a browser', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser?.close());

  it('is the console start page; each chart has a text alternative and the numbers per day open beside it', async () => {
    const { context, page } = await signedInPage(browser, app, org);
    await page.waitForURL(/\/console\/dashboard$/);
    assert.equal(await page.getByRole('link', { name: 'Dashboard', exact: true }).getAttribute('aria-current'), 'page');
    await page.getByRole('img', { name: /^Points awarded per day over the last 30 days: 26 in all, 15 today/ }).waitFor();
    const perDayTable = page.getByRole('table', { name: 'Per day, newest first' });
    assert.equal(await perDayTable.isVisible(), false);
    await page.getByText('The numbers per day').click();
    assert.equal(await perDayTable.isVisible(), true);
    assert.equal(await page.getByRole('link', { name: 'Point One' }).getAttribute('href'), `/console/customers/${who.p1}`);
    await context.close();
  });
});
