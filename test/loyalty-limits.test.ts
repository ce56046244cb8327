import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, ledgerState, operate, seedLoyaltyOrg, tableCounts, type LoyaltyCardRef, type LoyaltyOrg, type Operation } from './support/ledger-fixtures';
import type { Customer } from '../src/customers/model';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/**
 * One step of a limit scenario: move the fake clock, call, expect a status (and code). Every step
 * runs on one customer, so the scenario reads as the customer's history.
 */
interface Step {
  advance?: number;
  op: Operation;
  body: unknown;
  status: number;
  code?: string;
  retryAfterSeconds?: number;
  balance?: number;
}

const earn = (amount: number) => ({ type: 'points', amount });
const stamps = (amount: number) => ({ type: 'stamps', amount });

const scenarios: { name: string; card: LoyaltyCardRef; opening?: number; steps: Step[] }[] = [
  {
    name: 'waitSeconds 60: counted from the last award, retryAfterSeconds rounds up',
    card: 'wait',
    steps: [
      { op: 'earn', body: earn(5), status: 201, balance: 5 },
      { advance: 30 * SECOND, op: 'earn', body: earn(5), status: 400, code: 'AWARD_WAIT_ACTIVE', retryAfterSeconds: 30 },
      { advance: 29.5 * SECOND, op: 'earn', body: earn(5), status: 400, code: 'AWARD_WAIT_ACTIVE', retryAfterSeconds: 1 },
      { op: 'adjust', body: { balanceCorrection: 1 }, status: 400, code: 'AWARD_WAIT_ACTIVE', retryAfterSeconds: 1 },
      { op: 'adjust', body: { setPoints: 6 }, status: 400, code: 'AWARD_WAIT_ACTIVE' },
      // Lowering is never limited, and a sale worth 0 adds nothing, so it is no award either.
      { op: 'redeem', body: { type: 'points', amount: 1 }, status: 201, balance: 4 },
      { op: 'adjust', body: { balanceCorrection: -1 }, status: 201, balance: 3 },
      { op: 'adjust', body: { setPoints: 2 }, status: 201, balance: 2 },
      { op: 'earn', body: { type: 'points', from: 'spend', spend: { amount: 0.99, currency: 'EUR' } }, status: 201, balance: 2 },
      { advance: 0.5 * SECOND, op: 'earn', body: earn(5), status: 201, balance: 7 },
      { advance: 60 * SECOND, op: 'adjust', body: { setPoints: 9 }, status: 201, balance: 9 },
      { op: 'earn', body: { type: 'points', from: 'spend', spend: { amount: 3, currency: 'EUR' } }, status: 400, code: 'AWARD_WAIT_ACTIVE', retryAfterSeconds: 60 },
    ],
  },
  {
    name: 'maxPerAward 50: per award, through earn and adjust',
    card: 'perAward',
    opening: 10,
    steps: [
      { op: 'earn', body: earn(51), status: 400, code: 'AWARD_MAX_PER_AWARD' },
      { op: 'adjust', body: { balanceCorrection: 51 }, status: 400, code: 'AWARD_MAX_PER_AWARD' },
      { op: 'adjust', body: { setPoints: 61 }, status: 400, code: 'AWARD_MAX_PER_AWARD' },
      { op: 'earn', body: earn(50), status: 201, balance: 60 },
      { op: 'adjust', body: { setPoints: 110 }, status: 201, balance: 110 },
      { op: 'adjust', body: { balanceCorrection: -100 }, status: 201, balance: 10 },
      { op: 'adjust', body: { setPoints: 0 }, status: 201, balance: 0 },
    ],
  },
  {
    name: 'day: 100 per rolling 24 h, not per calendar day',
    card: 'day',
    steps: [
      { op: 'earn', body: earn(60), status: 201, balance: 60 },
      { advance: HOUR, op: 'earn', body: earn(40), status: 201, balance: 100 },
      { op: 'earn', body: earn(1), status: 400, code: 'AWARD_PERIOD_LIMIT' },
      { op: 'adjust', body: { balanceCorrection: 1 }, status: 400, code: 'AWARD_PERIOD_LIMIT' },
      // Redeeming does not give the allowance back: the limit counts awards, not the balance.
      { op: 'redeem', body: { type: 'points', amount: 100 }, status: 201, balance: 0 },
      { op: 'earn', body: earn(1), status: 400, code: 'AWARD_PERIOD_LIMIT' },
      // 24 h after the first award it leaves the window; the 40 stays.
      { advance: DAY - HOUR - 1, op: 'earn', body: earn(1), status: 400, code: 'AWARD_PERIOD_LIMIT' },
      { advance: 1, op: 'earn', body: earn(61), status: 400, code: 'AWARD_PERIOD_LIMIT' },
      { op: 'earn', body: earn(60), status: 201, balance: 60 },
    ],
  },
  {
    name: 'week: 10 stamps per rolling 7 days',
    card: 'week',
    steps: [
      { op: 'earn', body: stamps(10), status: 201, balance: 10 },
      { advance: 7 * DAY - SECOND, op: 'earn', body: stamps(1), status: 400, code: 'AWARD_PERIOD_LIMIT' },
      { op: 'redeem', body: { type: 'reward' }, status: 201, balance: 0 },
      { advance: SECOND, op: 'earn', body: stamps(10), status: 201, balance: 10 },
    ],
  },
  {
    name: 'month: 1000 per rolling 30 days on a level card, with maxPerAward 600',
    card: 'month',
    steps: [
      { op: 'earn', body: earn(601), status: 400, code: 'AWARD_MAX_PER_AWARD' },
      { op: 'earn', body: earn(600), status: 201, balance: 600 },
      { advance: 29 * DAY, op: 'earn', body: earn(401), status: 400, code: 'AWARD_PERIOD_LIMIT' },
      { op: 'adjust', body: { setPoints: 1001 }, status: 400, code: 'AWARD_PERIOD_LIMIT' },
      { op: 'adjust', body: { setPoints: 1000 }, status: 201, balance: 1000 },
      // 30 days on, the first 600 has left the window; the 400 from setPoints has not.
      { advance: DAY, op: 'earn', body: earn(600), status: 201, balance: 1600 },
      { op: 'earn', body: earn(1), status: 400, code: 'AWARD_PERIOD_LIMIT' },
    ],
  },
  {
    name: 'prepaid cards are never limited, whatever the card says',
    card: 'prepaidLimited',
    steps: [
      { op: 'earn', body: earn(100), status: 201, balance: 100 },
      { op: 'earn', body: earn(100.5), status: 201, balance: 200.5 },
      { op: 'adjust', body: { balanceCorrection: 50 }, status: 201, balance: 250.5 },
    ],
  },
];

