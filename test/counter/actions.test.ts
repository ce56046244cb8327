// What a tap at the counter does: the same service functions as the API with source
// `scan` and the staff member, once per idempotency key; the owner's daily caps; undo as a
// reversing entry; a pass of the other mode or an unknown code said plainly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { cardsRepo } from '../../src/cards/repo';
import { writeOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { CounterClient, messageOf } from './client';
import { apiCustomer, ledgerRows, seedCounterOrg, staffId, STAFF, type CounterOrg } from './support';

let app: TestApp;
let org: CounterOrg;
let sam: CounterClient;
let alex: CounterClient;
before(async () => {
  app = await startTestApp();
  org = await seedCounterOrg(app);
  setCaps({});
  sam = new CounterClient(app, org.orgId);
  await sam.unlock(STAFF[0]!.pin);
  alex = new CounterClient(app, org.orgId);
  await alex.unlock(STAFF[1]!.pin);
});
after(() => app?.close());

const MINUTE = 60_000;
const balance = async (passUserId: string) => (await app.request('GET', `/api/v1/customers/pu_${passUserId}`, { key: org.keys.live })).body.balance;
const stamp = (client: CounterClient, passUserId: string, amount = '1', key?: string) => client.act('earn', { customer: passUserId, what: 'flat', amount }, key);
const setCaps = (caps: { staffDailyAwardCap?: number | null; customerDailyAwardCap?: number | null }, timeZone = 'UTC') =>
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone, counter: { lockAfterMinutes: 240, staffDailyAwardCap: null, customerDailyAwardCap: null, ...caps } }))();

describe('counter: finding a customer', () => {
  it('opens a customer by the pass’s scan code; an unknown code and a pass of the other mode say so', async () => {
    const live = await apiCustomer(app, org, { name: 'Lina Live' });
    const test = await apiCustomer(app, org, { name: 'Tom Test', test: true });
    const other = await seedCounterOrg(app, 'Other Café');
    const stranger = await apiCustomer(app, other, { name: 'Sven Stranger' });

    const found = await sam.scan(live.scanCode);
    assert.equal(found.status, 200);
    assert.match(found.text, /<h2 id="cx-name">Lina Live<\/h2>/);
    assert.match(found.text, /<span class="cx-big">0<\/span> stamps/);

    for (const [code, status, message] of [
      ['NOPE-NOT-A-CODE', 404, 'No customer has this code. Check the code, or search by name, phone or email.'],
      [stranger.scanCode, 404, 'No customer has this code. Check the code, or search by name, phone or email.'],
      [test.scanCode, 409, 'This is a test pass: it belongs to test data, not to a real customer. Switch the counter to test data to try it out.'],
    ] as const) {
      const res = await sam.scan(code);
      assert.equal(res.status, status, code);
      assert.equal(messageOf(res).message, message);
    }
    const testCounter = new CounterClient(app, org.orgId, 'test');
    await testCounter.unlock(STAFF[0]!.pin);
    assert.match((await testCounter.scan(test.scanCode)).text, /Tom Test/);
    assert.equal(messageOf(await testCounter.scan(live.scanCode)).message, 'This is a real customer’s pass, and the counter is on test data. Switch to live data to use it.');
  });

  it('searches by name, email, phone and external id', async () => {
    const a = await apiCustomer(app, org, { name: 'Beatrix Searchable', email: 'bea@example.com' });
    await apiCustomer(app, org, { name: 'Bernd Searchable' });
    const one = await sam.get('/find?q=bea%40EXAMPLE.com');
    assert.match(one.text, /<h2 id="cx-name">Beatrix Searchable<\/h2>/, 'one match opens the customer');
    const many = await sam.get('/find?q=searchable');
    assert.match(many.text, /2 customers match “searchable”/);
    assert.match(many.text, /data-open="[^"]+"><strong>Beatrix Searchable<\/strong>/);
    assert.match((await sam.get(`/find?q=${a.externalCustomerId}`)).text, /Beatrix Searchable/);
    assert.match((await sam.get('/find?q=zzzz-nobody')).text, /Nobody matches “zzzz-nobody”/);
  });
});

