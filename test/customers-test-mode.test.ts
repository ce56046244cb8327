import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_CUSTOMER_LIMIT } from '../src/customers/test-mode';
import { passDisplayName } from '../src/wallet/test-mode';
import { runJob } from '../src/jobs/jobs';
import { serverJobs } from '../src/jobs/list';

import { silentLogger } from './support/fakes';
import { NO_WORKERS, seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { count, enroll, eventsOf, insertWebhook, ledgerOf, snapshot } from './support/customers';

const DAY = 24 * 3600_000;

describe('test mode: separation from live data', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  it('the same externalCustomerId exists once in test and once in live, as two customers', async () => {
    const live = await enroll(app, org.keys.live, { externalCustomerId: 'both', cardId: org.cards.stamps, email: 'both@example.com', phone: '+15555550123', initialPoints: 1 });
    const test = await enroll(app, org.keys.test, { externalCustomerId: 'both', cardId: org.cards.stamps, email: 'both@example.com', phone: '+15555550123', initialPoints: 2 });
    assert.deepEqual([live.body.result, test.body.result], ['created', 'created'], 'test matching never sees live customers');
    assert.notEqual(test.body.passUserId, live.body.passUserId);

    const keys = { live: org.keys.live, test: org.keys.test, legacy: org.keys.legacy };
    for (const ref of ['both', 'email:both@example.com', 'phone:%2B15555550123']) {
      const seen = Object.fromEntries(await Promise.all(Object.entries(keys).map(async ([k, key]) => [k, (await app.request('GET', `/api/v1/customers/${ref}`, { key })).body])));
      assert.deepEqual([seen.live.passUserId, seen.live.livemode, seen.live.balance], [live.body.passUserId, true, { stamps: 1 }], ref);
      assert.deepEqual([seen.test.passUserId, seen.test.livemode, seen.test.balance], [test.body.passUserId, false, { stamps: 2 }], ref);
      assert.equal(seen.legacy.passUserId, live.body.passUserId, 'a legacy key is live');
    }
    const crossed = await app.request('GET', `/api/v1/customers/pu_${live.body.passUserId}`, { key: org.keys.test });
    assert.equal(crossed.status, 404, 'a test key cannot reach a live customer even by passUserId');
    const crossedBack = await app.request('PATCH', `/api/v1/customers/pu_${test.body.passUserId}`, { key: org.keys.live, body: { customFields: { nickname: 'x' } } });
    assert.equal(crossedBack.status, 404);
    const lookup = await app.request('GET', '/api/v1/customers/lookup?email=both%40example.com', { key: org.keys.test });
    assert.equal(lookup.body.passUserId, test.body.passUserId);
  });

  it('test customers emit test events (livemode false, the org’s own orgId)', async () => {
    const test = await enroll(app, org.keys.test, { externalCustomerId: 'evt-test', cardId: org.cards.points });
    const [event] = eventsOf(app.db, test.body.passUserId);
    assert.deepEqual([event!.type, event!.livemode, event!.envelope.livemode, event!.envelope.orgId], ['customer.enrolled', false, false, org.orgId]);
  });

  it('test passes are named TEST · <card name>', () => {
    assert.equal(passDisplayName('Coffee stamps', true), 'TEST · Coffee stamps');
    assert.equal(passDisplayName('Coffee stamps', false), 'Coffee stamps');
  });
});

describe('test mode: 100 test customers per org', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    for (let i = 0; i < TEST_CUSTOMER_LIMIT; i++) {
      const res = await enroll(app, org.keys.test, { externalCustomerId: `t-${i}`, cardId: i % 2 ? org.cards.stamps : org.cards.points, email: `t${i}@example.com` });
      assert.equal(res.status, 201, res.text);
    }
  });
  after(() => app.close());

  it('the 101st is 409 TEST_CUSTOMER_LIMIT with its documented body, nothing written', async () => {
    const before = snapshot(app.db);
    const res = await enroll(app, org.keys.test, { externalCustomerId: 't-new', cardId: org.cards.stamps, initialPoints: 3 });
    assert.equal(res.status, 409);
    assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'statusCode']);
    assert.equal(res.body.statusCode, 409);
    assert.equal(res.body.error, 'TEST_CUSTOMER_LIMIT');
    assert.match(res.body.message, /^TEST_CUSTOMER_LIMIT: /);
    assert.deepEqual(snapshot(app.db), before);
  });

  const stillWorks: { name: string; body: Record<string, unknown>; matchedBy: string }[] = [
    { name: 'a repeat enroll (externalCustomerId)', body: { externalCustomerId: 't-1', cardId: '<stamps>' }, matchedBy: 'externalCustomerId' },
    { name: 'a match by email that links a new id', body: { externalCustomerId: 't-1-again', cardId: '<stamps>', email: 'T3@example.com' }, matchedBy: 'email' },
  ];
  for (const c of stillWorks) {
    it(`matching still works at the limit: ${c.name}`, async () => {
      const res = await enroll(app, org.keys.test, { ...c.body, cardId: org.cards.stamps });
      assert.deepEqual([res.status, res.body.result, res.body.matchedBy], [201, 'matched', c.matchedBy], res.text);
    });
  }

  it('updating still works at the limit, and live keys are not limited', async () => {
    const res = await app.request('PATCH', '/api/v1/customers/t-5', { key: org.keys.test, body: { customFields: { nickname: 'five' } } });
    assert.deepEqual([res.status, res.body.updated], [200, ['customFields']]);
    const live = await enroll(app, org.keys.live, { externalCustomerId: 'live-after-limit', cardId: org.cards.stamps });
    assert.deepEqual([live.status, live.body.result], [201, 'created']);
  });

  it('another org has its own 100', async () => {
    const other = seedStandardOrg(app, 'Other');
    const res = await enroll(app, other.keys.test, { externalCustomerId: 'fresh', cardId: other.cards.stamps });
    assert.deepEqual([res.status, res.body.result], [201, 'created']);
  });
});