describe('earning limits', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
  });
  after(() => app.close());

  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const customer = customerOn(app, org, scenario.card, { balance: scenario.opening ?? 0 });
      for (const [i, step] of scenario.steps.entries()) {
        if (step.advance) app.clock.advance(step.advance);
        const label = `step ${i + 1} (${step.op} ${JSON.stringify(step.body)})`;
        const before = { state: ledgerState(app, customer.id), tables: tableCounts(app) };
        const res = await operate(app, org.keys.live, customer, step.op, step.body);
        assert.equal(res.status, step.status, `${label}: ${res.text}`);
        if (step.code) {
          assert.match(res.body.message, new RegExp(`^${step.code}: `), label);
          if (step.code === 'AWARD_WAIT_ACTIVE') assert.equal(typeof res.body.retryAfterSeconds, 'number', label);
          if (step.retryAfterSeconds !== undefined) assert.equal(res.body.retryAfterSeconds, step.retryAfterSeconds, label);
          assert.deepEqual({ state: ledgerState(app, customer.id), tables: tableCounts(app) }, before, `${label}: a refusal writes nothing`);
        }
        if (step.balance !== undefined) assert.equal(Object.values(res.body.balance)[0], step.balance, label);
      }
      const state = ledgerState(app, customer.id);
      assert.equal(state.balance, state.ledgerSum);
    });
  }

  it('counts per customer: another customer on the card has its own allowance', async () => {
    const first = customerOn(app, org, 'day');
    const second = customerOn(app, org, 'day');
    assert.equal((await operate(app, org.keys.live, first, 'earn', earn(100))).status, 201);
    assert.equal((await operate(app, org.keys.live, first, 'earn', earn(1))).status, 400);
    assert.equal((await operate(app, org.keys.live, second, 'earn', earn(100))).status, 201);
  });

  it('applies in test mode as in live mode', async () => {
    const customer: Customer = customerOn(app, org, 'wait', { livemode: false });
    assert.equal((await operate(app, org.keys.test, customer, 'earn', earn(1))).status, 201);
    const res = await operate(app, org.keys.test, customer, 'earn', earn(1));
    assert.equal(res.status, 400);
    assert.equal(res.body.retryAfterSeconds, 60);
  });

  it('a refusal under an Idempotency-Key replays as the same refusal, even after the limit has passed', async () => {
    const customer = customerOn(app, org, 'perAward');
    const first = await operate(app, org.keys.live, customer, 'earn', earn(80), { 'Idempotency-Key': 'too-much' });
    assert.equal(first.status, 400);
    const again = await operate(app, org.keys.live, customer, 'earn', earn(80), { 'Idempotency-Key': 'too-much' });
    assert.equal(again.text, first.text);
    assert.equal(ledgerState(app, customer.id).ledgerRows, 0);
  });
});
