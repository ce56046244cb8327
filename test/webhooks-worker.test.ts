import { noAfterCommit } from './support/fakes';
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blockedKind } from '../src/webhooks/address-guard';
import { newId } from '../src/lib/ids';
import { deliveriesRepo } from '../src/webhooks/deliveries-repo';
import { webhooksRepo } from '../src/webhooks/repo';
import { leaseMs } from '../src/webhooks/policy';
import { nextAttemptAt } from '../src/queue/retry';
import { seedStandardOrg } from './support/app';
import { startReceiver, type Receiver } from './support/receiver';
import { createEndpoint, produce, startWebhookApp, type WebhookTestApp } from './support/webhooks';

describe('webhook worker', () => {
  let app: WebhookTestApp | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await app?.close();
    await receiver?.close();
    app = receiver = undefined;
  });

  async function setUp(env: Record<string, string> = {}) {
    app = await startWebhookApp(env);
    receiver = await startReceiver();
    const org = seedStandardOrg(app);
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url);
    const emit = (wake = true) =>
      produce(wake ? app!.deps : { ...app!.deps, afterCommit: noAfterCommit }, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.points });
    const deliveries = async () => (await app!.request('GET', `/api/v1/webhooks/${endpoint.id}/deliveries`, { key: org.keys.live })).body;
    return { app, receiver, org, endpoint, emit, deliveries };
  }

  it('reads the endpoints before a sweep only while some endpoint has all its slots taken', async () => {
    const { app, receiver, emit } = await setUp();
    const repo = webhooksRepo(app.db);
    const activeIds = repo.activeIds;
    let reads = 0;
    repo.activeIds = () => {
      reads++;
      return activeIds();
    };
    try {
      receiver.answer(() => 'hang');
      emit(false);
      assert.equal(app.worker.sweep(), 1, 'nothing in flight: every endpoint has room');
      assert.equal(reads, 0);
      for (let i = 0; i < 8; i++) emit(false);
      assert.equal(app.worker.sweep(), 7, 'the endpoint takes up to its 8 slots');
      assert.equal(reads, 0);
      assert.equal(app.worker.sweep(), 0, 'all its slots are taken');
      assert.equal(reads, 1, 'only then are the endpoints read');
    } finally {
      repo.activeIds = activeIds;
      receiver.release();
      await app.worker.idle();
    }
  });

  it('records a null response code when the receiver is slower than WEBHOOK_TIMEOUT_MS', async () => {
    const { app, receiver, emit, deliveries } = await setUp({ WEBHOOK_TIMEOUT_MS: '150' });
    receiver.answer(() => 'hang');
    emit();
    await app.worker.idle();
    const [d] = await deliveries();
    assert.equal(d.status, 'pending');
    assert.equal(d.attempts[0].status, 'failed');
    assert.equal(d.attempts[0].responseCode, null);
    assert.equal(d.attempts[0].error, 'no response within 150 ms');
    receiver.release();
  });

  it('WEBHOOK_BLOCK_PRIVATE=true refuses loopback addresses, literal or resolved, as failed attempts that do not echo the address', async () => {
    // Registration refuses these URLs now (webhooks-private.test.ts); endpoints registered before
    // the operator turned the setting on, or names that resolve elsewhere later, meet this check.
    app = await startWebhookApp({ WEBHOOK_BLOCK_PRIVATE: 'true' });
    receiver = await startReceiver();
    const org = seedStandardOrg(app);
    const now = app.clock.now();
    const endpoint = (url: string) => {
      const row = { id: newId('we'), orgId: org.orgId, livemode: true, url, events: ['*'], status: 'active' as const, secret: 'whsec_x', createdAt: now, updatedAt: now };
      webhooksRepo(app!.db).insert(row);
      return row.id;
    };
    const literal = endpoint(receiver.url);
    const byName = endpoint(receiver.url.replace('127.0.0.1', 'localhost'));
    produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.points });
    await app.worker.idle();
    assert.equal(receiver.requests.length, 0, 'nothing reached the receiver');
    const attempt = async (id: string) => (await app!.request('GET', `/api/v1/webhooks/${id}/deliveries`, { key: org.keys.live })).body[0].attempts[0];
    const refusedLiteral = await attempt(literal);
    assert.equal(refusedLiteral.responseCode, null);
    assert.equal(refusedLiteral.error, 'refused 127.0.0.1: it points to a private, loopback or otherwise internal address, and WEBHOOK_BLOCK_PRIVATE is on');
    const refusedName = await attempt(byName);
    assert.equal(refusedName.error, 'refused localhost: it points to a private, loopback or otherwise internal address, and WEBHOOK_BLOCK_PRIVATE is on');
  });

  const addresses: [string, string | null][] = [
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.31.255.1', 'private'],
    ['192.168.1.10', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['169.254.10.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    // NAT64 (64:ff9b::/96): an IPv6-only host reaches the IPv4 address in the last 32 bits
    // through its NAT64 gateway, private networks included, so the embedded address decides.
    ['64:ff9b::a00:5', 'private'],
    ['64:ff9b::10.0.0.5', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['64:ff9b::a00:5%eth0', 'private'],
    ['64:ff9b::808:808', null],
    ['8.8.8.8', null],
    ['172.32.0.1', null],
    ['2606:4700:4700::1111', null],
  ];
  for (const [address, kind] of addresses) {
    it(`classifies ${address} as ${kind ?? 'public'}`, () => assert.equal(blockedKind(address), kind));
  }

  it('the retry schedule and lease are pure functions of the settings', () => {
    const policy = { delaysMs: [10_000, 60_000] };
    assert.equal(nextAttemptAt(policy, 1, 1_000), 11_000);
    assert.equal(nextAttemptAt(policy, 2, 1_000), 61_000);
    assert.equal(nextAttemptAt(policy, 3, 1_000), null);
    assert.ok(leaseMs(5_000) > 5_000, 'a lease outlives the attempt it covers');
  });

  it('removing events (the 30-day test-customer sweep) finds their deliveries by index, and the counts of deliveries their events by key', async () => {
    app = await startWebhookApp();
    const plan = (sql: string) => {
      const statement = app!.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      return (statement.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1)) as { detail: string }[]).map((r) => r.detail);
    };
    // What the triggers of events and webhook_deliveries run, as stored, new./old. values as parameters.
    const bodies = (app.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name IN ('events', 'webhook_deliveries')").all() as { name: string; sql: string }[]).map(
      (t) => ({ name: t.name, statement: t.sql.replace(/^[\s\S]*?\bBEGIN\s+/, '').replace(/;\s*END$/, '').replace(/\b(new|old)\.\w+/g, '?') }),
    );
    assert.deepEqual(bodies.map((b) => b.name).sort(), ['events_test_deliveries', 'webhook_deliveries_counted', 'webhook_deliveries_uncounted']);
    for (const { name, statement } of bodies) {
      const details = plan(statement);
      assert.deepEqual(details.filter((d) => /^SCAN\b/.test(d)), [], `${name}: ${statement}\n${details.join('\n')}`);
      assert.ok(details.some((d) => /^SEARCH (events USING INTEGER PRIMARY KEY|webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_test_event)/.test(d)), `${name}: ${details.join('\n')}`);
    }
    assert.deepEqual(plan("DELETE FROM events WHERE customer_id = 'x' AND livemode = 0").filter((d) => /^SCAN\b/.test(d)), []);
  });

  it('leaves a delivery under a live lease alone and takes it up once the lease expires (a dead worker’s claim)', async () => {
    const { app, receiver, emit, deliveries } = await setUp();
    const event = emit(false);
    const [d] = await deliveries();
    // What a worker killed mid-attempt leaves behind: a pending row under its lease.
    deliveriesRepo(app.db).lease(d.id, app.clock.now() + 7_000);
    assert.equal(app.worker.sweep(), 0);
    app.clock.advance(7_000);
    assert.equal(app.worker.sweep(), 1);
    await app.worker.idle();
    assert.deepEqual(receiver.eventIds(), [event.id]);
    const [after] = await deliveries();
    assert.equal(after.status, 'succeeded');
    assert.deepEqual(after.attempts.map((a: { number: number }) => a.number), [1], 'the interrupted attempt is sent again under its number');
  });

  it('the sweep also finds deliveries whose commit never woke the worker (another process wrote them)', async () => {
    const { app, receiver, emit } = await setUp();
    const event = emit(false);
    await app.worker.idle();
    assert.equal(receiver.requests.length, 0);
    assert.equal(app.worker.sweep(), 1);
    await app.worker.idle();
    assert.deepEqual(receiver.eventIds(), [event.id]);
  });

  it('many attempts in flight at once raise no "possible memory leak" warning in the operator’s log', async () => {
    app = await startWebhookApp({}, { perEndpoint: 32 });
    receiver = await startReceiver();
    receiver.answer(() => ({ status: 200, delayMs: 50 }));
    const org = seedStandardOrg(app);
    await createEndpoint(app, org.keys.live, receiver.url);
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 20; i++) produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.points });
      await receiver.waitFor(20);
      await app.worker.idle();
      await new Promise((resolve) => setImmediate(resolve)); // process warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    assert.equal(receiver.requests.length, 20);
    assert.deepEqual(warnings.map((w) => `${w.name}: ${w.message}`), []);
  });

  it('stop() takes no new work and waits for the attempt in flight, which is recorded', async () => {
    const { app, receiver, emit, deliveries } = await setUp();
    receiver.answer(() => ({ status: 200, delayMs: 100 }));
    emit();
    await receiver.waitFor(1);
    await app.worker.stop(5_000);
    const [d] = await deliveries();
    assert.equal(d.status, 'succeeded');
    emit();
    assert.equal(app.worker.sweep(), 0, 'a stopped worker claims nothing');
    assert.equal(receiver.requests.length, 1);
  });

  it('stop() is bounded: past the grace period it interrupts the attempt, records it failed and keeps its retry', async () => {
    const { app, receiver, emit, deliveries } = await setUp();
    receiver.answer(() => 'hang');
    emit();
    await receiver.waitFor(1);
    await app.worker.stop(50);
    const [d] = await deliveries();
    assert.equal(d.status, 'pending');
    assert.notEqual(d.nextAttemptAt, null);
    assert.equal(d.attempts[0].responseCode, null);
    assert.match(d.attempts[0].error, /^interrupted: the server shut down/);
    receiver.release();
  });
});
