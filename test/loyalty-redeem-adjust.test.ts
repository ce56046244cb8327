import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, ledgerState, operate, seedLoyaltyOrg, tableCounts, type LoyaltyCardRef, type LoyaltyOrg, type Operation } from './support/ledger-fixtures';

interface Case {
  name: string;
  card: LoyaltyCardRef;
  /** Opening balance in units. */
  balance?: number;
  op: Operation;
  body: unknown;
  status: number;
  /** For 201: the reply; for refusals: the message. */
  reply?: Record<string, unknown>;
  message?: RegExp;
  /** Event types in order, for 201. */
  events?: string[];
}

describe('redeem and adjust', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  /** The id of each card's default reward (the first of its list), by card id. */
  let defaultRewardId: Map<string, string>;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    const cards = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
    defaultRewardId = new Map(cards.body.filter((c: any) => c.rewards.length > 0).map((c: any) => [c.cardId, c.rewards[0].id]));
  });
  after(() => app.close());

  const cases: Case[] = [
    // redeem type=points: point, level, prepaid; never stamp.
    { name: 'points on a stamp card', card: 'stamps', balance: 20, op: 'redeem', body: { type: 'points', amount: 1 }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'points on a point card', card: 'points', balance: 50, op: 'redeem', body: { type: 'points', amount: 20 }, status: 201, reply: { balance: { points: 30 }, change: -20 }, events: ['balance.updated'] },
    { name: 'points on a level card', card: 'levels', balance: 50, op: 'redeem', body: { type: 'points', amount: 20 }, status: 201, reply: { balance: { points: 30, level: 'Bronze' }, change: -20 }, events: ['balance.updated'] },
    { name: 'points on a prepaid card, in cents', card: 'prepaid', balance: 10, op: 'redeem', body: { type: 'points', amount: 2.35 }, status: 201, reply: { balance: { points: 7.65 }, change: -2.35 }, events: ['balance.updated'] },
    { name: 'points down to exactly 0', card: 'points', balance: 50, op: 'redeem', body: { type: 'points', amount: 50 }, status: 201, reply: { balance: { points: 0 }, change: -50 }, events: ['balance.updated'] },
    { name: 'points below 0', card: 'points', balance: 50, op: 'redeem', body: { type: 'points', amount: 51 }, status: 400, message: /^INSUFFICIENT_BALANCE: the balance is 50; this needs 51$/ },
    { name: 'prepaid below 0 by a cent', card: 'prepaid', balance: 1, op: 'redeem', body: { type: 'points', amount: 1.01 }, status: 400, message: /^INSUFFICIENT_BALANCE/ },
    { name: 'a fraction on a point card', card: 'points', balance: 50, op: 'redeem', body: { type: 'points', amount: 2.5 }, status: 400, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'type=points without amount', card: 'points', balance: 50, op: 'redeem', body: { type: 'points' }, status: 400, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'amount 0', card: 'points', balance: 50, op: 'redeem', body: { type: 'points', amount: 0 }, status: 400, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'a negative amount', card: 'points', balance: 50, op: 'redeem', body: { type: 'points', amount: -5 }, status: 400, message: /^VALIDATION_FAILED: amount$/ },
    // redeem type=reward: stamp and point cards; never level or prepaid.
    { name: 'the reward on a stamp card', card: 'stamps', balance: 12, op: 'redeem', body: { type: 'reward' }, status: 201, reply: { balance: { stamps: 2 }, change: -10, reward: 'Free coffee' }, events: ['reward.redeemed', 'balance.updated'] },
    { name: 'the reward on a point card', card: 'points', balance: 100, op: 'redeem', body: { type: 'reward', note: 'birthday' }, status: 201, reply: { balance: { points: 0 }, change: -100, reward: 'Voucher' }, events: ['reward.redeemed', 'balance.updated'] },
    { name: 'the reward on a level card', card: 'levels', balance: 600, op: 'redeem', body: { type: 'reward' }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'the reward on a prepaid card', card: 'prepaid', balance: 600, op: 'redeem', body: { type: 'reward' }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'the reward short of its cost', card: 'stamps', balance: 9, op: 'redeem', body: { type: 'reward' }, status: 400, message: /^INSUFFICIENT_BALANCE: the balance is 9; this needs 10$/ },
    { name: 'the reward of a stamp card without one', card: 'stampSpend', balance: 50, op: 'redeem', body: { type: 'reward' }, status: 400, message: /^REWARD_NOT_CONFIGURED/ },
    { name: 'the reward of a point card without one', card: 'pointsBare', balance: 50, op: 'redeem', body: { type: 'reward' }, status: 400, message: /^REWARD_NOT_CONFIGURED/ },
    { name: 'type=reward with an amount', card: 'stamps', balance: 20, op: 'redeem', body: { type: 'reward', amount: 10 }, status: 400, message: /^VALIDATION_FAILED: amount$/ },
    { name: 'an unknown redeem type', card: 'stamps', balance: 20, op: 'redeem', body: { type: 'stamps', amount: 1 }, status: 400, message: /^VALIDATION_FAILED: type$/ },

    // adjust balanceCorrection: every card type; setPoints: point and level only.
    { name: 'a correction on a stamp card', card: 'stamps', balance: 3, op: 'adjust', body: { balanceCorrection: 2 }, status: 201, reply: { balance: { stamps: 5 }, change: 2 }, events: ['balance.updated'] },
    { name: 'a correction on a point card', card: 'points', balance: 3, op: 'adjust', body: { balanceCorrection: -3 }, status: 201, reply: { balance: { points: 0 }, change: -3 }, events: ['balance.updated'] },
    { name: 'a correction on a level card', card: 'levels', balance: 3, op: 'adjust', body: { balanceCorrection: 7 }, status: 201, reply: { balance: { points: 10, level: 'Bronze' }, change: 7 }, events: ['balance.updated'] },
    { name: 'a refund on a prepaid card', card: 'prepaid', balance: 5, op: 'adjust', body: { balanceCorrection: -0.25, note: 'refund #12' }, status: 201, reply: { balance: { points: 4.75 }, change: -0.25 }, events: ['balance.updated'] },
    { name: 'setPoints up on a point card (change = new − old)', card: 'points', balance: 40, op: 'adjust', body: { setPoints: 70 }, status: 201, reply: { balance: { points: 70 }, change: 30 }, events: ['balance.updated'] },
    { name: 'setPoints down on a point card', card: 'points', balance: 40, op: 'adjust', body: { setPoints: 15 }, status: 201, reply: { balance: { points: 15 }, change: -25 }, events: ['balance.updated'] },
    { name: 'setPoints to 0', card: 'levels', balance: 40, op: 'adjust', body: { setPoints: 0 }, status: 201, reply: { balance: { points: 0, level: 'Bronze' }, change: -40 }, events: ['balance.updated'] },
    { name: 'setPoints to the same value: change 0, no event', card: 'points', balance: 40, op: 'adjust', body: { setPoints: 40 }, status: 201, reply: { balance: { points: 40 }, change: 0 }, events: [] },
    { name: 'setPoints on a stamp card', card: 'stamps', balance: 4, op: 'adjust', body: { setPoints: 5 }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'setPoints on a prepaid card', card: 'prepaid', balance: 4, op: 'adjust', body: { setPoints: 5 }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'a correction below 0', card: 'stamps', balance: 4, op: 'adjust', body: { balanceCorrection: -5 }, status: 400, message: /^INSUFFICIENT_BALANCE/ },
    { name: 'a correction of 0', card: 'points', balance: 4, op: 'adjust', body: { balanceCorrection: 0 }, status: 400, message: /^VALIDATION_FAILED: balanceCorrection$/ },
    { name: 'a fractional correction on a stamp card', card: 'stamps', balance: 4, op: 'adjust', body: { balanceCorrection: 0.5 }, status: 400, message: /^VALIDATION_FAILED: balanceCorrection$/ },
    { name: 'a fractional setPoints', card: 'points', balance: 4, op: 'adjust', body: { setPoints: 10.5 }, status: 400, message: /^VALIDATION_FAILED: setPoints$/ },
    { name: 'a negative setPoints', card: 'points', balance: 4, op: 'adjust', body: { setPoints: -1 }, status: 400, message: /^VALIDATION_FAILED: setPoints$/ },
    { name: 'setPoints past 1,000,000,000', card: 'points', balance: 4, op: 'adjust', body: { setPoints: 1_000_000_001 }, status: 400, message: /^VALIDATION_FAILED: setPoints$/ },
    { name: 'a correction that passes 1,000,000,000', card: 'points', balance: 999_999_990, op: 'adjust', body: { balanceCorrection: 11 }, status: 400, message: /^VALIDATION_FAILED: balanceCorrection$/ },
    { name: 'both fields', card: 'points', balance: 4, op: 'adjust', body: { balanceCorrection: 1, setPoints: 5 }, status: 400, message: /^VALIDATION_FAILED: balanceCorrection$/ },
    { name: 'neither field', card: 'points', balance: 4, op: 'adjust', body: { note: 'hm' }, status: 400, message: /^VALIDATION_FAILED: balanceCorrection$/ },
    { name: 'an unknown field', card: 'points', balance: 4, op: 'adjust', body: { balanceCorrection: 1, reason: 'x' }, status: 400, message: /^VALIDATION_FAILED: reason$/ },
  ];

  for (const c of cases) {
    it(`${c.op}: ${c.name} → ${c.status}`, async () => {
      const customer = customerOn(app, org, c.card, { balance: c.balance ?? 0 });
      const before = { state: ledgerState(app, customer.id), tables: tableCounts(app) };
      const res = await operate(app, org.keys.live, customer, c.op, c.body);
      assert.equal(res.status, c.status, res.text);
      const state = ledgerState(app, customer.id);
      if (c.status !== 201) {
        assert.match(res.body.message, c.message!);
        assert.deepEqual({ state, tables: tableCounts(app) }, before, 'a refusal writes nothing');
        return;
      }
      const rewardId = c.reply!.reward === undefined ? {} : { rewardId: defaultRewardId.get(org.cards[c.card]) };
      assert.deepEqual(res.body, { ...c.reply, ...rewardId, transactionId: res.body.transactionId });
      assert.match(res.body.transactionId, /^tx_/);
      assert.equal(state.ledgerRows, before.state.ledgerRows + 1);
      assert.equal(state.balance, state.ledgerSum, 'the balance is the sum of its ledger rows');
      assert.deepEqual(state.events.map((e) => e.type), c.events);
      for (const e of state.events) assert.deepEqual({ balance: e.data.balance, change: e.data.change }, { balance: Object.values(c.reply!.balance as object)[0], change: c.reply!.change });
    });
  }

  it('reward.redeemed carries the documented data with a negative change and the reward’s id', async () => {
    const customer = customerOn(app, org, 'stamps', { balance: 10, externalId: 'pos-42' });
    const res = await operate(app, org.keys.live, 'pos-42', 'redeem', { type: 'reward' });
    assert.equal(res.status, 201, res.text);
    const data = { externalCustomerId: 'pos-42', passUserId: customer.id, cardId: org.cards.stamps, cardType: 'stamp_card', balance: 0, change: -10, source: 'api' };
    assert.deepEqual(ledgerState(app, customer.id).events, [
      { type: 'reward.redeemed', livemode: true, data: { ...data, rewardId: defaultRewardId.get(org.cards.stamps) } },
      { type: 'balance.updated', livemode: true, data },
    ]);
  });

  // Levels: Bronze 0, Silver 100, Gold 500. level.changed whenever the tier moves, by any operation.
  const levelSteps: { name: string; op: Operation; body: unknown; level: string; previousLevel?: string; points: number }[] = [
    { name: 'earn within Bronze', op: 'earn', body: { type: 'points', amount: 99 }, level: 'Bronze', points: 99 },
    { name: 'earn into Silver', op: 'earn', body: { type: 'points', amount: 1 }, level: 'Silver', previousLevel: 'Bronze', points: 100 },
    { name: 'correction past Silver into Gold', op: 'adjust', body: { balanceCorrection: 450 }, level: 'Gold', previousLevel: 'Silver', points: 550 },
    { name: 'redeem down to Silver', op: 'redeem', body: { type: 'points', amount: 51 }, level: 'Silver', previousLevel: 'Gold', points: 499 },
    { name: 'setPoints from Silver to Gold', op: 'adjust', body: { setPoints: 500 }, level: 'Gold', previousLevel: 'Silver', points: 500 },
    { name: 'negative correction from Gold straight to Bronze', op: 'adjust', body: { balanceCorrection: -401 }, level: 'Bronze', previousLevel: 'Gold', points: 99 },
    { name: 'setPoints within Bronze', op: 'adjust', body: { setPoints: 0 }, level: 'Bronze', points: 0 },
  ];
  it('follows the tier up and down and emits level.changed exactly when it moves', async () => {
    const customer = customerOn(app, org, 'levels', { externalId: 'club-1' });
    for (const step of levelSteps) {
      const seen = ledgerState(app, customer.id).events.length;
      const res = await operate(app, org.keys.live, customer, step.op, step.body);
      assert.equal(res.status, 201, `${step.name}: ${res.text}`);
      assert.deepEqual(res.body.balance, { points: step.points, level: step.level }, step.name);
      const events = ledgerState(app, customer.id).events.slice(seen);
      const levelEvents = events.filter((e) => e.type === 'level.changed');
      if (!step.previousLevel) {
        assert.deepEqual(levelEvents, [], `${step.name}: no tier change, no event`);
        continue;
      }
      assert.deepEqual(
        levelEvents.map((e) => e.data),
        [{ externalCustomerId: 'club-1', passUserId: customer.id, cardId: org.cards.levels, balance: step.points, change: res.body.change, source: 'api', level: step.level, previousLevel: step.previousLevel }],
        step.name,
      );
      assert.deepEqual(events.map((e) => e.type), ['balance.updated', 'level.changed'], step.name);
    }
  });

  it('every successful operation writes one ledger row with its kind, and balance == ledger sum', async () => {
    const customer = customerOn(app, org, 'points', { balance: 100 });
    const steps: [Operation, unknown][] = [
      ['earn', { type: 'points', amount: 5 }],
      ['redeem', { type: 'reward' }],
      ['adjust', { balanceCorrection: 20 }],
      ['redeem', { type: 'points', amount: 3 }],
      ['adjust', { setPoints: 8 }],
    ];
    for (const [op, body] of steps) assert.equal((await operate(app, org.keys.live, customer, op, body)).status, 201);
    const state = ledgerState(app, customer.id);
    assert.deepEqual([state.balance, state.ledgerSum, state.ledgerRows, state.events.length], [800, 800, 6, 6]);
    const kinds = app.db.prepare('SELECT kind FROM transactions WHERE customer_id = ? ORDER BY rowid').all(customer.id).map((r) => (r as { kind: string }).kind);
    assert.deepEqual(kinds, ['initial', 'earn', 'redeem', 'adjust', 'redeem', 'adjust']);
  });
});
