import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, operate, seedLoyaltyOrg, type LoyaltyOrg } from './support/ledger-fixtures';

describe('GET /v1/customers/{ref}/transactions', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  let other: LoyaltyOrg;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    other = seedLoyaltyOrg(app, 'Other shop');
  });
  after(() => app.close());

  const list = (ref: string, query = '', key = org.keys.reader) => app.request('GET', `/api/v1/customers/${encodeURIComponent(ref)}/transactions${query}`, { key });

  it('lists every change newest first, amounts in units, details where they explain the change', async () => {
    const customer = customerOn(app, org, 'points', { balance: 120, externalId: 'hist-1' });
    const opened = new Date(app.clock.now()).toISOString();
    app.clock.advance(1000);
    const steps: [string, unknown][] = [
      ['earn', { type: 'points', from: 'spend', spend: { amount: 10.99, currency: 'EUR' }, note: 'till 2' }],
      ['redeem', { type: 'reward' }],
      ['adjust', { setPoints: 7 }],
      ['adjust', { balanceCorrection: -2 }],
    ];
    // All in the same millisecond: the order written is still the order listed.
    for (const [op, body] of steps) assert.equal((await operate(app, org.keys.live, customer, op as 'earn', body)).status, 201);

    const res = await list('hist-1');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.nextCursor, null);
    const at = new Date(app.clock.now()).toISOString();
    const voucherId = (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body.find((c: { cardId: string }) => c.cardId === org.cards.points).rewards[0].id;
    assert.deepEqual(
      res.body.data.map(({ id, ...rest }: { id: string }) => (assert.match(id, /^tx_/), rest)),
      [
        { kind: 'adjust', change: -2, balanceAfter: 5, source: 'api', staff: null, note: null, createdAt: at },
        { kind: 'adjust', change: -29, balanceAfter: 7, source: 'api', staff: null, note: null, createdAt: at, details: { setPoints: 7 } },
        { kind: 'redeem', change: -100, balanceAfter: 36, source: 'api', staff: null, note: null, createdAt: at, details: { reward: { id: voucherId, name: 'Voucher', cost: 100 } } },
        { kind: 'earn', change: 16, balanceAfter: 136, source: 'api', staff: null, note: 'till 2', createdAt: at, details: { from: 'spend', spend: { amount: 10.99, currency: 'EUR' }, rate: 1.5 } },
        { kind: 'initial', change: 120, balanceAfter: 120, source: 'api', staff: null, note: null, createdAt: opened },
      ],
    );
  });

  it('shows item sales with each item’s value, and prepaid cents', async () => {
    const stamps = customerOn(app, org, 'stamps');
    await operate(app, org.keys.live, stamps, 'earn', { type: 'stamps', from: 'items', items: [{ key: 'cake', quantity: 2 }] });
    const prepaid = customerOn(app, org, 'prepaidItems');
    await operate(app, org.keys.live, prepaid, 'earn', { type: 'points', from: 'items', items: [{ key: 'cent', quantity: 3 }] });

    const a = await list(`pu_${stamps.id}`);
    assert.deepEqual(a.body.data[0].details, { from: 'items', items: [{ key: 'cake', quantity: 2, each: 2 }] });
    const b = await list(`pu_${prepaid.id}`);
    assert.deepEqual([b.body.data[0].change, b.body.data[0].details], [0.03, { from: 'items', items: [{ key: 'cent', quantity: 3, each: 0.01 }] }]);
  });

  it('pages with limit and cursor, and rows written meanwhile do not shift the pages', async () => {
    const customer = customerOn(app, org, 'stamps');
    for (let i = 1; i <= 5; i++) {
      app.clock.advance(i % 2 === 0 ? 0 : 1000); // some rows share a millisecond
      await operate(app, org.keys.live, customer, 'earn', { type: 'stamps', amount: i });
    }
    const ref = `pu_${customer.id}`;
    const first = await list(ref, '?limit=2');
    assert.deepEqual(first.body.data.map((t: { change: number }) => t.change), [5, 4]);
    assert.equal(typeof first.body.nextCursor, 'string');

    await operate(app, org.keys.live, customer, 'earn', { type: 'stamps', amount: 9 });

    const second = await list(ref, `?limit=2&cursor=${first.body.nextCursor}`);
    assert.deepEqual(second.body.data.map((t: { change: number }) => t.change), [3, 2]);
    const third = await list(ref, `?limit=2&cursor=${second.body.nextCursor}`);
    assert.deepEqual(third.body.data.map((t: { change: number }) => t.change), [1]);
    assert.equal(third.body.nextCursor, null);

    const exact = await list(ref, '?limit=6');
    assert.deepEqual([exact.body.data.length, exact.body.nextCursor], [6, null], 'a page that ends exactly at the last row has no next cursor');
  });

  it('answers 25 rows by default and at most 100', async () => {
    const customer = customerOn(app, org, 'points');
    for (let i = 0; i < 30; i++) await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 1 });
    const byDefault = await list(`pu_${customer.id}`);
    assert.equal(byDefault.body.data.length, 25);
    const all = await list(`pu_${customer.id}`, '?limit=100');
    assert.deepEqual([all.body.data.length, all.body.nextCursor], [30, null]);
  });

  const badQueries: [string, RegExp][] = [
    ['?limit=0', /^VALIDATION_FAILED: limit$/],
    ['?limit=101', /^VALIDATION_FAILED: limit$/],
    ['?limit=ten', /^VALIDATION_FAILED: limit$/],
    ['?limit=5&limit=6', /^VALIDATION_FAILED: limit$/],
    ['?cursor=bm9wZQ', /^VALIDATION_FAILED: cursor$/],
    ['?page=2', /^VALIDATION_FAILED: page$/],
  ];
  for (const [query, message] of badQueries) {
    it(`refuses ${query}`, async () => {
      const customer = customerOn(app, org, 'points');
      const res = await list(`pu_${customer.id}`, query);
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, message);
    });
  }

  it('finds customers only in the key’s org and mode, and needs customers:read', async () => {
    const live = customerOn(app, org, 'points', { externalId: 'iso-1' });
    const test = customerOn(app, org, 'points', { externalId: 'iso-1', livemode: false, balance: 4 });
    const foreign = customerOn(app, other, 'points', { externalId: 'iso-2' });

    assert.deepEqual((await list('iso-1', '', org.keys.live)).body.data, []);
    assert.deepEqual((await list('iso-1', '', org.keys.test)).body.data.map((t: { change: number }) => t.change), [4]);
    for (const [key, ref] of [
      [org.keys.test, `pu_${live.id}`],
      [org.keys.live, `pu_${test.id}`],
      [org.keys.live, 'iso-2'],
      [other.keys.live, `pu_${live.id}`],
      [other.keys.live, `pu_${foreign.id}x`],
    ] as const) {
      const res = await list(ref, '', key);
      assert.equal(res.status, 404, `${ref}: ${res.text}`);
      assert.match(res.body.message, /^CUSTOMER_NOT_FOUND/);
    }
  });

  it('is in the OpenAPI document with the loyalty endpoints, their schemas and the idempotency header', async () => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    for (const op of ['earn', 'redeem', 'adjust']) {
      const post = doc.paths[`/api/v1/customers/{ref}/${op}`]?.post;
      assert.ok(post, op);
      assert.equal(post['x-required-scope'], 'loyalty:write');
      // A oneOf of complete shapes: by amount, spend or items; points or reward; correction or setPoints.
      const shapes = post.requestBody.content['application/json'].schema.oneOf;
      assert.ok(shapes.length >= 2 && shapes.every((shape: { properties?: object }) => shape.properties), `${op} request schema`);
      assert.deepEqual(Object.keys(post.responses['201'].content['application/json'].schema.properties).sort(), op === 'redeem' ? ['balance', 'change', 'reward', 'rewardId', 'transactionId'] : op === 'earn' ? ['balance', 'change', 'extra', 'promotionIds', 'transactionId'] : ['balance', 'change', 'transactionId']);
      assert.ok(post.parameters.some((p: { name: string; required: boolean }) => p.name === 'Idempotency-Key' && p.required === false), `${op} Idempotency-Key`);
    }
    const earnBody = doc.paths['/api/v1/customers/{ref}/earn'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(
      earnBody.oneOf.map((shape: { required: string[] }) => shape.required),
      [['type', 'amount'], ['type', 'amount'], ['type', 'from', 'spend'], ['type', 'from', 'items']],
    );
    // A flat amount of stamps is a whole number in the document's own words; of points, the card decides.
    assert.deepEqual(earnBody.oneOf.slice(0, 2).map((shape: { properties: { type: { const: string }; amount: { type: string } } }) => [shape.properties.type.const, shape.properties.amount.type]), [['stamps', 'integer'], ['points', 'number']]);
    const get = doc.paths['/api/v1/customers/{ref}/transactions'].get;
    assert.equal(get['x-required-scope'], 'customers:read');
    assert.deepEqual(get.parameters.map((p: { name: string }) => p.name).sort(), ['cursor', 'limit', 'ref']);
    assert.deepEqual(Object.keys(get.responses['200'].content['application/json'].schema.properties).sort(), ['data', 'nextCursor']);
  });
});