describe('test mode: the 30-day sweep', () => {
  let app: TestApp;
  let org: StandardOrg;
  const sweep = () => runJob(serverJobs(app.deps, NO_WORKERS).find((j) => j.name === 'test-customer-sweep')!, silentLogger);
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  it('is a scheduled server job', () => {
    const job = serverJobs(app.deps, NO_WORKERS).find((j) => j.name === 'test-customer-sweep');
    assert.ok(job, 'registered in src/jobs/list.ts');
    assert.match(job.schedule, /^\S+ \S+ \S+ \S+ \S+$/);
  });

  it('removes test customers 30 days after creation with their ledger rows, events and deliveries; younger ones and live ones stay', async () => {
    insertWebhook(app, org.orgId, false);
    insertWebhook(app, org.orgId, true);
    const old = await enroll(app, org.keys.test, { externalCustomerId: 'old', cardId: org.cards.points, initialPoints: 5 });
    const oldLive = await enroll(app, org.keys.live, { externalCustomerId: 'old', cardId: org.cards.points, initialPoints: 5 });
    app.clock.advance(1 * DAY);
    const young = await enroll(app, org.keys.test, { externalCustomerId: 'young', cardId: org.cards.points, initialPoints: 5 });
    assert.equal(count(app.db, 'webhook_deliveries'), 3, 'each enroll event has a delivery');

    app.clock.advance(29 * DAY - 60_000);
    await sweep();
    assert.equal((await app.request('GET', '/api/v1/customers/old', { key: org.keys.test })).status, 200, 'one minute short of 30 days: kept');

    app.clock.advance(2 * 60_000);
    await sweep();
    assert.equal((await app.request('GET', '/api/v1/customers/old', { key: org.keys.test })).status, 404, 'past 30 days: removed');
    assert.equal(count(app.db, 'customers', 'id = ?', old.body.passUserId), 0);
    assert.deepEqual(ledgerOf(app.db, old.body.passUserId), [], 'ledger rows removed');
    assert.deepEqual(eventsOf(app.db, old.body.passUserId), [], 'events removed');
    assert.equal(count(app.db, 'webhook_deliveries'), 2, 'its delivery removed with its event');

    const youngRead = await app.request('GET', '/api/v1/customers/young', { key: org.keys.test });
    assert.deepEqual([youngRead.status, youngRead.body.balance], [200, { points: 5 }], 'the 29-day-old test customer stays');
    assert.equal(eventsOf(app.db, young.body.passUserId).length, 1);
    const liveRead = await app.request('GET', '/api/v1/customers/old', { key: org.keys.live });
    assert.deepEqual([liveRead.status, liveRead.body.passUserId], [200, oldLive.body.passUserId], 'live customers are never swept');
    assert.equal(eventsOf(app.db, oldLive.body.passUserId).length, 1);
    assert.equal(ledgerOf(app.db, oldLive.body.passUserId).length, 1);

    const again = await enroll(app, org.keys.test, { externalCustomerId: 'old', cardId: org.cards.points });
    assert.equal(again.body.result, 'created', 'the removed id is free again');
  });

  it('frees room under the limit', async () => {
    for (let i = 0; i < TEST_CUSTOMER_LIMIT - 2; i++) await enroll(app, org.keys.test, { externalCustomerId: `fill-${i}`, cardId: org.cards.stamps });
    const full = await enroll(app, org.keys.test, { externalCustomerId: 'one-too-many', cardId: org.cards.stamps });
    assert.equal(full.status, 409);
    app.clock.advance(31 * DAY);
    await sweep();
    const room = await enroll(app, org.keys.test, { externalCustomerId: 'one-too-many', cardId: org.cards.stamps });
    assert.equal(room.status, 201);
  });
});
