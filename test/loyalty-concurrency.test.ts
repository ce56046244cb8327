import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, ledgerState, operate, seedLoyaltyOrg, type LoyaltyOrg } from './support/ledger-fixtures';

describe('concurrent writes to one customer', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
  });
  after(() => app.close());

  it('200 parallel earns without idempotency keys: balance, ledger sum and event count are exact', async () => {
    const customer = customerOn(app, org, 'levels', { balance: 7 });
    // Different amounts, so a lost or doubled update cannot hide behind a matching total.
    const amounts = Array.from({ length: 200 }, (_, i) => (i % 9) + 1);
    const replies = await Promise.all(amounts.map((amount) => operate(app, org.keys.live, customer, 'earn', { type: 'points', amount })));

    assert.deepEqual(replies.map((r) => r.status), amounts.map(() => 201));
    const expected = 7 + amounts.reduce((a, b) => a + b, 0);
    const state = ledgerState(app, customer.id);
    assert.equal(state.balance, expected * 100);
    assert.equal(state.ledgerSum, state.balance);
    assert.equal(state.ledgerRows, 201);
    assert.equal(new Set(replies.map((r) => r.body.transactionId)).size, 200);
    // Each earn saw the balance the previous one left: the balances after are all different and
    // the largest is the final balance.
    const after = replies.map((r) => r.body.balance.points as number);
    assert.equal(new Set(after).size, 200);
    assert.equal(Math.max(...after), expected);

    const updates = state.events.filter((e) => e.type === 'balance.updated');
    assert.equal(updates.length, 200);
    assert.equal(updates.reduce((sum, e) => sum + e.data.change, 0), expected - 7);
    // 7 → Silver (100) → Gold (500): two tier changes among the 200, no more.
    assert.deepEqual(state.events.filter((e) => e.type === 'level.changed').map((e) => e.data.level), ['Silver', 'Gold']);
  });

  it('parallel redeems never take the balance below zero', async () => {
    const customer = customerOn(app, org, 'points', { balance: 50 });
    const replies = await Promise.all(Array.from({ length: 80 }, () => operate(app, org.keys.live, customer, 'redeem', { type: 'points', amount: 1 })));
    assert.equal(replies.filter((r) => r.status === 201).length, 50);
    assert.ok(replies.filter((r) => r.status !== 201).every((r) => r.status === 400 && r.body.message.startsWith('INSUFFICIENT_BALANCE')));
    const state = ledgerState(app, customer.id);
    assert.deepEqual([state.balance, state.ledgerSum, state.ledgerRows, state.events.length], [0, 0, 51, 50]);
  });

  it('50 parallel earns sharing one Idempotency-Key apply once', async () => {
    const customer = customerOn(app, org, 'stamps');
    const replies = await Promise.all(Array.from({ length: 50 }, () => operate(app, org.keys.live, customer, 'earn', { type: 'stamps', amount: 1 }, { 'Idempotency-Key': 'same' })));
    const applied = replies.filter((r) => r.status === 201 && r.headers.get('Idempotent-Replayed') === null);
    assert.equal(applied.length, 1);
    // The others either waited for nothing (409 while the first ran) or got the first reply back.
    for (const r of replies) {
      if (r === applied[0]) continue;
      if (r.status === 201) assert.equal(r.text, applied[0]!.text);
      else assert.match(r.body.message, /^IDEMPOTENCY_KEY_IN_USE/);
    }
    const state = ledgerState(app, customer.id);
    assert.deepEqual([state.balance, state.ledgerRows, state.events.length], [100, 1, 1]);
  });
});
