// The console's customer list over HTTP: one search box across name, email, phone, external id
// and scan code; the card filter; keyset paging both ways; the namespace of the live/test switch;
// and the full-text index (migration 9) that keeps it fast, with its triggers and query plans.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { customerSearchRepo, listSql, searchSql } from '../../src/customers/search-repo';
import { customersRepo } from '../../src/customers/repo';
import { sweepTestCustomers } from '../../src/customers/test-mode';
import { migrate } from '../../src/db/migrate';
import { migrations } from '../../src/db/migrations';
import { applyPragmas } from '../../src/db/open';
import type { Customer } from '../../src/customers/model';
import type { TestApp } from '../support/app';
import { seedStandardOrg } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { insertCustomer } from '../support/customers';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
const people: Record<string, Customer> = {};

/** The customers a list page shows, by their passUserId, in page order. */
function shown(pageHtml: string): string[] {
  const ids = [...pageHtml.matchAll(/<td data-label="Name"><a href="\/console\/customers\/([A-Za-z0-9]+)"/g)].map((m) => m[1]!);
  return ids;
}

async function list(query: Record<string, string>): Promise<{ status: number; text: string; ids: string[] }> {
  const res = await client.request('GET', `/console/customers?${new URLSearchParams(query)}`);
  return { status: res.status, text: res.text, ids: shown(res.text) };
}

const linkOf = (text: string, rel: 'next' | 'prev') => {
  const m = new RegExp(`<a class="button secondary" rel="${rel}" href="([^"]+)"`).exec(text);
  return m ? m[1]!.replace(/&amp;/g, '&') : null;
};

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Search Café');
  const add = (key: string, input: Partial<Parameters<typeof insertCustomer>[1]>) => {
    people[key] = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, ...input });
    app.clock.advance(1000);
  };
  add('jurgen', { name: 'Jürgen Weiß', email: 'j.weiss@example.de', phone: '+49 170 1234567', externalId: 'CRM-0042' });
  add('anna', { name: 'Anna Schmidt', email: 'anna.schmidt@beispiel.de', phone: '+1 (415) 555-0100', cardId: org.cards.points });
  add('italy', { name: 'Giulia Rossi', phone: '+39 06 1234 5678', cardId: org.cards.points });
  add('national', { name: 'Karl Lokal', phone: '0171 7654321' }); // as typed, never normalised
  add('annaTest', { name: 'Anna Test', email: 'anna.test@example.com', livemode: false });
  const other = seedStandardOrg(app, 'Other Café');
  people.otherOrg = insertCustomer(app, { orgId: other.orgId, cardId: other.cards.stamps, name: 'Anna Fremd', email: 'anna.schmidt@beispiel.de' });
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
});
after(() => app.close());

