import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, type EventType } from '../src/events/types';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { startReceiver, verifySignature, type Receiver } from './support/receiver';
import { createEndpoint, produce, startWebhookApp, storedPayload, type WebhookTestApp } from './support/webhooks';

// The data fields each event carries (docs/webhooks.md#what-arrives; level.changed adds level and previousLevel).
const DATA_FIELDS: Record<EventType, string[]> = {
  'customer.enrolled': ['cardId', 'externalCustomerId', 'passUserId'],
  'balance.updated': ['balance', 'cardId', 'cardType', 'change', 'externalCustomerId', 'passUserId'],
  'reward.redeemed': ['balance', 'cardId', 'cardType', 'change', 'externalCustomerId', 'passUserId'],
  'level.changed': ['balance', 'cardId', 'change', 'externalCustomerId', 'level', 'passUserId', 'previousLevel'],
  'customer.deleted': ['cardId', 'externalCustomerId', 'passUserId'],
};

describe('webhook delivery', () => {
  let app: WebhookTestApp;
  let receiver: Receiver;
  before(async () => {
    app = await startWebhookApp();
    receiver = await startReceiver();
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  /** A fresh org per test, so each test's receiver traffic is its own. */
  function freshOrg(name: string): StandardOrg {
    receiver.requests.length = 0;
    receiver.answer(() => ({ status: 200 }));
    return seedStandardOrg(app, name);
  }
  const deliveries = async (key: string, webhookId: string) => (await app.request('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { key })).body;
  const nowSeconds = () => Math.floor(app.clock.now() / 1000);

  it('sends each event type right after commit: exact stored bytes, signed, with the event headers', async () => {
    const org = freshOrg('Signed shop');
    const endpoint = await createEndpoint(app, org.keys.test, receiver.url);
    const sent = EVENT_TYPES.map((type) => produce(app.deps, { orgId: org.orgId, livemode: false, type, cardId: org.cards.stamps }));
    await app.worker.idle(); // woken by afterCommit alone: no sweep was called

    assert.equal(receiver.requests.length, EVENT_TYPES.length);
    for (const envelope of sent) {
      const req = receiver.requests.find((r) => r.headers['x-loyalty-event-id'] === envelope.id);
      assert.ok(req, `${envelope.type} arrived`);
      assert.equal(req.method, 'POST');
      assert.equal(req.path, '/hook');
      assert.equal(req.headers['content-type'], 'application/json');
      assert.equal(req.headers['x-loyalty-event-type'], envelope.type);
      assert.equal(req.body, storedPayload(app.db, envelope.id), 'the body is the stored payload, byte for byte');

      const header = String(req.headers['x-loyalty-signature']);
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.equal(verifySignature(endpoint.secret, header, req.body, nowSeconds()), true);
      assert.equal(verifySignature(endpoint.secret, header, req.body.replace('"livemode":false', '"livemode":true'), nowSeconds()), false, 'a changed body fails');
      assert.equal(verifySignature(`${endpoint.secret}x`, header, req.body, nowSeconds()), false, 'another secret fails');
      assert.equal(verifySignature(endpoint.secret, header, req.body, nowSeconds() + 301), false, 'older than 300 s fails');

      const body = JSON.parse(req.body);
      assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'data', 'id', 'livemode', 'orgId', 'type']);
      assert.match(body.id, /^evt_/);
      assert.equal(body.type, envelope.type);
      assert.equal(body.createdAt, new Date(app.clock.now()).toISOString());
      assert.equal(body.orgId, org.orgId, 'test events carry the org’s own id');
      assert.equal(body.livemode, false);
      assert.deepEqual(Object.keys(body.data).sort(), DATA_FIELDS[envelope.type]);
      assert.equal(body.data.cardId, org.cards.stamps);
      if ('balance' in body.data) assert.equal(typeof body.data.balance, 'number', 'balance is the primary counter, a number');
    }

    const list = await deliveries(org.keys.test, endpoint.id);
    assert.equal(list.length, EVENT_TYPES.length);
    for (const d of list) {
      assert.equal(d.status, 'succeeded');
      assert.equal(d.nextAttemptAt, null);
      assert.equal(d.attempts.length, 1);
      const [attempt] = d.attempts;
      assert.equal(attempt.number, 1);
      assert.equal(attempt.status, 'succeeded');
      assert.equal(attempt.responseCode, 200);
      assert.equal(attempt.error, null);
      assert.ok(Number.isInteger(attempt.durationMs) && attempt.durationMs >= 0);
      assert.equal(attempt.at, new Date(app.clock.now()).toISOString());
    }
  });

  it('sends only subscribed types; "*" takes every type', async () => {
    const org = freshOrg('Filter shop');
    const a = await startReceiver('/a');
    const b = await startReceiver('/b');
    try {
      await createEndpoint(app, org.keys.live, a.url, ['balance.updated']);
      await createEndpoint(app, org.keys.live, b.url, ['reward.redeemed', 'level.changed']);
      await createEndpoint(app, org.keys.live, receiver.url, ['*']);
      for (const type of EVENT_TYPES) produce(app.deps, { orgId: org.orgId, livemode: true, type, cardId: org.cards.points });
      await app.worker.idle();
      const types = (r: Receiver) => r.requests.map((q) => q.headers['x-loyalty-event-type']).sort();
      assert.deepEqual(types(a), ['balance.updated']);
      assert.deepEqual(types(b), ['level.changed', 'reward.redeemed']);
      assert.deepEqual(types(receiver), [...EVENT_TYPES].sort());
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps an event only for an endpoint that takes it: no endpoint, another type, the other mode or a disabled one store nothing', async () => {
    const org = freshOrg('Quiet shop');
    const count = (sql: string) => (app.db.prepare(sql).get(org.orgId) as { n: number }).n;
    const stored = () => ({
      events: count('SELECT count(*) AS n FROM events WHERE org_id = ?'),
      deliveries: count('SELECT count(*) AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.org_id = ?'),
    });
    const balanceUpdated = () => produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });

    balanceUpdated();
    assert.deepEqual(stored(), { events: 0, deliveries: 0 }, 'no endpoint');
    const other = await createEndpoint(app, org.keys.live, receiver.url, ['customer.enrolled']);
    await createEndpoint(app, org.keys.test, receiver.url);
    balanceUpdated();
    assert.deepEqual(stored(), { events: 0, deliveries: 0 }, 'an endpoint of another type, one of the other mode');
    const every = await createEndpoint(app, org.keys.live, receiver.url);
    assert.equal((await app.request('PATCH', `/api/v1/webhooks/${every.id}`, { key: org.keys.live, body: { status: 'disabled' } })).status, 200);
    balanceUpdated();
    assert.deepEqual(stored(), { events: 0, deliveries: 0 }, 'a disabled endpoint');
    await app.worker.idle();
    assert.deepEqual(receiver.requests, []);

    assert.equal((await app.request('PATCH', `/api/v1/webhooks/${every.id}`, { key: org.keys.live, body: { status: 'active' } })).status, 200);
    const sent = balanceUpdated();
    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'customer.enrolled', cardId: org.cards.stamps });
    assert.deepEqual(stored(), { events: 2, deliveries: 3 }, 'each event once, a delivery per endpoint that takes it');
    await app.worker.idle();
    assert.deepEqual(receiver.eventIds().filter((id) => id === sent.id), [sent.id]);
    assert.ok(other.id);
  });

  it('keeps test and live apart, and other orgs out', async () => {
    const org = freshOrg('Mode shop');
    const neighbour = seedStandardOrg(app, 'Neighbour');
    const live = await startReceiver('/live');
    const foreign = await startReceiver('/foreign');
    try {
      await createEndpoint(app, org.keys.live, live.url);
      await createEndpoint(app, org.keys.test, receiver.url);
      await createEndpoint(app, neighbour.keys.live, foreign.url);
      const liveEvent = produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
      const testEvent = produce(app.deps, { orgId: org.orgId, livemode: false, type: 'balance.updated', cardId: org.cards.stamps });
      await app.worker.idle();
      assert.deepEqual(live.eventIds(), [liveEvent.id]);
      assert.equal(JSON.parse(live.requests[0]!.body).livemode, true);
      assert.deepEqual(receiver.eventIds(), [testEvent.id]);
      assert.equal(JSON.parse(receiver.requests[0]!.body).livemode, false);
      assert.deepEqual(foreign.requests, []);
    } finally {
      await live.close();
      await foreign.close();
    }
  });

  it('replay sends the same event again as a new delivery with replayOf and a fresh signature timestamp', async () => {
    const org = freshOrg('Replay shop');
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url, ['reward.redeemed']);
    const event = produce(app.deps, { orgId: org.orgId, livemode: true, type: 'reward.redeemed', cardId: org.cards.points });
    await app.worker.idle();
    const [original] = await deliveries(org.keys.live, endpoint.id);

    app.clock.advance(30_000);
    const res = await app.request('POST', `/api/v1/webhooks/deliveries/${original.id}/replay`, { key: org.keys.live });
    assert.equal(res.status, 201, res.text);
    assert.notEqual(res.body.id, original.id);
    assert.equal(res.body.replayOf, original.id);
    assert.equal(res.body.eventId, event.id);
    assert.equal(res.body.eventType, 'reward.redeemed');
    assert.equal(res.body.webhookId, endpoint.id);
    assert.equal(res.body.status, 'pending');
    assert.deepEqual(res.body.attempts, []);
    await app.worker.idle();

    assert.equal(receiver.requests.length, 2);
    const [first, second] = receiver.requests;
    assert.equal(second!.headers['x-loyalty-event-id'], event.id, 'receivers deduplicate on this id');
    assert.equal(second!.body, first!.body);
    const t = (h: unknown) => Number(/^t=(\d+)/.exec(String(h))![1]);
    assert.equal(t(second!.headers['x-loyalty-signature']) - t(first!.headers['x-loyalty-signature']), 30);
    assert.equal(verifySignature(endpoint.secret, String(second!.headers['x-loyalty-signature']), second!.body, nowSeconds()), true);

    const list = await deliveries(org.keys.live, endpoint.id);
    assert.deepEqual(list.map((d: { id: string }) => d.id), [res.body.id, original.id], 'newest first');
    assert.equal(list[0].status, 'succeeded');
  });
});
