import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeOrgSettings } from '../src/orgs/settings';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, ledgerState, operate, seedLoyaltyOrg, type LoyaltyCardRef, type LoyaltyOrg } from './support/ledger-fixtures';

// Promotions under a card: the API that manages them, and what they add to every earn made
// while they run (the shop's time zone), with the earning limits judging the base award.

type Json = Record<string, any>;

const DOUBLE = { name: 'Double stamps on Tuesday afternoons', kind: 'multiplier', value: 2, startsAt: '2026-01-01', endsAt: '2026-01-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } };
const PLUS_TWO = { name: 'Two more all week', kind: 'bonus', value: 2, startsAt: '2026-01-05', endsAt: '2026-01-11' };

describe('promotions API', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  let other: LoyaltyOrg;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    other = seedLoyaltyOrg(app, 'Other shop');
    writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' });
  });
  after(() => app.close());

  const path = (card: LoyaltyCardRef | string, id?: string) => `/api/v1/cards/${card in org.cards ? org.cards[card as LoyaltyCardRef] : card}/promotions${id ? `/${id}` : ''}`;
  const call = (method: string, url: string, body?: unknown, key = org.keys.live, headers: Record<string, string> = {}) => app.request(method, url, { key, body, headers });
  const stored = () => app.db.prepare('SELECT * FROM promotions ORDER BY rowid').all();

  it('creates, lists, reads, changes and deletes a promotion', async () => {
    const created = await call('POST', path('points'), DOUBLE);
    assert.equal(created.status, 201, created.text);
    const id = created.body.id;
    assert.match(id, /^pr_[0-9A-Za-z]{20}$/);
    assert.deepEqual(created.body, { id, cardId: org.cards.points, ...DOUBLE, ended: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });

    const bonus = await call('POST', path('points'), { ...PLUS_TWO, weekdays: [5, 1, 3] });
    assert.equal(bonus.status, 201, bonus.text);
    assert.deepEqual([bonus.body.weekdays, bonus.body.hours], [[1, 3, 5], null], 'weekdays in order; no hours is all day');

    for (const key of [org.keys.live, org.keys.test]) {
      const list = await call('GET', path('points'), undefined, key);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.map((p: Json) => p.id), [id, bonus.body.id], 'oldest first, the same for test and live keys');
    }
    assert.deepEqual((await call('GET', path('points', id))).body, created.body);

    app.clock.advance(60_000);
    const renamed = await call('PATCH', path('points', id), { name: 'Triple', kind: 'multiplier', value: 3, weekdays: null, hours: null });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(renamed.body, { ...created.body, name: 'Triple', value: 3, weekdays: null, hours: null, updatedAt: '2026-01-01T00:01:00.000Z' });
    const toBonus = await call('PATCH', path('points', id), { kind: 'bonus', value: 5 });
    assert.deepEqual([toBonus.body.kind, toBonus.body.value], ['bonus', 5]);
    const noChange = await call('PATCH', path('points', id), {});
    assert.deepEqual(noChange.body, { ...toBonus.body, updatedAt: noChange.body.updatedAt }, 'an empty PATCH changes nothing');

    const deleted = await call('DELETE', path('points', id));
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, noChange.body, 'DELETE answers the promotion it removed');
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const gone = await call(method, path('points', id), body);
      assert.equal(gone.status, 404, `${method}: ${gone.text}`);
      assert.match(gone.body.message, /^PROMOTION_NOT_FOUND/);
    }
    await call('DELETE', path('points', bonus.body.id));
  });

  it('shows a promotion whose last day is over as ended, by the shop’s calendar', async () => {
    const res = await call('POST', path('stamps'), { ...PLUS_TWO, startsAt: '2025-12-01', endsAt: '2025-12-31' });
    assert.equal(res.status, 201, res.text);
    // 2026-01-01T00:00Z is already 01:00 on the 1st in Berlin: the 31st is over there.
    assert.equal(res.body.ended, true);
    await call('DELETE', path('stamps', res.body.id));
  });

  const invalid: { name: string; body: Json; issues: string }[] = [
    { name: 'no name', body: { ...DOUBLE, name: undefined }, issues: 'name' },
    { name: 'a blank name', body: { ...DOUBLE, name: '   ' }, issues: 'name' },
    { name: 'a name over 100 characters', body: { ...DOUBLE, name: 'x'.repeat(101) }, issues: 'name' },
    { name: 'no kind', body: { ...DOUBLE, kind: undefined }, issues: 'kind' },
    { name: 'an unknown kind', body: { ...DOUBLE, kind: 'double' }, issues: 'kind' },
    { name: 'no value', body: { ...DOUBLE, value: undefined }, issues: 'value' },
    { name: 'a multiplier of 1', body: { ...DOUBLE, value: 1 }, issues: 'value' },
    { name: 'a multiplier with two decimals', body: { ...DOUBLE, value: 1.25 }, issues: 'value' },
    { name: 'a multiplier over 10', body: { ...DOUBLE, value: 10.5 }, issues: 'value' },
    { name: 'a bonus of 0', body: { ...PLUS_TWO, value: 0 }, issues: 'value' },
    { name: 'a fractional bonus', body: { ...PLUS_TWO, value: 1.5 }, issues: 'value' },
    { name: 'a bonus as text', body: { ...PLUS_TWO, value: '2' }, issues: 'value' },
    { name: 'no startsAt', body: { ...DOUBLE, startsAt: undefined }, issues: 'startsAt' },
    { name: 'a date without leading zeros', body: { ...DOUBLE, startsAt: '2026-1-1' }, issues: 'startsAt' },
    { name: 'a date that does not exist', body: { ...DOUBLE, endsAt: '2026-02-29' }, issues: 'endsAt' },
    { name: 'a date and time', body: { ...DOUBLE, endsAt: '2026-01-31T12:00:00Z' }, issues: 'endsAt' },
    { name: 'endsAt before startsAt', body: { ...DOUBLE, startsAt: '2026-02-01', endsAt: '2026-01-31' }, issues: 'endsAt' },
    { name: 'no weekday', body: { ...DOUBLE, weekdays: [] }, issues: 'weekdays' },
    { name: 'weekday 0', body: { ...DOUBLE, weekdays: [0] }, issues: 'weekdays[0]' },
    { name: 'weekday 8', body: { ...DOUBLE, weekdays: [1, 8] }, issues: 'weekdays[1]' },
    { name: 'a weekday twice', body: { ...DOUBLE, weekdays: [2, 2] }, issues: 'weekdays' },
    { name: 'hours that end as they start', body: { ...DOUBLE, hours: { from: '14:00', to: '14:00' } }, issues: 'hours.to' },
    { name: 'hours past midnight', body: { ...DOUBLE, hours: { from: '22:00', to: '02:00' } }, issues: 'hours.to' },
    { name: 'hours from 24:00', body: { ...DOUBLE, hours: { from: '24:00', to: '24:00' } }, issues: 'hours.from' },
    { name: 'hours to 24:01', body: { ...DOUBLE, hours: { from: '18:00', to: '24:01' } }, issues: 'hours.to' },
    { name: 'hours without to', body: { ...DOUBLE, hours: { from: '18:00' } }, issues: 'hours.to' },
    { name: 'hours in another form', body: { ...DOUBLE, hours: { from: '2pm', to: '5pm' } }, issues: 'hours.from, hours.to' },
    { name: 'an unknown field', body: { ...DOUBLE, active: true }, issues: 'active' },
  ];
  for (const c of invalid) {
    it(`POST refuses ${c.name}: 400 VALIDATION_FAILED naming ${c.issues}, nothing written`, async () => {
      const before = stored();
      const res = await call('POST', path('stamps'), c.body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.message, `VALIDATION_FAILED: ${c.issues}`);
      assert.deepEqual(stored(), before);
    });
  }

  const refusals: { name: string; method: 'POST' | 'PATCH' | 'DELETE' | 'GET'; card?: string; key?: () => string; body?: Json; status: number; message: RegExp }[] = [
    { name: 'POST with a test key', method: 'POST', key: () => org.keys.test, body: DOUBLE, status: 400, message: /^NOT_AVAILABLE_IN_TEST_MODE/ },
    { name: 'PATCH with a test key', method: 'PATCH', key: () => org.keys.test, body: { name: 'x' }, status: 400, message: /^NOT_AVAILABLE_IN_TEST_MODE/ },
    { name: 'DELETE with a test key', method: 'DELETE', key: () => org.keys.test, status: 400, message: /^NOT_AVAILABLE_IN_TEST_MODE/ },
    { name: 'GET without cards:read', method: 'GET', key: () => org.keys.reader, status: 403, message: /^Missing scope\(s\): cards:read$/ },
    { name: 'POST on a prepaid card', method: 'POST', card: 'prepaid', body: DOUBLE, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'POST on another org’s card', method: 'POST', card: 'other', body: DOUBLE, status: 403, message: /^CARD_NOT_IN_ORG/ },
    { name: 'GET on another org’s card', method: 'GET', card: 'other', status: 403, message: /^CARD_NOT_IN_ORG/ },
    { name: 'POST on an unknown card', method: 'POST', card: 'card_nope', body: DOUBLE, status: 404, message: /^CARD_NOT_FOUND/ },
    { name: 'PATCH a value without its kind', method: 'PATCH', body: { value: 3 }, status: 400, message: /^VALIDATION_FAILED: value$/ },
    { name: 'PATCH a kind without its value', method: 'PATCH', body: { kind: 'bonus' }, status: 400, message: /^VALIDATION_FAILED: value$/ },
    { name: 'PATCH a bonus value for the multiplier kind', method: 'PATCH', body: { kind: 'multiplier', value: 20 }, status: 400, message: /^VALIDATION_FAILED: value$/ },
    { name: 'PATCH endsAt before the stored startsAt', method: 'PATCH', body: { endsAt: '2025-12-31' }, status: 400, message: /^VALIDATION_FAILED: endsAt$/ },
    { name: 'PATCH startsAt after the stored endsAt', method: 'PATCH', body: { startsAt: '2026-02-01' }, status: 400, message: /^VALIDATION_FAILED: startsAt$/ },
    { name: 'PATCH the promotion through another card', method: 'PATCH', card: 'points', body: { name: 'x' }, status: 404, message: /^PROMOTION_NOT_FOUND/ },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name} (${c.status}), nothing written`, async () => {
      const mine = await call('POST', path('stamps'), DOUBLE);
      const card = c.card === 'other' ? other.cards.stamps : c.card === 'prepaid' ? org.cards.prepaid : (c.card ?? org.cards.stamps);
      const url = c.method === 'POST' || (c.method === 'GET' && c.card) ? path(card) : path(card, mine.body.id);
      const before = stored();
      const res = await call(c.method, url, c.body, c.key?.());
      assert.equal(res.status, c.status, res.text);
      assert.match(res.body.message, c.message);
      assert.deepEqual(stored(), before);
      await call('DELETE', path('stamps', mine.body.id));
    });
  }

  it('lists no promotions on a prepaid card', async () => {
    const res = await call('GET', path('prepaid'));
    assert.deepEqual([res.status, res.body], [200, []]);
  });

  it('keeps at most 10 that have not ended: the 11th is refused, an ended one does not count', async () => {
    const made: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', path('levels'), { ...PLUS_TWO, name: `Bonus ${i}` });
      assert.equal(res.status, 201, res.text);
      made.push(res.body.id);
    }
    const eleventh = await call('POST', path('levels'), { ...PLUS_TWO, name: 'One too many' });
    assert.equal(eleventh.status, 400, eleventh.text);
    assert.match(eleventh.body.message, /^VALIDATION_FAILED/);
    assert.match(eleventh.body.issues[0].message, /already has 10 promotions that have not ended/);

    const past = await call('POST', path('levels'), { ...PLUS_TWO, name: 'Last December', startsAt: '2025-12-01', endsAt: '2025-12-31' });
    assert.equal(past.status, 201, `an ended one is no 11th: ${past.text}`);
    const reopened = await call('PATCH', path('levels', past.body.id), { endsAt: '2026-01-15' });
    assert.equal(reopened.status, 400, 'reopening it would make 11');

    await call('DELETE', path('levels', made[0]!));
    assert.equal((await call('POST', path('levels'), { ...PLUS_TWO, name: 'Now there is room' })).status, 201);

    // Once a promotion's last day is over it frees its place.
    app.clock.set(Date.parse('2026-01-12T00:00:00Z'));
    assert.equal((await call('POST', path('levels'), { ...PLUS_TWO, name: 'Next week', startsAt: '2026-01-12', endsAt: '2026-01-18' })).status, 201);
    app.clock.set(Date.parse('2026-01-01T00:00:00Z'));
  });

  it('takes an Idempotency-Key on POST: a retry creates nothing more', async () => {
    const headers = { 'Idempotency-Key': 'promo-1' };
    const first = await call('POST', path('stamps'), PLUS_TWO, org.keys.live, headers);
    const again = await call('POST', path('stamps'), PLUS_TWO, org.keys.live, headers);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.equal(again.text, first.text);
    assert.equal(stored().filter((p: any) => p.name === PLUS_TWO.name && p.card_id === org.cards.stamps).length, 1);
    await call('DELETE', path('stamps', first.body.id));
  });
});

describe('promotions applied to earns', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  const ids: Record<string, string> = {};
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' });
    const make = async (card: LoyaltyCardRef, name: string, body: Json) => {
      const res = await app.request('POST', `/api/v1/cards/${org.cards[card]}/promotions`, { key: org.keys.live, body: { name, ...body } });
      assert.equal(res.status, 201, res.text);
      ids[name] = res.body.id;
    };
    // Stamps: ×1.5 on Tuesday afternoons in January, +2 on every award of 5–11 January.
    await make('stamps', 'tuesdays', { kind: 'multiplier', value: 1.5, startsAt: '2026-01-01', endsAt: '2026-01-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } });
    await make('stamps', 'week', { kind: 'bonus', value: 2, startsAt: '2026-01-05', endsAt: '2026-01-11' });
    // Limits judge the base: ×2 on the cards capped at 50 an award and 100 a day.
    await make('perAward', 'double 50', { kind: 'multiplier', value: 2, startsAt: '2026-01-01', endsAt: '2026-12-31' });
    await make('day', 'double 100', { kind: 'multiplier', value: 2, startsAt: '2026-01-01', endsAt: '2026-12-31' });
    await make('points', 'double', { kind: 'multiplier', value: 2, startsAt: '2026-01-01', endsAt: '2026-12-31' });
  });
  after(() => app.close());

  // Tuesday 6 January 2026, 15:00 in Berlin (14:00 UTC).
  const TUESDAY_3PM = '2026-01-06T14:00:00Z';
  const cases: { name: string; at: string; card?: LoyaltyCardRef; body: Json; change: number; promotions: string[]; extra: number; test?: boolean }[] = [
    { name: 'both: floor(3 × 1.5) − 3 + 2', at: TUESDAY_3PM, body: { type: 'stamps', amount: 3 }, change: 6, promotions: ['tuesdays', 'week'], extra: 3 },
    { name: 'both on items: floor(1 × 1.5) − 1 + 2', at: TUESDAY_3PM, body: { type: 'stamps', from: 'items', items: [{ key: 'latte', quantity: 1 }] }, change: 3, promotions: ['tuesdays', 'week'], extra: 2 },
    { name: 'the first minute of the window', at: '2026-01-06T13:00:00Z', body: { type: 'stamps', amount: 4 }, change: 8, promotions: ['tuesdays', 'week'], extra: 4 },
    { name: '17:00 in Berlin: the window is over, the week’s bonus runs', at: '2026-01-06T16:00:00Z', body: { type: 'stamps', amount: 3 }, change: 5, promotions: ['week'], extra: 2 },
    { name: 'Wednesday: the bonus alone', at: '2026-01-07T14:00:00Z', body: { type: 'stamps', amount: 3 }, change: 5, promotions: ['week'], extra: 2 },
    { name: 'a Tuesday after the bonus week: the multiplier alone', at: '2026-01-13T14:00:00Z', body: { type: 'stamps', amount: 3 }, change: 4, promotions: ['tuesdays'], extra: 1 },
    { name: 'the last day of the bonus week, 23:59 in Berlin', at: '2026-01-11T22:59:00Z', body: { type: 'stamps', amount: 1 }, change: 3, promotions: ['week'], extra: 2 },
    { name: 'the day after, 00:00 in Berlin (still the 11th in UTC)', at: '2026-01-11T23:00:00Z', body: { type: 'stamps', amount: 1 }, change: 1, promotions: [], extra: 0 },
    { name: 'February: none', at: '2026-02-03T14:00:00Z', body: { type: 'stamps', amount: 3 }, change: 3, promotions: [], extra: 0 },
    { name: 'a test customer gets them too', at: TUESDAY_3PM, body: { type: 'stamps', amount: 3 }, change: 6, promotions: ['tuesdays', 'week'], extra: 3, test: true },
    { name: 'a sale on a point card: floor(10.99 × 1.5) × 2', at: TUESDAY_3PM, card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 10.99, currency: 'EUR' } }, change: 32, promotions: ['double'], extra: 16 },
    { name: 'an award at the cap per award: the base meets it, the double passes it', at: TUESDAY_3PM, card: 'perAward', body: { type: 'points', amount: 50 }, change: 100, promotions: ['double 50'], extra: 50 },
  ];
  for (const c of cases) {
    it(`earn: ${c.name} → change ${c.change}`, async () => {
      app.clock.set(Date.parse(c.at));
      const card = c.card ?? 'stamps';
      const customer = customerOn(app, org, card, { livemode: !c.test });
      const res = await operate(app, c.test ? org.keys.test : org.keys.live, customer, 'earn', c.body);
      assert.equal(res.status, 201, res.text);
      const promotionIds = c.promotions.map((name) => ids[name]);
      assert.deepEqual({ change: res.body.change, promotionIds: res.body.promotionIds, extra: res.body.extra }, { change: c.change, promotionIds, extra: c.extra });
      const state = ledgerState(app, customer.id);
      assert.deepEqual([state.balance, state.ledgerSum, state.ledgerRows], [c.change * 100, c.change * 100, 1], 'one ledger row with the total');
      assert.deepEqual(state.events.map((e) => [e.type, e.data.change, e.data.promotionIds, e.data.extra]), [['balance.updated', c.change, promotionIds, c.extra]]);
      const history = await app.request('GET', `/api/v1/customers/pu_${customer.id}/transactions`, { key: c.test ? org.keys.test : org.keys.live });
      const details = history.body.data[0].details;
      if (promotionIds.length === 0) assert.equal(details?.promotions, undefined, 'no promotion, nothing said of one');
      else assert.deepEqual(details.promotions, { ids: promotionIds, extra: c.extra });
      if (c.body.from) assert.equal(details.from, c.body.from, 'what the sale was stays in the details');
    });
  }

  it('the earning limits judge the base: an award over the cap per award is refused, promotions or not', async () => {
    app.clock.set(Date.parse(TUESDAY_3PM));
    const customer = customerOn(app, org, 'perAward');
    const res = await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 51 });
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.message, /^AWARD_MAX_PER_AWARD: this card awards at most 50 at a time; this award is 51$/);
  });

  it('the daily cap counts base awards: what promotions added does not use it up', async () => {
    app.clock.set(Date.parse(TUESDAY_3PM));
    const customer = customerOn(app, org, 'day');
    const first = await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 60 });
    assert.deepEqual([first.status, first.body.change], [201, 120]);
    app.clock.advance(60_000);
    const second = await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 40 });
    assert.deepEqual([second.status, second.body.change], [201, 80], 'base 60 + 40 is the cap of 100, though 200 points were given');
    app.clock.advance(60_000);
    const third = await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 1 });
    assert.equal(third.status, 400, third.text);
    assert.match(third.body.message, /^AWARD_PERIOD_LIMIT: .*100 awarded in that window/);
  });

  it('never applies to adjust or redeem, whose events say nothing of promotions', async () => {
    app.clock.set(Date.parse(TUESDAY_3PM));
    const customer = customerOn(app, org, 'stamps', { balance: 20 });
    const adjust = await operate(app, org.keys.live, customer, 'adjust', { balanceCorrection: 3 });
    const redeem = await operate(app, org.keys.live, customer, 'redeem', { type: 'reward' });
    assert.deepEqual([adjust.body.change, redeem.body.change], [3, -10]);
    assert.equal('promotionIds' in adjust.body, false);
    for (const event of ledgerState(app, customer.id).events) assert.equal('promotionIds' in event.data, false, event.type);
  });

  it('a promotion added, changed or deleted counts from the next earn on; earlier rows keep their ids', async () => {
    app.clock.set(Date.parse('2026-03-03T10:00:00Z'));
    const customer = customerOn(app, org, 'levels');
    const earn = () => operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 10 });
    assert.deepEqual((await earn()).body.promotionIds, []);
    const created = await app.request('POST', `/api/v1/cards/${org.cards.levels}/promotions`, { key: org.keys.live, body: { name: 'Club days', kind: 'bonus', value: 5, startsAt: '2026-03-03', endsAt: '2026-03-03' } });
    const withIt = await earn();
    assert.deepEqual([withIt.body.change, withIt.body.promotionIds], [15, [created.body.id]]);
    await app.request('PATCH', `/api/v1/cards/${org.cards.levels}/promotions/${created.body.id}`, { key: org.keys.live, body: { kind: 'multiplier', value: 3 } });
    assert.equal((await earn()).body.change, 30);
    await app.request('DELETE', `/api/v1/cards/${org.cards.levels}/promotions/${created.body.id}`, { key: org.keys.live });
    assert.equal((await earn()).body.change, 10);
    const history = await app.request('GET', `/api/v1/customers/pu_${customer.id}/transactions`, { key: org.keys.live });
    assert.deepEqual(history.body.data.map((t: Json) => t.details?.promotions?.ids ?? []), [[], [created.body.id], [created.body.id], []]);
  });
});
