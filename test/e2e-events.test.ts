import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { startReceiver, type Receiver } from './support/receiver';
import { createEndpoint, startWebhookApp, type WebhookTestApp } from './support/webhooks';

// The whole path an integrator sees: API calls change balances, the outbox records the events in
// the same transaction, and the worker delivers them, signed, to a real receiver.
describe('end to end: API writes become webhook events', () => {
  let app: WebhookTestApp;
  let receiver: Receiver;
  let org: StandardOrg;
  before(async () => {
    app = await startWebhookApp();
    receiver = await startReceiver();
    org = seedStandardOrg(app);
    await createEndpoint(app, org.keys.live, receiver.url, ['*']);
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  const call = async (path: string, body: unknown, status = 201) => {
    const res = await app.request('POST', `/api/v1${path}`, { key: org.keys.live, body });
    assert.equal(res.status, status, res.text);
    return res.body;
  };
  const received = () => receiver.requests.map((r) => JSON.parse(r.body) as { type: string; livemode: boolean; orgId: string; data: Record<string, unknown> });

  it('enroll, earn, redeem a reward and cross a tier each reach the receiver with the documented data', async () => {
    const stamps = await call('/customers', { externalCustomerId: 'crm-1', cardId: org.cards.stamps, email: 'ada@example.com' });
    await call('/customers/crm-1/earn', { type: 'stamps', amount: 10 });
    await call('/customers/crm-1/redeem', { type: 'reward' });
    const club = await call('/customers', { externalCustomerId: 'crm-2', cardId: org.cards.levels });
    await call('/customers/crm-2/adjust', { balanceCorrection: 150 });
    await app.worker.idle();
    await receiver.waitFor(7);

    const events = received();
    assert.deepEqual(
      events.map((e) => e.type),
      ['customer.enrolled', 'balance.updated', 'reward.redeemed', 'balance.updated', 'customer.enrolled', 'balance.updated', 'level.changed'],
    );
    assert.ok(events.every((e) => e.livemode === true && e.orgId === org.orgId));
    assert.deepEqual(events[0]!.data, { externalCustomerId: 'crm-1', passUserId: stamps.passUserId, cardId: org.cards.stamps, source: 'api' });
    const [coffee] = (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body[0].rewards;
    assert.deepEqual(events[1]!.data, {
      externalCustomerId: 'crm-1',
      passUserId: stamps.passUserId,
      cardId: org.cards.stamps,
      cardType: 'stamp_card',
      balance: 10,
      change: 10,
      promotionIds: [],
      extra: 0,
      source: 'api',
    });
    assert.deepEqual(events[2]!.data, { externalCustomerId: 'crm-1', passUserId: stamps.passUserId, cardId: org.cards.stamps, cardType: 'stamp_card', balance: 0, change: -10, rewardId: coffee.id, source: 'api' });
    assert.deepEqual(events[3]!.data, { externalCustomerId: 'crm-1', passUserId: stamps.passUserId, cardId: org.cards.stamps, cardType: 'stamp_card', balance: 0, change: -10, source: 'api' });
    assert.deepEqual(events[6]!.data, {
      externalCustomerId: 'crm-2',
      passUserId: club.passUserId,
      cardId: org.cards.levels,
      balance: 150,
      change: 150,
      source: 'api',
      level: 'Silver',
      previousLevel: 'Bronze',
    });
  });

  it('a refused write (over the balance) sends nothing', async () => {
    const before = receiver.requests.length;
    await call('/customers/crm-2/redeem', { type: 'points', amount: 1000 }, 400);
    await app.worker.idle();
    assert.equal(receiver.requests.length, before);
  });
});
