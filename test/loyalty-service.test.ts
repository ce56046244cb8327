import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cardsRepo } from '../src/cards/repo';
import { changeBalance } from '../src/loyalty/ledger';
import { adjust, earn, redeem } from '../src/loyalty/service';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, ledgerState, seedLoyaltyOrg, tableCounts, type LoyaltyOrg } from './support/ledger-fixtures';

// The service as the other channels (counter scan, sign-up, console) will call it, without HTTP.

describe('loyalty service for every channel', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  let wakes = 0;
  before(async () => {
    app = await startTestApp({ afterCommit: { eventsWritten: () => void wakes++ } });
    org = seedLoyaltyOrg(app);
  });
  after(() => app.close());

  it('re-reads the customer inside its transaction, so a copy read before another write is harmless', async () => {
    const stale = customerOn(app, org, 'points', { balance: 10 });
    redeem(app.deps, { customer: stale, source: 'console', type: 'points', amount: 1000 });
    const result = adjust(app.deps, { customer: stale, source: 'console', setPoints: 2500 });
    assert.deepEqual([result.previousBalance, result.transaction.change, result.transaction.balanceAfter], [0, 2500, 2500]);
    assert.throws(() => redeem(app.deps, { customer: stale, source: 'console', type: 'points', amount: 2600 }), /INSUFFICIENT_BALANCE/);
    assert.equal(ledgerState(app, stale.id).balance, 2500);
  });

  it('records the channel and applies the same limits to a counter scan', () => {
    const customer = customerOn(app, org, 'perAward');
    const result = earn(app.deps, { customer, source: 'scan', type: 'points', basis: { from: 'amount', amount: 5000 } });
    assert.equal(result.transaction.source, 'scan');
    assert.throws(() => earn(app.deps, { customer, source: 'scan', type: 'points', basis: { from: 'amount', amount: 5100 } }), /AWARD_MAX_PER_AWARD/);
  });

  it('an opening balance (kind initial) is written to the ledger, is no award and emits nothing', () => {
    const customer = customerOn(app, org, 'wait');
    const card = cardsRepo(app.db).findById(customer.cardId)!;
    const result = changeBalance(app.deps, { customer, card, kind: 'initial', change: 4200, isAward: false, source: 'signup', field: 'initialPoints' });
    assert.equal(result.transaction.isAward, false);
    assert.deepEqual(result.events, []);
    // Not an award, so the wait does not start: an award right after is allowed.
    earn(app.deps, { customer, source: 'signup', type: 'points', basis: { from: 'amount', amount: 100 } });
    const state = ledgerState(app, customer.id);
    assert.deepEqual([state.balance, state.ledgerSum, state.events.map((e) => e.type)], [4300, 4300, ['balance.updated']]);
  });

  it('joins a caller’s transaction: a later failure there rolls the change back; the worker wakes once per commit', async () => {
    const customer = customerOn(app, org, 'points');
    const before = { state: ledgerState(app, customer.id), tables: tableCounts(app) };
    assert.throws(
      () =>
        app.db.transaction(() => {
          earn(app.deps, { customer, source: 'console', type: 'points', basis: { from: 'amount', amount: 300 } });
          throw new Error('the caller’s next write failed');
        })(),
      /next write failed/,
    );
    assert.deepEqual({ state: ledgerState(app, customer.id), tables: tableCounts(app) }, before);
    await new Promise(setImmediate); // a wake after a rollback finds nothing; let it pass

    const wakesBefore = wakes;
    earn(app.deps, { customer, source: 'console', type: 'points', basis: { from: 'amount', amount: 300 } });
    assert.equal(wakes, wakesBefore, 'never woken while the transaction is still open');
    await Promise.resolve();
    assert.equal(wakes, wakesBefore + 1, 'woken once after the commit, for all the events of the change');
  });

  it('refuses a card that is not the customer’s', () => {
    const customer = customerOn(app, org, 'points');
    const card = cardsRepo(app.db).findById(org.cards.stamps)!;
    assert.throws(() => changeBalance(app.deps, { customer, card, kind: 'earn', change: 100, isAward: true, source: 'api', field: 'amount' }), /is not the card of customer/);
  });
});
