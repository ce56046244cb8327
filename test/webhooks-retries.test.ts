import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { createEndpoint, produce, startWebhookApp, type WebhookTestApp } from './support/webhooks';
import { PER_ENDPOINT } from '../src/webhooks/worker';

// Retries are driven by the fake clock and explicit sweeps (the cron job's work): no sleeping.
describe('webhook retries and failures', () => {
  // A database, worker and receiver of its own per test: an earlier test's pending retries never
  // reach this one's receiver nor count in its sweeps.
  let app: WebhookTestApp;
  let receiver: Receiver;
  beforeEach(async () => {
    app = await startWebhookApp();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await app.close();
    await receiver.close();
  });

  async function freshOrg(name: string): Promise<StandardOrg> {
    return seedStandardOrg(app, name);
  }
  const deliveries = async (key: string, webhookId: string) => (await app.request('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { key })).body;
  /** Moves the fake clock, runs the sweep and waits for what it started. */
  async function advanceAndSweep(ms: number): Promise<number> {
    app.clock.advance(ms);
    const started = app.worker.sweep();
    await app.worker.idle();
    return started;
  }

  it('500, 500, 200: three attempts after the configured waits, then succeeded', async () => {
    const org = await freshOrg('Flaky receiver');
    const codes = [500, 500, 200];
    receiver.answer((n) => ({ status: codes[n] ?? 200 }));
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url);
    const event = produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    const start = app.clock.now();
    await app.worker.idle();

    let [d] = await deliveries(org.keys.live, endpoint.id);
    assert.equal(d.status, 'pending');
    assert.deepEqual(d.attempts.map((a: { responseCode: number }) => a.responseCode), [500]);
    assert.equal(d.attempts[0].error, 'the receiver answered 500');
    assert.equal(Date.parse(d.nextAttemptAt), start + 10_000, 'first wait: 10 s');

    assert.equal(await advanceAndSweep(9_999), 0, 'not before it is due');
    assert.equal(await advanceAndSweep(1), 1);
    [d] = await deliveries(org.keys.live, endpoint.id);
    assert.equal(Date.parse(d.nextAttemptAt), start + 10_000 + 60_000, 'second wait: 60 s');
    assert.equal(await advanceAndSweep(60_000), 1);

    [d] = await deliveries(org.keys.live, endpoint.id);
    assert.equal(d.status, 'succeeded');
    assert.equal(d.nextAttemptAt, null);
    assert.deepEqual(
      d.attempts.map((a: { number: number; status: string; responseCode: number }) => [a.number, a.status, a.responseCode]),
      [[1, 'failed', 500], [2, 'failed', 500], [3, 'succeeded', 200]],
    );
    assert.deepEqual(receiver.eventIds(), [event.id, event.id, event.id]);
  });

  it('always 500: failed after exactly 3 attempts, and never sent again', async () => {
    const org = await freshOrg('Broken receiver');
    receiver.answer(() => ({ status: 500 }));
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url);
    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'customer.enrolled', cardId: org.cards.stamps });
    await app.worker.idle();
    await advanceAndSweep(10_000);
    await advanceAndSweep(60_000);
    assert.equal(await advanceAndSweep(24 * 3_600_000), 0);
    const [d] = await deliveries(org.keys.live, endpoint.id);
    assert.equal(d.status, 'failed');
    assert.equal(d.nextAttemptAt, null);
    assert.equal(d.attempts.length, 3);
    assert.equal(receiver.requests.length, 3);
  });

  it('a redirect is a failed attempt and is not followed', async () => {
    const org = await freshOrg('Moved receiver');
    receiver.answer(() => ({ status: 302, headers: { Location: receiver.url.replace('/hook', '/elsewhere') } }));
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url);
    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    await app.worker.idle();
    assert.deepEqual(receiver.requests.map((r) => r.path), ['/hook']);
    const [d] = await deliveries(org.keys.live, endpoint.id);
    assert.equal(d.status, 'pending', 'retried like any failure');
    assert.equal(d.attempts[0].status, 'failed');
    assert.equal(d.attempts[0].responseCode, 302);
    assert.match(d.attempts[0].error, /redirect to http:\/\/127\.0\.0\.1:\d+\/elsewhere; redirects are not followed/);
  });

  it('410 Gone fails the delivery at once and disables the endpoint; later events are not queued', async () => {
    const org = await freshOrg('Gone receiver');
    receiver.answer(() => ({ status: 410 }));
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url);
    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    await app.worker.idle();
    assert.equal((await app.request('GET', `/api/v1/webhooks/${endpoint.id}`, { key: org.keys.live })).body.status, 'disabled');
    let list = await deliveries(org.keys.live, endpoint.id);
    assert.equal(list[0].status, 'failed');
    assert.deepEqual(list[0].attempts.map((a: { responseCode: number }) => a.responseCode), [410]);

    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    await advanceAndSweep(24 * 3_600_000);
    list = await deliveries(org.keys.live, endpoint.id);
    assert.equal(list.length, 1);
    assert.equal(receiver.requests.length, 1);
    const replay = await app.request('POST', `/api/v1/webhooks/deliveries/${list[0].id}/replay`, { key: org.keys.live });
    assert.equal(replay.status, 409);
    assert.match(replay.body.message, /^WEBHOOK_DISABLED/);
  });

  it('a disabled endpoint gets nothing: its pending retry stops, events while off are never queued', async () => {
    const org = await freshOrg('Paused receiver');
    receiver.answer(() => ({ status: 503 }));
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url);
    const before = produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    await app.worker.idle();
    assert.equal((await deliveries(org.keys.live, endpoint.id))[0].status, 'pending');

    await app.request('PATCH', `/api/v1/webhooks/${endpoint.id}`, { key: org.keys.live, body: { status: 'disabled' } });
    const [stopped] = await deliveries(org.keys.live, endpoint.id);
    assert.equal(stopped.status, 'failed');
    assert.equal(stopped.nextAttemptAt, null);
    receiver.answer(() => ({ status: 200 }));
    const whileOff = produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    assert.equal(await advanceAndSweep(24 * 3_600_000), 0);

    await app.request('PATCH', `/api/v1/webhooks/${endpoint.id}`, { key: org.keys.live, body: { status: 'active' } });
    const afterOn = produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    await advanceAndSweep(24 * 3_600_000);
    assert.deepEqual(receiver.eventIds(), [before.id, afterOn.id]);
    assert.ok(!receiver.eventIds().includes(whileOff.id));
  });

  it('a deleted endpoint gets nothing: its pending retry stops with it', async () => {
    const org = await freshOrg('Deleted receiver');
    receiver.answer(() => ({ status: 500 }));
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url);
    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    await app.worker.idle();
    assert.equal((await app.request('DELETE', `/api/v1/webhooks/${endpoint.id}`, { key: org.keys.live })).status, 200);
    receiver.answer(() => ({ status: 200 }));
    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
    assert.equal(await advanceAndSweep(24 * 3_600_000), 0);
    assert.equal(receiver.requests.length, 1);
  });

  it('one slow endpoint never holds up another, and holds at most its own share of slots', async () => {
    const org = await freshOrg('Two receivers');
    const fast = await startReceiver('/fast');
    try {
      receiver.answer(() => 'hang');
      const slow = await createEndpoint(app, org.keys.live, receiver.url);
      const quick = await createEndpoint(app, org.keys.live, fast.url);
      const events = PER_ENDPOINT + 2;
      for (let i = 0; i < events; i++) produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
      // The fast endpoint is done while the slow one still holds every one of its requests.
      await eventually(async () => {
        const list = await deliveries(org.keys.live, quick.id);
        return list.length === events && list.every((d: { status: string }) => d.status === 'succeeded');
      });
      await receiver.waitFor(PER_ENDPOINT);
      assert.equal(app.worker.sweep(), 0, `the slow endpoint already holds its ${PER_ENDPOINT} slots`);
      assert.equal(receiver.requests.length, PER_ENDPOINT);
      assert.ok((await deliveries(org.keys.live, slow.id)).every((d: { status: string; attempts: unknown[] }) => d.status === 'pending' && d.attempts.length === 0));
      receiver.answer(() => ({ status: 200 }));
      receiver.release(200);
      await app.worker.idle();
      assert.equal(receiver.requests.length, events);
      assert.ok((await deliveries(org.keys.live, slow.id)).every((d: { status: string }) => d.status === 'succeeded'));
      assert.ok((await deliveries(org.keys.live, quick.id)).every((d: { status: string }) => d.status === 'succeeded'));
    } finally {
      await fast.close();
    }
  });

  // The sweep after a commit is skipped while every active endpoint's slots are taken (worker.ts):
  // an endpoint with room, even one registered since, still gets the new event at once.
  it('a new event reaches an endpoint with free slots at once while another holds all of its own', async () => {
    const org = await freshOrg('One full endpoint');
    const fast = await startReceiver('/fast');
    try {
      receiver.answer(() => 'hang');
      await createEndpoint(app, org.keys.live, receiver.url);
      for (let i = 0; i < PER_ENDPOINT; i++) produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
      await receiver.waitFor(PER_ENDPOINT);
      await createEndpoint(app, org.keys.live, fast.url);
      produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.stamps });
      await eventually(() => fast.requests.length === 1, 'the event at the endpoint with free slots');
      assert.equal(receiver.requests.length, PER_ENDPOINT, 'the full endpoint got nothing more');
      receiver.answer(() => ({ status: 200 }));
      receiver.release(200);
      await app.worker.idle();
    } finally {
      await fast.close();
    }
  });
});
