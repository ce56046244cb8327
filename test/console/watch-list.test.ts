// The console's watch list over HTTP: customers awarded more often in one shop day (Europe/Berlin)
// than their card's flagAwardsPerDay, through any channel, listed with each award's time, channel
// and staff member; undone awards, redemptions and lowering corrections do not count; live and
// test data apart; the dashboard's count of today's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enrollCustomer } from '../../src/loyalty/enroll';
import { customersRepo } from '../../src/customers/repo';
import type { Channel, StaffRef } from '../../src/lib/changes';
import { adjust, earn, redeem, reverseTransaction } from '../../src/loyalty/service';
import { writeOrgSettings } from '../../src/orgs/settings';
import { staffRepo } from '../../src/staff/repo';
import { flaggedToday, watchList } from '../../src/watchlist/service';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let sam: StaffRef;
const who: Record<string, string> = {};

// Berlin is UTC+1 in March until the 29th.
const berlin = (iso: string) => Date.parse(`${iso}Z`) - 3_600_000;
const TODAY = '2026-03-20';

const fresh = (id: string) => customersRepo(app.db).findByPassUserId(id)!;

function enroll(cardId: string, name: string, livemode = true, initialPoints?: number): string {
  return enrollCustomer(app.deps, { orgId: org.orgId, livemode }, { cardId, externalCustomerId: name.toLowerCase().replace(/\W+/g, '-'), name, initialPoints }, { channel: 'api', idempotencyKey: null }).passUserId;
}

/** Awards `id` one stamp or point at each time, by channel. */
function awards(id: string, at: string[], source: Channel = 'api', type: 'stamps' | 'points' = 'stamps') {
  return at.map((iso) => {
    app.clock.set(berlin(iso));
    if (source === 'console') return adjust(app.deps, { customer: fresh(id), source, balanceCorrection: 100 });
    return earn(app.deps, { customer: fresh(id), source, staff: source === 'scan' ? sam : null, type, basis: { from: 'amount', amount: 100 } });
  });
}

const times = (day: string, count: number, from = 9) => Array.from({ length: count }, (_, i) => `${day}T${String(from + i).padStart(2, '0')}:15:00`);

before(async () => {
  app = await startTestApp();
  app.clock.set(berlin('2026-01-10T12:00:00'));
  org = await seedConsoleOrg(app, 'Watch Café', undefined, { staff: [{ name: 'Sam', pin: '2468' }] });
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' }))();
  // The stamp card flags more than 3 awards a day; the point card keeps the default, 6.
  const res = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body: { flagAwardsPerDay: 3 } });
  assert.equal(res.status, 200, res.text);
  const member = staffRepo(app.db).list(org.orgId).find((s) => s.name === 'Sam')!;
  sam = { id: member.id, name: member.name };

  app.clock.set(berlin('2026-02-01T09:00:00'));
  who.ada = enroll(org.cards.stamps, 'Ada Lovelace');
  who.bob = enroll(org.cards.stamps, 'Bob Builder', true, 10);
  who.cy = enroll(org.cards.points, 'Cy Points');
  who.dee = enroll(org.cards.points, 'Dee Points');
  who.eve = enroll(org.cards.stamps, 'Eve Midnight');
  who.fay = enroll(org.cards.stamps, 'Fay Erased');
  who.gus = enroll(org.cards.stamps, 'Gus Old');
  who.sandbox = enroll(org.cards.stamps, 'Sandy Test', false);

  // 40 days ago: outside the 30 days.
  awards(who.gus, times('2026-02-08', 5));
  // Ada, 18 March: 4 awards through three channels (more than 3): on the list.
  awards(who.ada, ['2026-03-18T09:00:00'], 'api');
  awards(who.ada, ['2026-03-18T10:00:00', '2026-03-18T11:00:00'], 'scan');
  awards(who.ada, ['2026-03-18T12:00:00'], 'console');
  // Bob, 18 March: 4 awards, one undone at the counter, a redemption and a lowering correction: 3, not on it.
  const bobs = awards(who.bob, times('2026-03-18', 4), 'scan');
  reverseTransaction(app.deps, { customer: fresh(who.bob), transactionId: bobs[3]!.transaction.id, source: 'scan', staff: sam });
  app.clock.set(berlin('2026-03-18T18:00:00'));
  adjust(app.deps, { customer: fresh(who.bob), source: 'console', balanceCorrection: -100 });
  redeem(app.deps, { customer: fresh(who.bob), source: 'scan', staff: sam, type: 'reward' });
  // Cy, 19 March: 6 points awards, exactly the point card's number: not on it. Dee: 7: on it.
  awards(who.cy, times('2026-03-19', 6), 'api', 'points');
  awards(who.dee, times('2026-03-19', 7), 'api', 'points');
  // Eve: 2 awards before midnight and 2 after on the shop's calendar: 2 a day, not on it (in UTC
  // all four fall on the 18th).
  awards(who.eve, ['2026-03-18T23:10:00', '2026-03-18T23:40:00', '2026-03-19T00:10:00', '2026-03-19T00:40:00']);
  // Fay: 4 today, then erased.
  awards(who.fay, times(TODAY, 4, 8));
  app.clock.set(berlin(`${TODAY}T12:30:00`));
  assert.equal((await app.request('DELETE', `/api/v1/customers/pu_${who.fay}`, { key: org.keys.live })).status, 200);
  // Ada again today: 5 awards.
  awards(who.ada, times(TODAY, 5, 13));
  // Test data: a sandbox customer with 5 awards today.
  awards(who.sandbox, times(TODAY, 5, 13));

  app.clock.set(berlin(`${TODAY}T20:00:00`));
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
});
after(() => app.close());

