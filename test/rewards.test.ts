import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cardsRepo } from '../src/cards/repo';
import { updateCard } from '../src/cards/service';
import { parseSeedFile } from '../src/seed/service';
import { nextReward, rewardsFor } from '../src/cards/rewards';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { customerOn, ledgerState, operate, seedLoyaltyOrg, tableCounts, type LoyaltyOrg } from './support/ledger-fixtures';

// Several rewards per stamp or point card: the list on PATCH /v1/cards/{cardId} (ids kept, new
// ids made), redeeming one by id or the default without, and the customer's next reward.

type Json = Record<string, any>;

const REWARDS = [
  { name: 'Free coffee', cost: 10 },
  { name: 'Cake', cost: 6, description: 'Any slice' },
  { name: 'Mug', cost: 25 },
];

describe('rewards: the list on the card', () => {
  let app: TestApp;
  let org: StandardOrg;
  let other: StandardOrg;
  let cardUpdates = 0;
  before(async () => {
    app = await startTestApp({ afterCommit: { passUpdatesQueued: () => void cardUpdates++ } });
    org = seedStandardOrg(app);
    other = seedStandardOrg(app, 'Other shop');
  });
  after(() => app.close());

  const card = async (cardId: string): Promise<Json> => (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body.find((c: Json) => c.cardId === cardId);
  const patch = (cardId: string, body: unknown, key = org.keys.live) => app.request('PATCH', `/api/v1/cards/${cardId}`, { key, body });
  const withoutIds = (rewards: Json[]) => rewards.map(({ id: _id, ...r }) => r);

  it('replaces the list in the order given, keeps the ids it is sent and gives the others new ones', async () => {
    const before = await card(org.cards.stamps);
    assert.deepEqual(withoutIds(before.rewards), [{ name: 'Free coffee', cost: 10 }], 'a seeded single reward is a one-entry list');
    const coffeeId = before.rewards[0].id;

    const updatesBefore = cardUpdates;
    const res = await patch(org.cards.stamps, { rewards: [{ id: coffeeId, name: 'Free coffee', cost: 10 }, REWARDS[1], REWARDS[2]] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(withoutIds(res.body.rewards), REWARDS);
    assert.equal(res.body.rewards[0].id, coffeeId, 'a sent id is kept');
    const [, cake, mug] = res.body.rewards;
    assert.match(cake.id, /^rw_[0-9A-Za-z]{20}$/);
    assert.notEqual(cake.id, mug.id);
    assert.deepEqual(res.body.reward, { name: 'Free coffee', cost: 10 }, 'reward stays the first entry, in its old shape');
    assert.deepEqual(await card(org.cards.stamps), res.body, 'GET shows what PATCH answered');
    assert.equal(cardUpdates, updatesBefore + 1, 'every installed pass is queued for an update');

    // Reordered, renamed, one removed: ids follow the entries, not their places.
    const again = await patch(org.cards.stamps, { rewards: [{ id: mug.id, name: 'Big mug', cost: 30 }, { id: coffeeId, name: 'Free coffee', cost: 10 }] });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.rewards, [{ id: mug.id, name: 'Big mug', cost: 30 }, { id: coffeeId, name: 'Free coffee', cost: 10 }]);
    assert.deepEqual(again.body.reward, { name: 'Big mug', cost: 30 }, 'the first entry is the default');
  });

  it('a save from an editor that shows one reward replaces the default, keeps its id and leaves the others', async () => {
    const shop = seedStandardOrg(app, 'Editor shop');
    const read = async () => (await app.request('GET', '/api/v1/cards', { key: shop.keys.live })).body.find((c: Json) => c.cardId === shop.cards.points);
    assert.equal((await patch(shop.cards.points, { rewards: [{ name: 'Voucher', cost: 100 }, { name: 'Bag', cost: 300 }], flagAwardsPerDay: 2, unitValue: 0.01 }, shop.keys.live)).status, 200);
    const before = await read();
    const editor = { name: 'Points', passType: 'point_card', reward: { name: 'Big voucher', cost: 120 }, accrual: { spend: { currency: 'EUR', rate: 1.5 } } };
    const [config] = parseSeedFile({ orgs: [{ name: 'x', cards: [editor] }] }).orgs[0]!.cards;
    updateCard(app.deps, shop.orgId, shop.cards.points, config!);
    const after = await read();
    assert.deepEqual(after.rewards, [{ ...before.rewards[0], name: 'Big voucher', cost: 120 }, before.rewards[1]]);
    assert.deepEqual([after.flagAwardsPerDay, after.unitValue], [2, 0.01], 'fields the editor does not show stay');
  });

  it('sets the watch-list threshold and the value of a unit, and null sets them back', async () => {
    const set = await patch(org.cards.points, { flagAwardsPerDay: 3, unitValue: 0.0125 });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual([set.body.flagAwardsPerDay, set.body.unitValue], [3, 0.0125]);
    const cleared = await patch(org.cards.points, { flagAwardsPerDay: null, unitValue: null });
    assert.deepEqual([cleared.body.flagAwardsPerDay, cleared.body.unitValue], [6, null], 'the default threshold is 6');
    assert.deepEqual(withoutIds(cleared.body.rewards), [{ name: 'Voucher', cost: 100 }], 'fields not sent stay as they were');
  });

  it('sets the identifier question and the rewards in one write', async () => {
    const res = await patch(org.cards.points, { identifierQuestionKey: null, rewards: [{ name: 'Voucher', cost: 100 }, { name: 'Bag', cost: 300 }] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.rewards.length, 2);
  });

  const refusals: { name: string; card?: (o: StandardOrg) => string; key?: (o: StandardOrg) => string; body: (c: Json) => unknown; status: number; message: RegExp }[] = [
    { name: 'a cost of 0', body: () => ({ rewards: [{ name: 'Cake', cost: 0 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.cost$/ },
    { name: 'a fractional cost', body: () => ({ rewards: [{ name: 'Cake', cost: 2.5 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.cost$/ },
    { name: 'a cost past 1,000,000,000', body: () => ({ rewards: [{ name: 'Cake', cost: 1_000_000_001 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.cost$/ },
    { name: 'a blank name', body: () => ({ rewards: [{ name: '  ', cost: 5 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.name$/ },
    { name: 'a name over 100 characters', body: () => ({ rewards: [{ name: 'x'.repeat(101), cost: 5 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.name$/ },
    { name: 'a description over 300 characters', body: () => ({ rewards: [{ name: 'Cake', cost: 5, description: 'x'.repeat(301) }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.description$/ },
    { name: 'an empty list', body: () => ({ rewards: [] }), status: 400, message: /^VALIDATION_FAILED: rewards$/ },
    { name: '21 rewards', body: () => ({ rewards: Array.from({ length: 21 }, (_, i) => ({ name: `R${i}`, cost: i + 1 })) }), status: 400, message: /^VALIDATION_FAILED: rewards$/ },
    { name: 'one name twice (case-insensitively)', body: () => ({ rewards: [{ name: 'Cake', cost: 5 }, { name: 'CAKE', cost: 6 }] }), status: 400, message: /^VALIDATION_FAILED: rewards$/ },
    { name: 'one id twice', body: (c) => ({ rewards: [{ id: c.rewards[0].id, name: 'A', cost: 5 }, { id: c.rewards[0].id, name: 'B', cost: 6 }] }), status: 400, message: /^VALIDATION_FAILED: rewards$/ },
    { name: 'a malformed id', body: () => ({ rewards: [{ id: 'coffee', name: 'Cake', cost: 5 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.id$/ },
    { name: 'an id the card does not have', body: (c) => ({ rewards: [{ id: c.rewards[0].id, name: 'A', cost: 5 }, { id: 'rw_0000000000AAAAAAAAAA', name: 'B', cost: 6 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[1\]\.id$/ },
    { name: 'an id of another card’s reward', body: () => ({ rewards: [{ id: otherRewardId, name: 'B', cost: 6 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.id$/ },
    { name: 'an unknown field in an entry', body: () => ({ rewards: [{ name: 'Cake', cost: 5, price: 5 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.price$/ },
    { name: 'flagAwardsPerDay 0', body: () => ({ flagAwardsPerDay: 0 }), status: 400, message: /^VALIDATION_FAILED: flagAwardsPerDay$/ },
    { name: 'flagAwardsPerDay 1001', body: () => ({ flagAwardsPerDay: 1001 }), status: 400, message: /^VALIDATION_FAILED: flagAwardsPerDay$/ },
    { name: 'a fractional flagAwardsPerDay', body: () => ({ flagAwardsPerDay: 2.5 }), status: 400, message: /^VALIDATION_FAILED: flagAwardsPerDay$/ },
    { name: 'unitValue 0', body: () => ({ unitValue: 0 }), status: 400, message: /^VALIDATION_FAILED: unitValue$/ },
    { name: 'unitValue with 5 decimals', body: () => ({ unitValue: 0.00001 }), status: 400, message: /^VALIDATION_FAILED: unitValue$/ },
    { name: 'a string unitValue', body: () => ({ unitValue: '0.3' }), status: 400, message: /^VALIDATION_FAILED: unitValue$/ },
    { name: 'an empty body', body: () => ({}), status: 400, message: /^VALIDATION_FAILED: identifierQuestionKey$/ },
    { name: 'rewards on a level card', card: (o) => o.cards.levels, body: () => ({ rewards: [{ name: 'Cake', cost: 5 }] }), status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'rewards on a prepaid card', card: (o) => o.cards.prepaid, body: () => ({ rewards: [{ name: 'Cake', cost: 5 }] }), status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'unitValue on a prepaid card', card: (o) => o.cards.prepaid, body: () => ({ unitValue: 1 }), status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'a good identifier with a bad reward id: neither is written', body: () => ({ identifierQuestionKey: 'memberNo', rewards: [{ id: otherRewardId, name: 'B', cost: 6 }] }), status: 400, message: /^VALIDATION_FAILED: rewards\[0\]\.id$/ },
    { name: 'a test key', key: (o) => o.keys.test, body: () => ({ rewards: [{ name: 'Cake', cost: 5 }] }), status: 400, message: /^NOT_AVAILABLE_IN_TEST_MODE/ },
    { name: 'a key without cards:write', key: (o) => o.keys.reader, body: () => ({ rewards: [{ name: 'Cake', cost: 5 }] }), status: 403, message: /^Missing scope\(s\): cards:write$/ },
    { name: 'another org’s card', card: () => other.cards.stamps, body: () => ({ rewards: [{ name: 'Cake', cost: 5 }] }), status: 403, message: /^CARD_NOT_IN_ORG/ },
  ];
  let otherRewardId = '';
  for (const c of refusals) {
    it(`PATCH refuses ${c.name}, and writes nothing`, async () => {
      otherRewardId = (await app.request('GET', '/api/v1/cards', { key: other.keys.live })).body[0].rewards[0].id;
      const cardId = c.card ? c.card(org) : org.cards.stamps;
      const before = (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body;
      const res = await patch(cardId, c.body(before.find((x: Json) => x.cardId === cardId) ?? {}), (c.key ?? ((o) => o.keys.live))(org));
      assert.equal(res.status, c.status, res.text);
      assert.match(res.body.message, c.message);
      assert.deepEqual((await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body, before);
    });
  }
});

describe('rewards: redeeming one, and the next one', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  /** The stamps card's rewards after the PATCH: Free coffee 10 (the default), Cake 6, Mug 25. */
  let ids: { coffee: string; cake: string; mug: string };
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    const res = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body: { rewards: REWARDS } });
    assert.equal(res.status, 200, res.text);
    const [coffee, cake, mug] = res.body.rewards.map((r: Json) => r.id);
    ids = { coffee, cake, mug };
  });
  after(() => app.close());

  const redeemCases: { name: string; card?: 'stamps' | 'levels' | 'pointsBare'; balance: number; body: (i: typeof ids) => Json; status: number; reward?: keyof typeof ids; message?: RegExp }[] = [
    { name: 'without rewardId: the default', balance: 12, body: () => ({ type: 'reward' }), status: 201, reward: 'coffee' },
    { name: 'the default by its id', balance: 12, body: (i) => ({ type: 'reward', rewardId: i.coffee }), status: 201, reward: 'coffee' },
    { name: 'another reward by id', balance: 7, body: (i) => ({ type: 'reward', rewardId: i.cake, note: 'with cream' }), status: 201, reward: 'cake' },
    { name: 'the dearest reward by id', balance: 25, body: (i) => ({ type: 'reward', rewardId: i.mug }), status: 201, reward: 'mug' },
    { name: 'an id not on the card', balance: 50, body: () => ({ type: 'reward', rewardId: 'rw_nope' }), status: 400, message: /^REWARD_NOT_FOUND: rw_nope/ },
    { name: 'too few stamps for the chosen reward', balance: 24, body: (i) => ({ type: 'reward', rewardId: i.mug }), status: 400, message: /^INSUFFICIENT_BALANCE: the balance is 24; this needs 25$/ },
    { name: 'too few for the default, though enough for another', balance: 8, body: () => ({ type: 'reward' }), status: 400, message: /^INSUFFICIENT_BALANCE: the balance is 8; this needs 10$/ },
    { name: 'an empty rewardId', balance: 50, body: () => ({ type: 'reward', rewardId: '' }), status: 400, message: /^VALIDATION_FAILED: rewardId$/ },
    { name: 'rewardId with type=points', card: 'levels', balance: 50, body: (i) => ({ type: 'points', amount: 1, rewardId: i.cake }), status: 400, message: /^VALIDATION_FAILED: rewardId$/ },
    { name: 'a rewardId on a level card', card: 'levels', balance: 50, body: (i) => ({ type: 'reward', rewardId: i.cake }), status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE/ },
    { name: 'a rewardId on a card without rewards', card: 'pointsBare', balance: 50, body: () => ({ type: 'reward', rewardId: 'rw_nope' }), status: 400, message: /^REWARD_NOT_FOUND/ },
  ];
  for (const c of redeemCases) {
    it(`redeem: ${c.name} → ${c.status}`, async () => {
      const customer = customerOn(app, org, c.card ?? 'stamps', { balance: c.balance, externalId: null });
      const before = { state: ledgerState(app, customer.id), tables: tableCounts(app) };
      const res = await operate(app, org.keys.live, customer, 'redeem', c.body(ids));
      assert.equal(res.status, c.status, res.text);
      if (c.status !== 201) {
        assert.match(res.body.message, c.message!);
        assert.deepEqual({ state: ledgerState(app, customer.id), tables: tableCounts(app) }, before, 'a refusal writes nothing');
        return;
      }
      const reward = REWARDS[['coffee', 'cake', 'mug'].indexOf(c.reward!)]!;
      const balance = c.balance - reward.cost;
      assert.deepEqual(res.body, { balance: { stamps: balance }, transactionId: res.body.transactionId, change: -reward.cost, reward: reward.name, rewardId: ids[c.reward!] });
      const events = ledgerState(app, customer.id).events;
      assert.deepEqual(events.map((e) => e.type), ['reward.redeemed', 'balance.updated']);
      const data = { externalCustomerId: null, passUserId: customer.id, cardId: org.cards.stamps, cardType: 'stamp_card', balance, change: -reward.cost, source: 'api' };
      assert.deepEqual(events[0]!.data, { ...data, rewardId: ids[c.reward!] });
      assert.deepEqual(events[1]!.data, data);
      const history = await app.request('GET', `/api/v1/customers/pu_${customer.id}/transactions`, { key: org.keys.live });
      assert.deepEqual(history.body.data[0].details, { reward: { id: ids[c.reward!], name: reward.name, cost: reward.cost } });
    });
  }

  it('old redemptions without a reward id still read back', async () => {
    const customer = customerOn(app, org, 'points', { balance: 0 });
    app.db
      .prepare(
        `INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, details, created_at)
         VALUES ('tx_old', ?, ?, 1, 'redeem', 0, 0, 0, 'api', ?, 1)`,
      )
      .run(org.orgId, customer.id, JSON.stringify({ reward: { name: 'Voucher', cost: 10_000 } }));
    const history = await app.request('GET', `/api/v1/customers/pu_${customer.id}/transactions`, { key: org.keys.live });
    assert.deepEqual(history.body.data.find((t: Json) => t.id === 'tx_old').details, { reward: { name: 'Voucher', cost: 100 } });
  });

  // Coffee 10 (listed first), Cake 6, Mug 25: the cheapest not yet affordable, whatever the order.
  const nextCases: { balance: number; next: { reward: keyof typeof ids; remaining: number } | null }[] = [
    { balance: 0, next: { reward: 'cake', remaining: 6 } },
    { balance: 5, next: { reward: 'cake', remaining: 1 } },
    { balance: 6, next: { reward: 'coffee', remaining: 4 } },
    { balance: 9, next: { reward: 'coffee', remaining: 1 } },
    { balance: 10, next: { reward: 'mug', remaining: 15 } },
    { balance: 24, next: { reward: 'mug', remaining: 1 } },
    { balance: 25, next: null },
    { balance: 400, next: null },
  ];
  for (const c of nextCases) {
    it(`nextReward at ${c.balance} stamps: ${c.next ? `${c.next.reward}, ${c.next.remaining} to go` : 'none'} (read and lookup alike)`, async () => {
      const email = `next-${c.balance}@example.com`;
      const customer = customerOn(app, org, 'stamps', { balance: c.balance, email });
      const expected = c.next && { rewardId: ids[c.next.reward], name: REWARDS[['coffee', 'cake', 'mug'].indexOf(c.next.reward)]!.name, cost: REWARDS[['coffee', 'cake', 'mug'].indexOf(c.next.reward)]!.cost, remaining: c.next.remaining };
      const read = await app.request('GET', `/api/v1/customers/pu_${customer.id}`, { key: org.keys.live });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body.nextReward, expected);
      const lookup = await app.request('GET', `/api/v1/customers/lookup?email=${encodeURIComponent(email)}`, { key: org.keys.live });
      assert.deepEqual(lookup.body.nextReward, expected);
    });
  }

  const noNext: { card: 'levels' | 'prepaid' | 'stampSpend'; why: string }[] = [
    { card: 'levels', why: 'a level card has no rewards' },
    { card: 'prepaid', why: 'a prepaid card has no rewards' },
    { card: 'stampSpend', why: 'a stamp card without rewards' },
  ];
  for (const c of noNext) {
    it(`nextReward is null: ${c.why}`, async () => {
      const customer = customerOn(app, org, c.card, { balance: 0 });
      const read = await app.request('GET', `/api/v1/customers/pu_${customer.id}`, { key: org.keys.live });
      assert.equal(read.body.nextReward, null);
    });
  }
});

describe('rewardsFor: what the counter offers', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body: { rewards: REWARDS } });
  });
  after(() => app.close());

  const cases: { balance: number; affordable: boolean[] }[] = [
    { balance: 0, affordable: [false, false, false] },
    { balance: 599, affordable: [false, false, false] },
    { balance: 600, affordable: [false, true, false] },
    { balance: 1000, affordable: [true, true, false] },
    { balance: 2500, affordable: [true, true, true] },
  ];
  for (const c of cases) {
    it(`at ${c.balance / 100} stamps: each reward, in the card’s order, affordable when the balance pays it`, () => {
      const card = cardsRepo(app.db).findById(org.cards.stamps)!;
      const offered = rewardsFor(card, c.balance);
      assert.deepEqual(offered.map((r) => [r.name, r.affordable]), REWARDS.map((r, i) => [r.name, c.affordable[i]]));
      assert.deepEqual(offered.map((r) => r.id), card.rewards.map((r) => r.id));
    });
  }

  it('of equal costs, the one listed first is next', () => {
    const card = cardsRepo(app.db).findById(org.cards.stamps)!;
    const tied = { ...card, rewards: [{ id: 'rw_a', name: 'A', cost: 500 }, { id: 'rw_b', name: 'B', cost: 500 }] };
    assert.equal(nextReward(tied, 0)?.reward.id, 'rw_a');
  });
});