describe('counter: acting on a customer', () => {
  it('awards, redeems and undoes through the loyalty service: source scan and the staff member on every row', async () => {
    const c = await apiCustomer(app, org, { initial: 8 });
    for (let i = 0; i < 3; i++) assert.equal((await stamp(sam, c.passUserId)).status, 200);
    const redeemed = await sam.act('redeem', { customer: c.passUserId, what: 'reward' });
    assert.match(redeemed.text, /✓ Free coffee redeemed<\/strong> · Anna Example now has 1 stamp\./);
    assert.deepEqual(await balance(c.passUserId), { stamps: 1 });
    const rows = ledgerRows(app, c.passUserId);
    assert.deepEqual(rows.map((r) => [r.kind, r.change, r.source]), [['initial', 800, 'api'], ['earn', 100, 'scan'], ['earn', 100, 'scan'], ['earn', 100, 'scan'], ['redeem', -1000, 'scan']]);
    assert.ok(rows.slice(1).every((r) => r.staffId === staffId(app, org.orgId, 'Sam') && r.idempotencyKey));

    // Undo the redemption: the value comes back, and it is no award.
    const undoable = /name="transaction" value="([^"]+)"/.exec(redeemed.text)![1]!;
    assert.equal(undoable, rows[4]!.id);
    const undone = await sam.act('undo', { customer: c.passUserId, transaction: undoable });
    assert.match(undone.text, /✓ Undone: \+10 stamps<\/strong> · Anna Example now has 11 stamps/);
    const reversal = ledgerRows(app, c.passUserId).at(-1)!;
    assert.deepEqual([reversal.kind, reversal.change, reversal.source, JSON.parse(reversal.details!)], ['reversal', 1000, 'scan', { reverses: undoable }]);
    assert.equal((app.db.prepare('SELECT is_award FROM transactions WHERE id = ?').get(reversal.id) as { is_award: number }).is_award, 0);
    assert.match(undone.text, /Free coffee redeemed <span class="badge">undone<\/span>/);

    const history = await app.request('GET', `/api/v1/customers/pu_${c.passUserId}/transactions`, { key: org.keys.live });
    assert.deepEqual(history.body.data[0], {
      id: reversal.id, kind: 'reversal', change: 10, balanceAfter: 11, source: 'scan', staff: { id: staffId(app, org.orgId, 'Sam'), name: 'Sam' }, note: null,
      createdAt: history.body.data[0].createdAt, details: { reverses: undoable },
    });
    // The OpenAPI document describes the reversal row as the server sends it.
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const schema = JSON.parse(JSON.stringify(doc.paths['/api/v1/customers/{ref}/transactions'].get.responses['200'].content['application/json'].schema, (k, v) => (k === '$schema' ? undefined : v)));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const page = history.body as { data: Record<string, unknown>[]; nextCursor: string | null };
    assert.ok(ajv.validate(schema, JSON.parse(history.text)), ajv.errorsText(ajv.errors));
    assert.equal(ajv.validate(schema, { ...page, data: [{ ...page.data[0], kind: 'deleted' }] }), false, 'the check can fail');
    const again = await sam.act('undo', { customer: c.passUserId, transaction: undoable });
    assert.equal(again.status, 409);
    assert.equal(messageOf(again).message, 'This entry was already undone.');
  });

  it('a double tap or a retried request with the same key applies once; another key is another award', async () => {
    const c = await apiCustomer(app, org);
    const first = await stamp(sam, c.passUserId, '1', 'tap-1');
    const second = await stamp(sam, c.passUserId, '1', 'tap-1');
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('Idempotent-Replayed'), 'true');
    assert.match(second.text, /now has 1 stamp\./);
    assert.equal((await stamp(sam, c.passUserId, '1', 'tap-2')).status, 200);
    assert.equal(ledgerRows(app, c.passUserId).length, 2);
    const reused = await stamp(sam, c.passUserId, '5', 'tap-1');
    assert.equal(reused.status, 422, 'the same key with another body is refused, never applied');
  });

  it('answers bad amounts and earning limits with their reason, writing nothing', async () => {
    const c = await apiCustomer(app, org, { card: 'points' });
    for (const [fields, message] of [
      [{ what: 'flat', amount: '0' }, 'Enter a whole number greater than 0, such as 3.'],
      [{ what: 'flat', amount: '2.5' }, 'Enter a whole number greater than 0, such as 3.'],
      [{ what: 'spend', amount: 'ten' }, 'Enter an amount greater than 0, such as 4.50.'],
      [{ what: 'teleport', amount: '1' }, 'This button is not known. Reload the page.'],
    ] as const) {
      const res = await sam.act('earn', { customer: c.passUserId, ...fields });
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(messageOf(res).message, message);
    }
    const sale = await sam.act('earn', { customer: c.passUserId, what: 'spend', amount: '4,50' });
    assert.match(sale.text, /✓ \+6 points · sale<\/strong>/, 'floor(4.50 × 1.5) points, a comma as the decimal point');
    const tooMuch = await sam.act('redeem', { customer: c.passUserId, what: 'points', amount: '100' });
    assert.equal(tooMuch.status, 400);
    assert.equal(messageOf(tooMuch).message, 'The balance is 6; this needs 100.');
    assert.equal(ledgerRows(app, c.passUserId).length, 1);
  });

  it('only the member who made an entry can undo it, for 5 minutes; an undone award does not hold back the next under a wait limit', async () => {
    const c = await apiCustomer(app, org);
    const given = await stamp(sam, c.passUserId, '2');
    const tx = /name="transaction" value="([^"]+)"/.exec(given.text)![1]!;
    const byAlex = await alex.act('undo', { customer: c.passUserId, transaction: tx });
    assert.equal(byAlex.status, 400);
    assert.equal(messageOf(byAlex).message, 'You can only undo your own entries at the counter. The owner can correct this one in the console.');
    assert.doesNotMatch((await alex.scan(c.scanCode)).text, /name="transaction"/, 'Alex is offered no undo for Sam’s entry');
    app.clock.advance(5 * MINUTE + 1000);
    assert.doesNotMatch((await sam.scan(c.scanCode)).text, /name="transaction"/, 'no undo offered after 5 minutes');
    const late = await sam.act('undo', { customer: c.passUserId, transaction: tx });
    assert.equal(messageOf(late).message, 'An entry can be undone for 5 minutes. The owner can correct this one in the console.');
    assert.deepEqual(await balance(c.passUserId), { stamps: 2 });

    // Under a card wait limit, a mistaken award undone at once does not block the right one.
    app.clock.advance(6 * MINUTE);
    // Through the repo, as the console writes cards: its cache of cards hears of the change.
    const cards = cardsRepo(app.db);
    const card = cards.findById(org.cards.stamps)!;
    cards.update({ ...card, earningLimits: { waitSeconds: 600 } });
    try {
      const mistake = await stamp(sam, c.passUserId, '3');
      const wait = await stamp(sam, c.passUserId, '1');
      assert.equal(messageOf(wait).code, 'AWARD_WAIT_ACTIVE');
      assert.match(messageOf(wait).message, /^This card awards at most once every 600 s; retry after 600 s\.$/);
      await sam.act('undo', { customer: c.passUserId, transaction: /name="transaction" value="([^"]+)"/.exec(mistake.text)![1]! });
      assert.equal((await stamp(sam, c.passUserId, '1')).status, 200);
      assert.deepEqual(await balance(c.passUserId), { stamps: 3 });
    } finally {
      cards.update(card);
    }
  });

  it('caps award actions per staff member and per customer in the shop’s local day; undone awards do not count', async () => {
    // 2026-01-01 23:00 UTC is 2026-01-02 00:00 in Berlin: a new local day for the shop.
    app.clock.set(Date.UTC(2026, 0, 1, 21, 0));
    setCaps({ customerDailyAwardCap: 2 }, 'Europe/Berlin');
    // A shift lasts 12 hours at most: a new one starts here.
    await sam.unlock(STAFF[0]!.pin);
    await alex.unlock(STAFF[1]!.pin);
    const c = await apiCustomer(app, org, { name: 'Carla Capped' });
    assert.equal((await stamp(sam, c.passUserId)).status, 200);
    const second = await stamp(alex, c.passUserId);
    await alex.act('undo', { customer: c.passUserId, transaction: /name="transaction" value="([^"]+)"/.exec(second.text)![1]! });
    assert.equal((await stamp(alex, c.passUserId)).status, 200, 'the undone award left room');
    const capped = await stamp(sam, c.passUserId);
    assert.equal(capped.status, 400);
    assert.equal(messageOf(capped).message, 'Carla Capped has had 2 awards at the counter today, the most the owner allows one customer in a day (2).');
    assert.equal((await app.request('POST', `/api/v1/customers/${c.externalCustomerId}/earn`, { key: org.keys.live, body: { type: 'stamps', amount: 1 } })).status, 201, 'the API is not capped');
    app.clock.set(Date.UTC(2026, 0, 1, 23, 0));
    assert.equal((await stamp(sam, c.passUserId)).status, 200, 'a new local day in Berlin');

    setCaps({ staffDailyAwardCap: 2 }, 'UTC');
    app.clock.set(Date.UTC(2026, 0, 3, 9, 0));
    await sam.unlock(STAFF[0]!.pin);
    await alex.unlock(STAFF[1]!.pin);
    const d = await apiCustomer(app, org);
    await stamp(sam, d.passUserId);
    await stamp(sam, c.passUserId);
    const staffCapped = await stamp(sam, d.passUserId);
    assert.equal(messageOf(staffCapped).message, 'You have made 2 awards today, the most the owner allows one staff member in a day (2). Ask the owner.');
    assert.equal((await stamp(alex, d.passUserId)).status, 200, 'another member has their own count');
    assert.equal((await sam.act('redeem', { customer: c.passUserId, what: 'points', amount: '1' })).status, 400, 'stamp cards redeem the reward only');
    setCaps({});
  });
});
