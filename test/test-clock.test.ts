import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverJobs } from '../src/jobs/list';
import { NO_WORKERS, seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { api, days, eventsOf, setTimeZone } from './support/programme';
import { subscribeToEvery } from './support/customers';

// The sandbox's test clock: a test key moves its org's test data forward and sees expiry,
// reminders and birthdays happen before the answer; live data and the 30-day removal of test
// customers keep real time.

const iso = (ms: number) => new Date(ms).toISOString();

describe('test clock', () => {
  let app: TestApp;
  let org: StandardOrg;
  let other: StandardOrg;
  let test: ReturnType<typeof api>;
  let live: ReturnType<typeof api>;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    other = seedStandardOrg(app, 'Other Café');
    subscribeToEvery(app, org.orgId);
    setTimeZone(app, org.orgId, 'Europe/London');
    test = api(app, org.keys.test);
    live = api(app, org.keys.live);
    await live.patchCard(org.cards.points, { expiry: { months: 12 } });
    await live.patchCard(org.cards.stamps, { birthday: { questionKey: 'birthday', units: 1 } });
  });
  after(() => app.close());

  const refusals: { name: string; key: () => string; method: string; path: string; body?: unknown; message: RegExp }[] = [
    { name: 'reading it with a live key', key: () => org.keys.live, method: 'GET', path: '/test_clock', message: /^NOT_AVAILABLE_IN_LIVE_MODE/ },
    { name: 'advancing it with a live key', key: () => org.keys.live, method: 'POST', path: '/test_clock/advance', body: { to: '2027-01-01T00:00:00Z' }, message: /^NOT_AVAILABLE_IN_LIVE_MODE/ },
    { name: 'advancing it backwards', key: () => org.keys.test, method: 'POST', path: '/test_clock/advance', body: { to: '2025-12-31T23:59:59Z' }, message: /^VALIDATION_FAILED: to$/ },
    { name: 'a time without its zone', key: () => org.keys.test, method: 'POST', path: '/test_clock/advance', body: { to: '2027-01-01T00:00:00' }, message: /^VALIDATION_FAILED: to$/ },
    { name: 'a day the calendar lacks', key: () => org.keys.test, method: 'POST', path: '/test_clock/advance', body: { to: '2027-02-30T00:00:00Z' }, message: /^VALIDATION_FAILED: to$/ },
    { name: 'more than 10 years at once', key: () => org.keys.test, method: 'POST', path: '/test_clock/advance', body: { to: '2036-01-02T00:00:00Z' }, message: /^VALIDATION_FAILED: to$/ },
    { name: 'no `to`', key: () => org.keys.test, method: 'POST', path: '/test_clock/advance', body: {}, message: /^VALIDATION_FAILED: to$/ },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}, moving nothing`, async () => {
      const res = await app.request(r.method, `/api/v1${r.path}`, { key: r.key(), body: r.body });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, r.message);
      assert.deepEqual((await test.call('GET', '/test_clock', undefined, 200)).body, { now: iso(app.clock.now()) });
    });
  }

  it('the worked example: a test customer earns, the clock moves 13 months, the expiry row and balance.updated are there; live data is untouched', async () => {
    const start = app.clock.now();
    const customer = await test.enroll(org.cards.points, 'sandbox-ada', { customFields: {} });
    await test.earn('sandbox-ada', 'points', 10);
    await live.enroll(org.cards.points, 'real-ada');
    await live.earn('real-ada', 'points', 10);

    const to = '2027-02-01T09:00:00Z';
    const advanced = await test.call('POST', '/test_clock/advance', { to }, 200);
    assert.deepEqual(advanced.body, { now: iso(Date.parse(to)) });

    const read = await test.read('sandbox-ada');
    assert.deepEqual([read.balance, read.expiring], [{ points: 0 }, null]);
    const history = await test.history('sandbox-ada');
    assert.deepEqual(history.map((r) => [r.kind, r.change, r.source, r.createdAt]), [
      ['expiry', -10, 'expiry', iso(Date.parse(to))],
      ['earn', 10, 'api', iso(start)],
    ]);
    const updated = eventsOf(app, customer.passUserId).filter((e) => e.type === 'balance.updated').at(-1)!;
    assert.deepEqual([updated.data.source, updated.data.change], ['expiry', -10]);

    const real = await live.read('real-ada');
    assert.deepEqual([real.balance, real.expiring], [{ points: 10 }, { amount: 10, at: '2027-01-01T23:59:59.999Z' }], 'live data keeps real time');
    assert.equal((await live.history('real-ada')).filter((r) => r.kind === 'expiry').length, 0);
  });

  it('keeps ticking from where it was moved; test awards carry its time; another org’s sandbox is its own', async () => {
    app.clock.advance(5_000);
    assert.deepEqual((await test.call('GET', '/test_clock', undefined, 200)).body, { now: '2027-02-01T09:00:05.000Z' });
    await test.earn('sandbox-ada', 'points', 1);
    assert.equal((await test.history('sandbox-ada'))[0]!.createdAt, '2027-02-01T09:00:05.000Z');
    assert.deepEqual((await api(app, other.keys.test).call('GET', '/test_clock', undefined, 200)).body, { now: iso(app.clock.now()) });
    await test.call('POST', '/test_clock/advance', { to: '2027-02-01T09:00:05Z' }, 200); // to its own time: allowed, nothing moves
  });

  it('birthdays of test customers come on the test clock’s days; live customers’ do not', async () => {
    await test.enroll(org.cards.stamps, 'sandbox-born', { customFields: { memberNo: 1, altEmail: 'a@example.org', birthday: '1990-03-10' } });
    await live.enroll(org.cards.stamps, 'real-born', { customFields: { memberNo: 2, altEmail: 'b@example.org', birthday: '1990-03-10' } });
    await test.call('POST', '/test_clock/advance', { to: '2027-03-10T08:00:00+00:00' }, 200);
    assert.deepEqual((await test.read('sandbox-born')).balance, { stamps: 1 });
    assert.deepEqual((await live.read('real-born')).balance, { stamps: 0 });
  });

  it('the 30-day removal of test customers keeps real time: a year on the test clock removes nobody', async () => {
    const sweep = serverJobs(app.deps, NO_WORKERS).find((j) => j.name === 'test-customer-sweep')!;
    await sweep.run();
    assert.equal((await test.read('sandbox-ada')).passUserId.length, 24, 'still there');
    app.clock.advance(days(31));
    await sweep.run();
    assert.equal((await app.request('GET', '/api/v1/customers/sandbox-ada', { key: org.keys.test })).status, 404, 'removed 30 days after its creation in real time');
  });
});
