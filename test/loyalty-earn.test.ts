import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, ledgerState, operate, seedLoyaltyOrg, tableCounts, type LoyaltyCardRef, type LoyaltyOrg } from './support/ledger-fixtures';

describe('POST /v1/customers/{ref}/earn', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  let other: LoyaltyOrg;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    other = seedLoyaltyOrg(app, 'Other shop');
  });
  after(() => app.close());

  // Card type × earn type: stamps only on stamp cards, points on every other.
  const typeMatrix: { card: LoyaltyCardRef; type: 'stamps' | 'points'; balance?: unknown }[] = [
    { card: 'stamps', type: 'stamps', balance: { stamps: 3 } },
    { card: 'stamps', type: 'points' },
    { card: 'points', type: 'points', balance: { points: 3 } },
    { card: 'points', type: 'stamps' },
    { card: 'levels', type: 'points', balance: { points: 3, level: 'Bronze' } },
    { card: 'levels', type: 'stamps' },
    { card: 'prepaid', type: 'points', balance: { points: 3 } },
    { card: 'prepaid', type: 'stamps' },
  ];
  for (const c of typeMatrix) {
    it(`type=${c.type} on a ${c.card} card: ${c.balance ? '201' : '400 UNSUPPORTED_FOR_CARD_TYPE'}`, async () => {
      const customer = customerOn(app, org, c.card);
      const res = await operate(app, org.keys.live, customer, 'earn', { type: c.type, amount: 3 });
      const state = ledgerState(app, customer.id);
      if (c.balance) {
        assert.equal(res.status, 201, res.text);
        assert.deepEqual(res.body.balance, c.balance);
        assert.equal(res.body.change, 3);
        assert.match(res.body.transactionId, /^tx_[0-9A-Za-z]{20}$/);
        assert.deepEqual([state.balance, state.ledgerSum, state.ledgerRows], [300, 300, 1]);
      } else {
        assert.equal(res.status, 400, res.text);
        assert.match(res.body.message, /^UNSUPPORTED_FOR_CARD_TYPE/);
        assert.deepEqual([state.balance, state.ledgerRows, state.events.length], [0, 0, 0]);
      }
    });
  }

  // Accrual: floor(amount × rate) whole units, prepaid floored to the cent; items × quantity.
  const accrualCases: { name: string; card: LoyaltyCardRef; body: Record<string, unknown>; change: number; balance: unknown }[] = [
    { name: 'spend 10.99 EUR × 1.5 = 16.485 → 16', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 10.99, currency: 'EUR' } }, change: 16, balance: { points: 16 } },
    { name: 'spend 10 EUR × 1.5 = 15 exactly', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 10, currency: 'EUR' } }, change: 15, balance: { points: 15 } },
    { name: 'spend 0.66 EUR × 1.5 = 0.99 → 0', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 0.66, currency: 'EUR' } }, change: 0, balance: { points: 0 } },
    { name: 'currency is matched case-insensitively', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 2, currency: 'eur' } }, change: 3, balance: { points: 3 } },
    { name: 'prepaid: 10.99 EUR × 0.05 = 0.5495 → 0.54', card: 'prepaid', body: { type: 'points', from: 'spend', spend: { amount: 10.99, currency: 'EUR' } }, change: 0.54, balance: { points: 0.54 } },
    { name: 'prepaid: 0.19 EUR × 0.05 = 0.0095 → 0', card: 'prepaid', body: { type: 'points', from: 'spend', spend: { amount: 0.19, currency: 'EUR' } }, change: 0, balance: { points: 0 } },
    { name: 'prepaid: 123456.78 EUR × 0.05 = 6172.839 → 6172.83', card: 'prepaid', body: { type: 'points', from: 'spend', spend: { amount: 123456.78, currency: 'EUR' } }, change: 6172.83, balance: { points: 6172.83 } },
    { name: 'stamps on spend: 14.99 EUR × 0.2 = 2.998 → 2', card: 'stampSpend', body: { type: 'stamps', from: 'spend', spend: { amount: 14.99, currency: 'EUR' } }, change: 2, balance: { stamps: 2 } },
    { name: 'stamps on spend: 0.29 EUR × 0.2 = 0.058 → 0 (no float drift on 0.29)', card: 'stampSpend', body: { type: 'stamps', from: 'spend', spend: { amount: 0.29, currency: 'EUR' } }, change: 0, balance: { stamps: 0 } },
    { name: 'level spend 3.33 USD × 2.5 = 8.325 → 8', card: 'levelAccrual', body: { type: 'points', from: 'spend', spend: { amount: 3.33, currency: 'USD' } }, change: 8, balance: { points: 8, level: 'Bronze' } },
    { name: 'items: 2 lattes + 1 cake = 4 stamps', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'latte', quantity: 2 }, { key: 'cake', quantity: 1 }] }, change: 4, balance: { stamps: 4 } },
    { name: 'items: a key listed twice counts twice', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'latte', quantity: 1 }, { key: 'latte', quantity: 2 }] }, change: 3, balance: { stamps: 3 } },
    { name: 'items on a level card: 2 shirts × 40 = 80', card: 'levelAccrual', body: { type: 'points', from: 'items', items: [{ key: 'shirt', quantity: 2 }] }, change: 80, balance: { points: 80, level: 'Bronze' } },
    { name: 'items on prepaid: 7 × 0.01 + 10 = 10.07', card: 'prepaidItems', body: { type: 'points', from: 'items', items: [{ key: 'cent', quantity: 7 }, { key: 'topup10', quantity: 1 }] }, change: 10.07, balance: { points: 10.07 } },
  ];
  for (const c of accrualCases) {
    it(`accrual: ${c.name}`, async () => {
      const customer = customerOn(app, org, c.card);
      const res = await operate(app, org.keys.live, customer, 'earn', c.body);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual({ balance: res.body.balance, change: res.body.change }, { balance: c.balance, change: c.change });
      const state = ledgerState(app, customer.id);
      assert.equal(state.ledgerRows, 1, 'even a sale worth 0 records its transaction');
      assert.equal(state.balance, Math.round(c.change * 100));
      assert.equal(state.ledgerSum, state.balance);
      if (c.change === 0) {
        assert.deepEqual(state.events, [], 'a sale worth 0 emits nothing');
        assert.equal(state.passVersion, 1, 'nothing on the pass changed');
      } else {
        assert.deepEqual(state.events.map((e) => [e.type, e.data.change]), [['balance.updated', c.change]]);
      }
    });
  }

  const refusals: { name: string; card: LoyaltyCardRef; body: unknown; status?: number; message: RegExp; balance?: number }[] = [
    { name: 'another currency', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 10, currency: 'USD' } }, message: /^CURRENCY_MISMATCH: this card earns on EUR spend, the sale is in USD$/ },
    { name: 'spend on a card without a spend rate', card: 'levels', body: { type: 'points', from: 'spend', spend: { amount: 10, currency: 'EUR' } }, message: /^ACCRUAL_RULE_NOT_CONFIGURED/ },
    { name: 'items on a card without item values', card: 'points', body: { type: 'points', from: 'items', items: [{ key: 'latte', quantity: 1 }] }, message: /^ACCRUAL_RULE_NOT_CONFIGURED/ },
    { name: 'unknown item keys, each named once', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'tea', quantity: 1 }, { key: 'latte', quantity: 1 }, { key: 'juice', quantity: 1 }, { key: 'tea', quantity: 2 }] }, message: /^UNKNOWN_ITEM_KEYS: tea, juice$/ },
    { name: 'item keys match exactly (case)', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'Latte', quantity: 1 }] }, message: /^UNKNOWN_ITEM_KEYS: Latte$/ },
    { name: 'a prototype name is not an item', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'constructor', quantity: 1 }] }, message: /^UNKNOWN_ITEM_KEYS: constructor$/ },
    // Exactly one of amount or from, and the field that goes with from.
    { name: 'neither amount nor from', card: 'points', body: { type: 'points' }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'both amount and from', card: 'points', body: { type: 'points', amount: 1, from: 'spend', spend: { amount: 1, currency: 'EUR' } }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'from=spend without spend', card: 'points', body: { type: 'points', from: 'spend' }, message: /^VALIDATION_FAILED: spend$/ },
    { name: 'from=spend with items', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 1, currency: 'EUR' }, items: [{ key: 'latte', quantity: 1 }] }, message: /^VALIDATION_FAILED: items$/ },
    { name: 'from=items without items', card: 'stamps', body: { type: 'stamps', from: 'items' }, message: /^VALIDATION_FAILED: items$/ },
    { name: 'from=items with spend', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'latte', quantity: 1 }], spend: { amount: 1, currency: 'EUR' } }, message: /^VALIDATION_FAILED: spend$/ },
    { name: 'spend without from', card: 'points', body: { type: 'points', spend: { amount: 1, currency: 'EUR' } }, message: /^VALIDATION_FAILED: amount, spend$/ },
    { name: 'amount 0', card: 'points', body: { type: 'points', amount: 0 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'negative amount', card: 'points', body: { type: 'points', amount: -5 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'a fraction on a point card', card: 'points', body: { type: 'points', amount: 1.5 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'a fraction on a stamp card', card: 'stamps', body: { type: 'stamps', amount: 0.5 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'a fraction on a level card', card: 'levels', body: { type: 'points', amount: 10.1 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'three decimals on prepaid', card: 'prepaid', body: { type: 'points', amount: 1.555 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'more than 1,000,000,000', card: 'points', body: { type: 'points', amount: 1_000_000_001 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'a balance that would pass 1,000,000,000', card: 'points', balance: 999_999_999, body: { type: 'points', amount: 2 }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'an item sale that would pass 1,000,000,000', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'cake', quantity: 600_000_000 }] }, message: /^VALIDATION_FAILED: items$/ },
    { name: 'spend with 3 decimals', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 10.999, currency: 'EUR' } }, message: /^VALIDATION_FAILED: spend\.amount$/ },
    { name: 'a malformed currency', card: 'points', body: { type: 'points', from: 'spend', spend: { amount: 1, currency: 'EURO' } }, message: /^VALIDATION_FAILED: spend\.currency$/ },
    { name: 'a zero quantity', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'latte', quantity: 0 }] }, message: /^VALIDATION_FAILED: items\[0\]\.quantity$/ },
    { name: 'a fractional quantity', card: 'stamps', body: { type: 'stamps', from: 'items', items: [{ key: 'latte', quantity: 1.5 }] }, message: /^VALIDATION_FAILED: items\[0\]\.quantity$/ },
    { name: 'an empty item list', card: 'stamps', body: { type: 'stamps', from: 'items', items: [] }, message: /^VALIDATION_FAILED: items$/ },
    { name: 'an unknown type', card: 'points', body: { type: 'credit', amount: 1 }, message: /^VALIDATION_FAILED: type$/ },
    { name: 'no type', card: 'points', body: { amount: 1 }, message: /^VALIDATION_FAILED: type$/ },
    { name: 'an unknown field', card: 'points', body: { type: 'points', amount: 1, points: 1 }, message: /^VALIDATION_FAILED: points$/ },
    { name: 'a string amount', card: 'points', body: { type: 'points', amount: '5' }, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'a note over 500 characters', card: 'points', body: { type: 'points', amount: 1, note: 'x'.repeat(501) }, message: /^VALIDATION_FAILED: note$/ },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name} and writes nothing`, async () => {
      const customer = customerOn(app, org, c.card, { balance: c.balance ?? 0 });
      const before = { state: ledgerState(app, customer.id), tables: tableCounts(app) };
      const res = await operate(app, org.keys.live, customer, 'earn', c.body);
      assert.equal(res.status, c.status ?? 400, res.text);
      assert.match(res.body.message, c.message);
      assert.deepEqual({ state: ledgerState(app, customer.id), tables: tableCounts(app) }, before);
    });
  }

  it('UNKNOWN_ITEM_KEYS lists the keys in `keys` too, as the customFields errors do, so a key holding ", " stays readable', async () => {
    const customer = customerOn(app, org, 'stamps');
    const res = await operate(app, org.keys.live, customer, 'earn', { type: 'stamps', from: 'items', items: [{ key: 'tea, juice', quantity: 1 }, { key: 'latte', quantity: 1 }, { key: 'tea', quantity: 1 }] });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message: 'UNKNOWN_ITEM_KEYS: tea, juice, tea', keys: ['tea, juice', 'tea'] });
    assert.equal(ledgerState(app, customer.id).ledgerRows, 0);
  });

  it('accepts exactly 1,000,000,000 and a balance of exactly 1,000,000,000', async () => {
    const customer = customerOn(app, org, 'points');
    const res = await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 1_000_000_000 });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.balance, { points: 1_000_000_000 });
  });

  it('0.1 + 0.2 = 0.3 on a prepaid card', async () => {
    const customer = customerOn(app, org, 'prepaid');
    await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 0.1 });
    const res = await operate(app, org.keys.live, customer, 'earn', { type: 'points', amount: 0.2 });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body, { balance: { points: 0.3 }, transactionId: res.body.transactionId, change: 0.2, promotionIds: [], extra: 0 });
    const state = ledgerState(app, customer.id);
    assert.deepEqual([state.balance, state.ledgerSum], [30, 30]);
    assert.deepEqual(state.events.map((e) => e.data.balance), [0.1, 0.3]);
  });

  it('emits balance.updated with the documented data, and the ledger row records the request', async () => {
    const customer = customerOn(app, org, 'points', { balance: 5, externalId: 'crm-77' });
    const res = await operate(app, org.keys.live, 'crm-77', 'earn', { type: 'points', from: 'spend', spend: { amount: 7, currency: 'EUR' }, note: 'till 3' }, { 'Idempotency-Key': 'k-record' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body, { balance: { points: 15 }, transactionId: res.body.transactionId, change: 10, promotionIds: [], extra: 0 });
    const state = ledgerState(app, customer.id);
    assert.deepEqual(state.events, [
      {
        type: 'balance.updated',
        livemode: true,
        data: { externalCustomerId: 'crm-77', passUserId: customer.id, cardId: org.cards.points, cardType: 'point_card', balance: 15, change: 10, promotionIds: [], extra: 0, source: 'api' },
      },
    ]);
    assert.equal(state.passVersion, 2, 'the pass version moves with the balance');
    const row = app.db.prepare('SELECT kind, source, note, idempotency_key, is_award, balance_after FROM transactions WHERE id = ?').get(res.body.transactionId);
    assert.deepEqual({ ...(row as object) }, { kind: 'earn', source: 'api', note: 'till 3', idempotency_key: 'k-record', is_award: 1, balance_after: 1500 });
  });

  it('replays an idempotent earn: same reply, applied once', async () => {
    const customer = customerOn(app, org, 'stamps');
    const body = { type: 'stamps', amount: 2 };
    const first = await operate(app, org.keys.live, customer, 'earn', body, { 'Idempotency-Key': 'earn-1' });
    const again = await operate(app, org.keys.live, customer, 'earn', body, { 'Idempotency-Key': 'earn-1' });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('Idempotent-Replayed'), null);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.equal(again.text, first.text);
    const state = ledgerState(app, customer.id);
    assert.deepEqual([state.balance, state.ledgerRows, state.events.length], [200, 1, 1]);

    const otherBody = await operate(app, org.keys.live, customer, 'earn', { type: 'stamps', amount: 3 }, { 'Idempotency-Key': 'earn-1' });
    assert.equal(otherBody.status, 422);
    assert.match(otherBody.body.message, /^IDEMPOTENCY_KEY_REUSED/);
    const fresh = await operate(app, org.keys.live, customer, 'earn', body, { 'Idempotency-Key': 'earn-2' });
    assert.equal(fresh.status, 201);
    assert.deepEqual(fresh.body.balance, { stamps: 4 });
    assert.deepEqual([ledgerState(app, customer.id).ledgerRows, ledgerState(app, customer.id).events.length], [2, 2]);
  });

  it('replays a refusal too, without writing', async () => {
    const customer = customerOn(app, org, 'points');
    const first = await operate(app, org.keys.live, customer, 'earn', { type: 'points', from: 'spend', spend: { amount: 1, currency: 'USD' } }, { 'Idempotency-Key': 'refused' });
    const again = await operate(app, org.keys.live, customer, 'earn', { type: 'points', from: 'spend', spend: { amount: 1, currency: 'USD' } }, { 'Idempotency-Key': 'refused' });
    assert.equal(first.status, 400);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.deepEqual(ledgerState(app, customer.id).ledgerRows, 0);
  });

  it('wakes the delivery worker once an idempotent write has committed', async () => {
    let woken = 0;
    const local = await startTestApp({ afterCommit: { eventsWritten: () => void woken++ } });
    try {
      const o = seedLoyaltyOrg(local);
      const customer = customerOn(local, o, 'points');
      await operate(local, o.keys.live, customer, 'earn', { type: 'points', amount: 1 }, { 'Idempotency-Key': 'wake' });
      assert.equal(woken, 1);
      await operate(local, o.keys.live, customer, 'earn', { type: 'points', amount: 1 });
      assert.equal(woken, 2, 'without a key the service commits and wakes the worker itself');
      await operate(local, o.keys.live, customer, 'earn', { type: 'points', amount: 1 }, { 'Idempotency-Key': 'wake' });
      assert.equal(woken, 2, 'a replay wrote nothing');
    } finally {
      await local.close();
    }
  });

  it('an earn that fails after writing keeps nothing of itself, and fails no other request', async () => {
    const failing = customerOn(app, org, 'points');
    const others = Array.from({ length: 4 }, () => customerOn(app, org, 'points'));
    // The ledger row and the balance are written, then the event's insert aborts, as a full disk or a bug would.
    app.db.exec(`CREATE TRIGGER fail_event BEFORE INSERT ON events WHEN NEW.customer_id = '${failing.id}' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    try {
      // Waves of concurrent earns, one of each wave on the failing customer, the rest (with and
      // without an Idempotency-Key) on others: each answer depends on its own request alone.
      for (let wave = 0; wave < 3; wave++) {
        const [failed, ...rest] = await Promise.all([
          operate(app, org.keys.live, failing, 'earn', { type: 'points', amount: 5 }, wave === 1 ? { 'Idempotency-Key': 'failing' } : {}),
          ...Array.from({ length: 16 }, (_, i) =>
            operate(app, org.keys.live, others[i % others.length]!, 'earn', { type: 'points', amount: 1 }, i % 2 ? { 'Idempotency-Key': `beside-${wave}-${i}` } : {}),
          ),
        ]);
        assert.equal(failed!.status, 500);
        assert.doesNotMatch(failed!.text, /disk on fire/, 'no internals in the answer');
        assert.deepEqual(rest.map((r) => r.status), rest.map(() => 201), `wave ${wave}: every other earn succeeded`);
      }
    } finally {
      app.db.exec('DROP TRIGGER fail_event');
    }
    const kept = ledgerState(app, failing.id);
    assert.deepEqual([kept.balance, kept.ledgerRows, kept.events.length, kept.passVersion], [0, 0, 0, failing.passVersion], 'nothing of the failed earn');
    for (const customer of others) {
      const beside = ledgerState(app, customer.id);
      assert.deepEqual([beside.balance, beside.ledgerRows, beside.events.length], [1200, 12, 12]);
    }
    const retry = await operate(app, org.keys.live, failing, 'earn', { type: 'points', amount: 5 });
    assert.deepEqual([retry.status, retry.body.balance], [201, { points: 5 }], 'the next earn runs on what was kept');
  });

  // Every ref form resolves only inside the key's org and mode.
  it('finds customers by each ref form, only in the key’s org and mode', async () => {
    const live = customerOn(app, org, 'points', { externalId: 'shared-id', email: 'Ann@Example.com' });
    const test = customerOn(app, org, 'points', { externalId: 'shared-id', livemode: false });
    const foreign = customerOn(app, other, 'points', { externalId: 'foreign-id' });
    const body = { type: 'points', amount: 1 };

    for (const ref of ['shared-id', `pu_${live.id}`, 'email:ann@example.com']) {
      const res = await operate(app, org.keys.live, ref, 'earn', body);
      assert.equal(res.status, 201, `${ref}: ${res.text}`);
    }
    assert.equal(ledgerState(app, live.id).balance, 300);

    const res = await operate(app, org.keys.test, 'shared-id', 'earn', body);
    assert.equal(res.status, 201);
    assert.deepEqual([ledgerState(app, test.id).balance, ledgerState(app, live.id).balance], [100, 300]);
    assert.deepEqual(ledgerState(app, test.id).events.map((e) => e.livemode), [false], 'test events are marked livemode: false');

    const before = tableCounts(app);
    const misses: [string, string][] = [
      [org.keys.test, `pu_${live.id}`],
      [org.keys.live, `pu_${test.id}`],
      [org.keys.live, 'foreign-id'],
      [org.keys.live, `pu_${foreign.id}`],
      [other.keys.live, `pu_${live.id}`],
      [org.keys.live, 'nobody'],
    ];
    for (const [key, ref] of misses) {
      const miss = await operate(app, key, ref, 'earn', body);
      assert.equal(miss.status, 404, `${ref}: ${miss.text}`);
      assert.match(miss.body.message, /^CUSTOMER_NOT_FOUND/);
    }
    assert.deepEqual(tableCounts(app), before);
  });

  it('needs the loyalty:write scope', async () => {
    const customer = customerOn(app, org, 'points');
    const res = await operate(app, org.keys.reader, customer, 'earn', { type: 'points', amount: 1 });
    assert.equal(res.status, 403);
    assert.equal(res.body.message, 'Missing scope(s): loyalty:write');
    assert.equal(ledgerState(app, customer.id).ledgerRows, 0);
  });
});