describe('searching the customer list', () => {
  const cases: { name: string; q: string; expect: string[] }[] = [
    { name: 'a name prefix', q: 'Jür', expect: ['jurgen'] },
    { name: 'words of the name and the email together', q: 'jurgen weiss', expect: ['jurgen'] },
    { name: 'no one when the words belong to different people', q: 'jurgen schmidt', expect: [] },
    { name: 'a name without its diacritics', q: 'JURGEN', expect: ['jurgen'] },
    { name: 'two words, each a prefix', q: 'anna sch', expect: ['anna'] },
    { name: 'a surname', q: 'rossi', expect: ['italy'] },
    { name: 'an email, whole', q: 'anna.schmidt@beispiel.de', expect: ['anna'] },
    { name: 'an email, partly typed', q: 'j.weiss@exa', expect: ['jurgen'] },
    { name: 'an email in capitals', q: 'J.WEISS@EXAMPLE.DE', expect: ['jurgen'] },
    { name: 'a phone as E.164', q: '+491701234567', expect: ['jurgen'] },
    { name: 'a phone with spaces', q: '+49 170 1234567', expect: ['jurgen'] },
    { name: 'a phone with 00 for +', q: '0049 170 123 45 67', expect: ['jurgen'] },
    { name: 'a phone in national form', q: '0170 1234567', expect: ['jurgen'] },
    { name: 'a phone with brackets and dashes', q: '(0170) 123-4567', expect: ['jurgen'] },
    { name: 'a US phone as dialled at home', q: '(415) 555-0100', expect: ['anna'] },
    { name: 'an Italian phone keeps its leading 0', q: '06 1234 5678', expect: ['italy'] },
    { name: 'a phone that was never normalised, as typed', q: '0171 765 4321', expect: ['national'] },
    { name: 'the start of a phone', q: '+49 170 12', expect: ['jurgen'] },
    { name: 'an external id', q: 'CRM-0042', expect: ['jurgen'] },
    { name: 'an external id in lower case', q: 'crm-0042', expect: ['jurgen'] },
    { name: 'nothing in this namespace', q: 'Fremd', expect: [] },
  ];
  for (const c of cases) {
    it(`finds by ${c.name}: "${c.q}"`, async () => {
      const res = await list({ q: c.q });
      assert.equal(res.status, 200);
      assert.deepEqual(res.ids, c.expect.map((k) => people[k]!.id));
    });
  }

  it('finds by the scan code and by the passUserId, exactly', async () => {
    assert.deepEqual((await list({ q: people.italy!.scanCode })).ids, [people.italy!.id]);
    assert.deepEqual((await list({ q: ` pu_${people.anna!.id} ` })).ids, [people.anna!.id]);
    assert.deepEqual((await list({ q: people.otherOrg!.scanCode })).ids, [], "another org's code finds nothing");
    assert.deepEqual((await list({ q: people.annaTest!.scanCode })).ids, [], "a test customer's code finds nothing in live data");
  });

  it('an empty search lists everyone of the namespace, newest first; punctuation alone asks for words', async () => {
    const all = await list({});
    assert.deepEqual(all.ids, ['national', 'italy', 'anna', 'jurgen'].map((k) => people[k]!.id));
    assert.match(all.text, /4 customers/);
    const punctuation = await list({ q: '@@ --' });
    assert.deepEqual(punctuation.ids, []);
    assert.match(punctuation.text, /Type a name, an email, a phone number/);
  });

  it('filters by card, with and without a search; an unknown card is refused', async () => {
    assert.deepEqual((await list({ card: org.cards.points })).ids, [people.italy!.id, people.anna!.id]);
    assert.deepEqual((await list({ card: org.cards.points, q: 'anna' })).ids, [people.anna!.id]);
    assert.deepEqual((await list({ card: org.cards.stamps, q: 'anna' })).ids, []);
    assert.deepEqual((await list({ card: org.cards.stamps, q: people.anna!.scanCode })).ids, [], 'a scan code of another card is not shown under this card');
    const unknown = await list({ card: 'card_nope' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /There is no such card/);
  });

  it('the test-data switch shows the sandbox: its customers, how many of 100 are used and when each goes', async () => {
    const csrf = await client.csrfFrom('/console/customers');
    await client.request('POST', '/console/mode', { form: { _csrf: csrf, mode: 'test', returnTo: '/console/customers' } });
    try {
      const res = await list({ q: 'anna' });
      assert.deepEqual(res.ids, [people.annaTest!.id]);
      assert.match(res.text, /1 of 100 test customers used/);
      const removal = new Date(people.annaTest!.createdAt + 30 * 86_400_000);
      const expected = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(removal);
      assert.match(res.text, new RegExp(`<td data-label="Removed on" class="nowrap">${expected}</td>`));
      const page = await client.request('GET', `/console/customers/${people.jurgen!.id}`);
      assert.equal(page.status, 404);
      assert.match(page.text, /This customer is in your live data/);
    } finally {
      const again = await client.csrfFrom('/console/customers');
      await client.request('POST', '/console/mode', { form: { _csrf: again, mode: 'live', returnTo: '/console/customers' } });
    }
  });
});

describe('paging the list', () => {
  let local: ConsoleOrg;
  let pager: ConsoleClient;
  const made: string[] = [];
  before(async () => {
    local = await seedConsoleOrg(app, 'Busy Café');
    // 120 customers, many in the same millisecond: the cursor must still order them exactly.
    for (let i = 0; i < 120; i++) {
      made.push(insertCustomer(app, { orgId: local.orgId, cardId: i % 2 ? local.cards.stamps : local.cards.points, name: `Paging Person ${String(i).padStart(3, '0')}` }).id);
      if (i % 7 === 0) app.clock.advance(1);
    }
    pager = new ConsoleClient(app);
    await pager.signIn(local.admin.email, local.admin.password);
  });

  async function walk(start: string): Promise<{ pages: string[][]; back: string[][] }> {
    const pages: string[][] = [];
    let res = await pager.request('GET', start);
    pages.push(shown(res.text));
    assert.equal(linkOf(res.text, 'prev'), null, 'the first page has no previous page');
    for (let next = linkOf(res.text, 'next'); next; next = linkOf(res.text, 'next')) {
      res = await pager.request('GET', next);
      assert.equal(res.status, 200);
      pages.push(shown(res.text));
    }
    const back: string[][] = [];
    for (let prev = linkOf(res.text, 'prev'); prev; prev = linkOf(res.text, 'prev')) {
      res = await pager.request('GET', prev);
      back.push(shown(res.text));
    }
    return { pages, back };
  }

  it('walks forward through every customer once, newest first, and back to the first page', async () => {
    const { pages, back } = await walk('/console/customers');
    assert.deepEqual(pages.map((p) => p.length), [50, 50, 20]);
    assert.deepEqual(pages.flat(), [...made].reverse());
    assert.deepEqual(back, [pages[1], pages[0]]);
  });

  it('pages a search and a card filter the same way', async () => {
    const search = await walk('/console/customers?q=paging');
    assert.deepEqual(search.pages.flat(), [...made].reverse());
    assert.deepEqual(search.back, [search.pages[1], search.pages[0]]);
    const card = await walk(`/console/customers?card=${local.cards.stamps}`);
    assert.deepEqual(card.pages.map((p) => p.length), [50, 10]);
    assert.deepEqual(card.pages.flat(), made.filter((_, i) => i % 2).reverse());
  });

  it('a cursor the list did not make is refused with a readable page', async () => {
    for (const bad of ['older=abc', 'newer=1.x', 'older=s1&q=', 'q=paging&older=123.4']) {
      const res = await pager.request('GET', `/console/customers?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.match(res.text, /This page link is not one the customer list made/);
    }
  });
});

describe('the search index (migration 9)', () => {
  it('follows every change of a customer: name, email, phone, external id, removal', () => {
    const find = (q: string) => app.db.prepare("SELECT count(*) AS n FROM customer_search WHERE customer_search MATCH ?").get(q) as { n: number };
    const c = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, name: 'Trigger Test', email: 'trigger@example.com' });
    assert.equal(find('name : trigger').n, 1);
    customersRepo(app.db).setExternalId(c.id, 'EXT-TRIG', app.clock.now());
    assert.equal(find('external : "ext-trig"').n, 1);
    app.db.prepare("UPDATE customers SET name = 'Renamed Person', phone = '+44 20 7946 0958', phone_norm = '+442079460958' WHERE id = ?").run(c.id);
    assert.equal(find('name : trigger').n, 0);
    assert.equal(find('name : renamed').n, 1);
    assert.equal(find('phone : "2079460958"').n, 1, 'the number without its country code');
    customersRepo(app.db).remove(c.id);
    assert.equal(find('name : renamed').n, 0);
    assert.equal((app.db.prepare('SELECT count(*) AS n FROM customer_search_rows WHERE customer_id = ?').get(c.id) as { n: number }).n, 0);
  });

  it('loses the test customers the 30-day sweep removes', () => {
    const t = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, name: 'Sweepme Soon', livemode: false });
    app.clock.advance(31 * 86_400_000);
    sweepTestCustomers({ db: app.db, clock: app.clock });
    assert.equal(customersRepo(app.db).findByPassUserId(t.id), undefined);
    assert.equal((app.db.prepare("SELECT count(*) AS n FROM customer_search WHERE customer_search MATCH 'name : sweepme'").get() as { n: number }).n, 0);
  });

  it('keeps the count of customers per card and mode exact through inserts and removals', () => {
    const counted = () => app.db.prepare('SELECT org_id, livemode, card_id, count(*) AS n FROM customers GROUP BY 1, 2, 3 ORDER BY 1, 2, 3').all();
    const kept = () => app.db.prepare('SELECT org_id, livemode, card_id, customers AS n FROM customer_counts WHERE customers > 0 ORDER BY 1, 2, 3').all();
    const a = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, name: 'Count Me' });
    insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, name: 'Count Me Too', livemode: false });
    assert.deepEqual(kept(), counted());
    customersRepo(app.db).remove(a.id);
    assert.deepEqual(kept(), counted());
    assert.equal(customerSearchRepo(app.db).count({ orgId: org.orgId, livemode: true }), (counted() as { org_id: string; livemode: number; n: number }[]).filter((r) => r.org_id === org.orgId && r.livemode === 1).reduce((t, r) => t + r.n, 0));
  });

  it('indexes the customers a database already had when it migrates to version 8', () => {
    const db = new Database(':memory:');
    applyPragmas(db);
    migrate(db, migrations.filter((m) => m.version < 8));
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_old', 'Old', 0)").run();
    db.prepare("INSERT INTO cards (id, org_id, name, pass_type, created_at, updated_at) VALUES ('card_old', 'org_old', 'Old', 'stamp_card', 0, 0)").run();
    const insert = db.prepare(`INSERT INTO customers (id, org_id, card_id, livemode, name, email, email_norm, phone, phone_norm, install_code, scan_code, pass_updated_at, created_at, updated_at)
      VALUES (?, 'org_old', 'card_old', 1, ?, NULL, NULL, ?, ?, ?, ?, 0, ?, 0)`);
    insert.run('old1', 'Early Bird', '+49 170 1111111', '+491701111111', 'install-code-1-xxxxxxxx', 'scan1', 1);
    insert.run('old2', 'Late Owl', null, null, 'install-code-2-xxxxxxxx', 'scan2', 2);
    const ledger = db.prepare(`INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, staff_id, details, created_at)
      VALUES (?, 'org_old', 'old1', 1, ?, ?, ?, ?, ?, NULL, ?, ?)`);
    ledger.run('tx1', 'earn', 300, 300, 1, 'api', null, 900_000 * 5 + 1);
    ledger.run('tx2', 'earn', 200, 500, 1, 'api', null, 900_000 * 5 + 2);
    ledger.run('tx3', 'redeem', -100, 400, 0, 'scan', '{"reward":{"name":"Coffee","cost":100}}', 900_000 * 6);
    ledger.run('tx4', 'redeem', -100, 300, 0, 'api', null, 900_000 * 6);
    migrate(db);
    assert.deepEqual(db.prepare('SELECT slot, source, staff_id, card_id, awarded, awards, rewards FROM ledger_slots ORDER BY slot').all(), [
      { slot: 5, source: 'api', staff_id: '', card_id: 'card_old', awarded: 500, awards: 2, rewards: 0 },
      { slot: 6, source: 'scan', staff_id: '', card_id: 'card_old', awarded: 0, awards: 0, rewards: 1 },
    ]);
    assert.deepEqual(db.prepare('SELECT slot, source, customers FROM customer_slots').all(), [{ slot: 0, source: 'api', customers: 2 }]);
    const rows = db.prepare('SELECT seq, customer_id FROM customer_search_rows ORDER BY seq').all() as { seq: number; customer_id: string }[];
    assert.deepEqual(rows.map((r) => r.customer_id), ['old1', 'old2'], 'numbered in creation order');
    const match = (q: string) => (db.prepare('SELECT rowid FROM customer_search WHERE customer_search MATCH ?').all(q) as { rowid: number }[]).map((r) => r.rowid);
    assert.deepEqual(match('name : early'), [rows[0]!.seq]);
    assert.deepEqual(match('phone : "1701111111"'), [rows[0]!.seq]);
    assert.deepEqual(db.prepare('SELECT org_id, livemode, card_id, customers FROM customer_counts').all(), [{ org_id: 'org_old', livemode: 1, card_id: 'card_old', customers: 2 }]);
    db.close();
  });

  it('the list and the search start from an index, never a scan of the table or a sort', () => {
    const plan = (sql: string) =>
      (app.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ orgId: 'o', livemode: 1, cardId: 'c', createdAt: 1, seq: 1, limit: 1, match: 'x' }) as { detail: string }[]).map((r) => r.detail).join(' | ');
    for (const direction of [null, 'older', 'newer'] as const) {
      assert.match(plan(listSql(false, direction)), /^SEARCH c USING (COVERING )?INDEX customers_org_time \(org_id=\? AND livemode=\?/);
      assert.match(plan(listSql(true, direction)), /^SEARCH c USING INDEX customers_card \(card_id=\? AND livemode=\?/);
      const search = plan(searchSql(direction));
      assert.match(search, /^SCAN s VIRTUAL TABLE INDEX/);
      assert.match(search, /SEARCH r USING INTEGER PRIMARY KEY/);
      for (const p of [plan(listSql(false, direction)), plan(listSql(true, direction)), search]) assert.doesNotMatch(p, /TEMP B-TREE|SCAN c\b/);
    }
  });
});
