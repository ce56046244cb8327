import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverJobs } from '../src/jobs/list';
import { replayDelivery } from '../src/webhooks/service';
import { NO_WORKERS, seedStandardOrg, type StandardOrg } from './support/app';
import { startReceiver, type Receiver } from './support/receiver';
import { createEndpoint, produce, startWebhookApp, storedPayload, type WebhookTestApp } from './support/webhooks';

const DAY = 24 * 3_600_000;

// Delivery history is kept 30 days: without a sweep the events, deliveries and attempts tables
// grow with every balance change for as long as the server runs (a Raspberry Pi's SD card).
describe('webhook history retention', () => {
  let app: WebhookTestApp;
  let receiver: Receiver;
  let org: StandardOrg;
  before(async () => {
    app = await startWebhookApp();
    receiver = await startReceiver();
    org = seedStandardOrg(app);
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  const job = () => serverJobs(app.deps, NO_WORKERS).find((j) => j.name === 'webhook-history-sweep');
  const count = (sql: string, ...args: string[]) => (app.db.prepare(sql).get(...args) as { n: number }).n;
  const deliveries = async (key: string, webhookId: string) =>
    (await app.request('GET', `/api/v1/webhooks/${webhookId}/deliveries?limit=100`, { key })).body as { id: string; eventId: string; status: string; replayOf: string | null }[];

  it('removes finished deliveries, their attempts and unreferenced events once they are 30 days old, and keeps the rest', async () => {
    assert.ok(job(), 'a scheduled job keeps the history bounded');
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url, ['balance.updated']);
    const failing = await startReceiver('/down');
    failing.answer(() => ({ status: 503 }));
    const down = await createEndpoint(app, org.keys.live, failing.url, ['reward.redeemed']);
    const live = (type: 'balance.updated' | 'reward.redeemed' = 'balance.updated') => produce(app.deps, { orgId: org.orgId, livemode: true, type, cardId: org.cards.stamps });

    // Day 0: one delivered event, one event whose only endpoint was deleted (its deliveries went
    // with it), one delivered event that is replayed a month later, and one whose delivery is
    // still waiting for its next retry.
    const delivered = live();
    const removed = await createEndpoint(app, org.keys.test, receiver.url);
    const unsubscribed = produce(app.deps, { orgId: org.orgId, livemode: false, type: 'balance.updated', cardId: org.cards.stamps });
    await app.worker.idle();
    assert.equal((await app.request('DELETE', `/api/v1/webhooks/${removed.id}`, { key: org.keys.test })).status, 200);
    assert.ok(storedPayload(app.db, unsubscribed.id), 'the event stays until the sweep');
    const replayed = live();
    const stillPending = live('reward.redeemed');
    await app.worker.idle();
    await failing.close();
    const byEvent = async (eventId: string) => (await deliveries(org.keys.live, endpoint.id)).filter((d) => d.eventId === eventId);
    const [replayedDelivery] = await byEvent(replayed.id);
    assert.equal(replayedDelivery!.status, 'succeeded');
    assert.equal((await byEvent(delivered.id))[0]!.status, 'succeeded');

    // Day 2: a newer delivered event.
    app.clock.advance(2 * DAY);
    const recent = live();
    await app.worker.idle();

    // Day 30 + 1 hour: the replay of the old event is a new delivery, made today (not sent here).
    app.clock.advance(28 * DAY + 3_600_000);
    const replay = replayDelivery(app.deps, { orgId: org.orgId, livemode: true }, replayedDelivery!.id);

    const result = await job()!.run();
    assert.deepEqual(result, { deliveries: 2, events: 2 }, 'the two delivered day-0 deliveries; the delivered day-0 event and the one whose endpoint was deleted');

    const left = await deliveries(org.keys.live, endpoint.id);
    assert.deepEqual(left.map((d) => d.eventId).sort(), [recent.id, replayed.id].sort());
    assert.equal(left.find((d) => d.eventId === replayed.id)!.id, replay.delivery.id, 'the replay stays, the delivery it replays is gone');
    const [pending] = await deliveries(org.keys.live, down.id);
    assert.equal(pending?.eventId, stillPending.id);
    assert.equal(pending.status, 'pending', 'a pending delivery is never swept');
    assert.equal(count('SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ?', replayedDelivery!.id), 0, 'attempts go with their delivery');

    assert.equal(storedPayload(app.db, delivered.id), undefined);
    assert.equal(storedPayload(app.db, unsubscribed.id), undefined);
    for (const kept of [replayed, stillPending, recent]) assert.ok(storedPayload(app.db, kept.id), `${kept.id} is still referenced or recent`);

    assert.deepEqual(await job()!.run(), { deliveries: 0, events: 0 }, 'nothing more to do');
    assert.equal((await app.request('GET', `/api/v1/webhooks/${endpoint.id}`, { key: org.keys.live })).status, 200, 'the endpoint itself stays');
  });
});