/** The page's flagged days: heading text → the award rows (time, channel, staff, award). */
function flagged(page: string): { heading: string; note: string; rows: string[][] }[] {
  return [...page.matchAll(/<section class="panel watch-day"[^>]*>\s*<h2 id="flag-\d+">([\s\S]*?)<\/h2>\s*<p class="muted small">([^<]*)<\/p>([\s\S]*?)<\/section>/g)].map((m) => ({
    heading: m[1]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim(),
    note: m[2]!,
    rows: [...m[3]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '').trim())).filter((cells) => cells.length > 0),
  }));
}

describe('the watch list', () => {
  it('lists the customers awarded more often in a shop day than their card allows, newest day first', async () => {
    const res = await client.request('GET', '/console/watch-list');
    assert.equal(res.status, 200);
    assert.match(res.text, /<a href="\/console\/watch-list" aria-current="page">Watch list<\/a>/);
    assert.match(res.text, /Last 30 days, from Thu 19 Feb to today, Fri 20 Mar; times in Europe\/Berlin/);
    const days = flagged(res.text);
    assert.deepEqual(
      days.map((d) => [d.heading, d.note]),
      [
        ['Ada Lovelace · Fri 20 Mar', '5 awards on Coffee stamps, which flags more than 3 a day.'],
        ['Customer whose data was deleted · Fri 20 Mar', '4 awards on Coffee stamps, which flags more than 3 a day.'],
        ['Dee Points · Thu 19 Mar', '7 awards on Points, which flags more than 6 a day.'],
        ['Ada Lovelace · Wed 18 Mar', '4 awards on Coffee stamps, which flags more than 3 a day.'],
      ],
    );
    assert.match(res.text, new RegExp(`<a href="/console/customers/${who.ada}">Ada Lovelace</a>`));
    assert.doesNotMatch(res.text, new RegExp(`/console/customers/${who.fay}`), 'no link to an erased customer');
    assert.match(res.text, /<strong>4 days of 3 customers on the list\.<\/strong>/);
    // Gus's day, 40 days ago, is only found when looking further back.
    const further = watchList(app.deps, { orgId: org.orgId, livemode: true }, { days: 60 }).flagged.map((f) => `${f.date} ${f.customer.name ?? 'erased'}`);
    assert.deepEqual(further, ['2026-03-20 Ada Lovelace', '2026-03-20 erased', '2026-03-19 Dee Points', '2026-03-18 Ada Lovelace', '2026-02-08 Gus Old']);
  });

  it("shows each award's time, channel, staff member and amount", async () => {
    const ada18 = flagged((await client.request('GET', '/console/watch-list')).text)[3]!;
    assert.deepEqual(ada18.rows, [
      ['2026-03-18 09:00', 'API', '—', '+1 stamp'],
      ['2026-03-18 10:00', 'Counter', 'Sam', '+1 stamp'],
      ['2026-03-18 11:00', 'Counter', 'Sam', '+1 stamp'],
      ['2026-03-18 12:00', 'Console', '—', '+1 stamp'],
    ]);
  });

  it('test data has its own list', async () => {
    const csrf = await client.csrfFrom('/console/watch-list');
    await client.request('POST', '/console/mode', { form: { _csrf: csrf, mode: 'test', returnTo: '/console/watch-list' } });
    try {
      const days = flagged((await client.request('GET', '/console/watch-list')).text);
      assert.deepEqual(days.map((d) => d.heading), ['Sandy Test · Fri 20 Mar']);
      const dashboard = await client.request('GET', '/console/dashboard');
      assert.match(dashboard.text, /<strong>1 customer awarded more often today than their card allows\.<\/strong> <a href="\/console\/watch-list">See the watch list<\/a>/);
    } finally {
      const again = await client.csrfFrom('/console/watch-list');
      await client.request('POST', '/console/mode', { form: { _csrf: again, mode: 'live', returnTo: '/console/watch-list' } });
    }
  });

  it("the dashboard counts today's customers on the list, with a link", async () => {
    const res = await client.request('GET', '/console/dashboard');
    assert.equal(res.status, 200);
    assert.match(res.text, /<div class="notice warn watch-summary" role="status"><p><strong>2 customers awarded more often today than their card allows\.<\/strong> <a href="\/console\/watch-list">See the watch list<\/a><\/p><\/div>/);
    assert.equal(flaggedToday(app.deps, { orgId: org.orgId, livemode: true }), 2);
  });

  it('in German: the page and the dashboard line as a German admin reads them', async () => {
    const setLanguage = async (language: 'de' | 'en') => {
      const csrf = await client.csrfFrom('/console/settings/account');
      assert.equal((await client.request('POST', '/console/settings/account', { form: { _csrf: csrf, language } })).status, 303);
    };
    await setLanguage('de');
    try {
      const res = await client.request('GET', '/console/watch-list');
      assert.equal(res.status, 200);
      assert.match(res.text, /<h1>Beobachtungsliste<\/h1>/);
      assert.match(res.text, /Die letzten 30 Tage, vom Do\., 19\. Feb\. bis heute, Fr\., 20\. März; Uhrzeiten in Europe\/Berlin\./);
      assert.match(res.text, /<strong>4 Tage von 3 Kunden auf der Liste\.<\/strong>/);
      const days = flagged(res.text);
      assert.deepEqual(
        days.map((d) => [d.heading, d.note]),
        [
          ['Ada Lovelace · Fr., 20. März', '5 Gutschriften auf Coffee stamps; die Karte markiert mehr als 3 am Tag.'],
          ['Kunde, dessen Daten gelöscht wurden · Fr., 20. März', '4 Gutschriften auf Coffee stamps; die Karte markiert mehr als 3 am Tag.'],
          ['Dee Points · Do., 19. März', '7 Gutschriften auf Points; die Karte markiert mehr als 6 am Tag.'],
          ['Ada Lovelace · Mi., 18. März', '4 Gutschriften auf Coffee stamps; die Karte markiert mehr als 3 am Tag.'],
        ],
      );
      assert.deepEqual(days[3]!.rows.map((r) => [r[1], r[2], r[3]]), [
        ['API', '—', '+1 Stempel'],
        ['Kasse', 'Sam', '+1 Stempel'],
        ['Kasse', 'Sam', '+1 Stempel'],
        ['Verwaltung', '—', '+1 Stempel'],
      ]);
      assert.deepEqual(days[2]!.rows[0]!.slice(1), ['API', '—', '+1 Punkt']);
      assert.match(res.text, /<th scope="col">Uhrzeit<\/th><th scope="col">Kanal<\/th><th scope="col">Mitarbeiter<\/th><th scope="col" class="num">Gutschrift<\/th>/);
      const dashboard = await client.request('GET', '/console/dashboard');
      assert.match(dashboard.text, /<strong>2 Kunden haben heute mehr Gutschriften bekommen, als die Karte vorsieht\.<\/strong> <a href="\/console\/watch-list">Zur Beobachtungsliste<\/a>/);
    } finally {
      await setLanguage('en');
    }
  });

  it('a month later nobody is on it, and the page and the dashboard say so', async () => {
    app.clock.set(berlin('2026-04-25T12:00:00'));
    try {
      // The session ended meanwhile (12 hours idle): sign in again.
      const later = new ConsoleClient(app);
      await later.signIn(org.admin.email, org.admin.password);
      const res = await later.request('GET', '/console/watch-list');
      assert.match(res.text, /Nobody was awarded more often in one day than their card allows in the last 30 days\./);
      assert.match((await later.request('GET', '/console/dashboard')).text, /Watch list: nobody awarded more often today than their card allows\./);
    } finally {
      app.clock.set(berlin(`${TODAY}T20:00:00`));
    }
  });
});
