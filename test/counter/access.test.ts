// Who may use the counter: a staff member's PIN unlocks it; wrong PINs pause a
// device (the address and org pauses: pin-pauses.test.ts); the session locks after the owner's
// idle time and ends at once for a disabled member; every change needs the page's Origin and its
// session's token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeOrgSettings } from '../../src/orgs/settings';
import { setStaffStatus } from '../../src/staff/service';
import { startTestApp, type TestApp } from '../support/app';
import { CounterClient, messageOf } from './client';
import { apiCustomer, seedCounterOrg, staffId, STAFF, type CounterOrg } from './support';

let app: TestApp;
let org: CounterOrg;
before(async () => {
  app = await startTestApp();
  org = await seedCounterOrg(app);
});
after(() => app?.close());

const MINUTE = 60_000;

describe('counter: unlocking with a PIN', () => {
  it('shows the PIN screen, refuses a wrong PIN in words, and opens the counter for the right one', async () => {
    const client = new CounterClient(app, org.orgId);
    const page = await client.request('GET', client.base);
    assert.equal(page.status, 200);
    assert.match(page.text, /Enter your PIN/);
    assert.ok(page.setCookies.some((c) => c.startsWith('wl_device=') && /Max-Age=\d{8,}/.test(c) && /HttpOnly/.test(c)), 'a long-lived device cookie');

    const wrong = await client.unlock('0000');
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /That PIN is not right/);

    const right = await client.unlock(STAFF[0]!.pin);
    assert.equal(right.status, 303);
    assert.equal(right.headers.get('location'), `/counter/${org.orgId}`);
    const cookie = right.setCookies.find((c) => c.startsWith('wl_counter='))!;
    assert.match(cookie, /Path=\/counter; HttpOnly; SameSite=Strict/);
    const counter = await client.request('GET', client.base);
    assert.match(counter.text, /Find a customer/);
    assert.match(counter.text, /id="counter-staff"><span class="hide-narrow">Staff: <\/span>Sam</);
    assert.equal(counter.headers.get('X-Counter-Shell'), '1');
    assert.match(counter.headers.get('Content-Security-Policy')!, /script-src 'self' 'nonce-[^']+' 'wasm-unsafe-eval'/);
  });

  it('an unknown org has no counter', async () => {
    const res = await new CounterClient(app, 'org_doesnotexist').request('GET', '/counter/org_doesnotexist');
    assert.equal(res.status, 404);
    assert.match(res.text, /There is no counter at this address/);
  });

  it('pauses a device after 5 wrong PINs (the right one too), while another device still unlocks', async () => {
    const local = await seedCounterOrg(app, 'Device Café');
    const guesser = new CounterClient(app, local.orgId);
    for (let i = 0; i < 5; i++) assert.equal((await guesser.unlock(`000${i}`)).status, i < 4 ? 401 : 429);
    const paused = await guesser.unlock(STAFF[0]!.pin);
    assert.equal(paused.status, 429);
    assert.match(paused.text, /Too many wrong PINs on this device\. Unlocking is paused: try again in 15 minutes/);
    assert.ok(Number(paused.headers.get('Retry-After')) > 800);

    const other = new CounterClient(app, local.orgId);
    assert.equal((await other.unlock(STAFF[0]!.pin)).status, 303, 'the shop’s other tablet is not locked out');

    app.clock.advance(16 * MINUTE);
    assert.equal((await guesser.unlock(STAFF[0]!.pin)).status, 303, 'the pause ends');
  });

  it('locks after the owner’s idle time (default 5 minutes), and after their own setting', async () => {
    const local = await seedCounterOrg(app, 'Idle Café');
    const customer = await apiCustomer(app, local);
    const client = new CounterClient(app, local.orgId);
    await client.unlock(STAFF[0]!.pin);
    app.clock.advance(4 * MINUTE + 50_000);
    assert.equal((await client.scan(customer.scanCode)).status, 200, 'used within 5 minutes');
    app.clock.advance(4 * MINUTE + 50_000);
    assert.equal((await client.scan(customer.scanCode)).status, 200, 'each use restarts the idle time');
    app.clock.advance(5 * MINUTE);
    const locked = await client.scan(customer.scanCode);
    assert.equal(locked.status, 401);
    assert.deepEqual(messageOf(locked), { code: 'COUNTER_LOCKED', message: 'The counter is locked. Enter your PIN again.' });
    assert.match((await client.request('GET', client.base)).text, /Enter your PIN/);

    app.db.transaction(() => writeOrgSettings(app.db, local.orgId, { counter: { lockAfterMinutes: 1, staffDailyAwardCap: null, customerDailyAwardCap: null } }))();
    await client.unlock(STAFF[0]!.pin);
    for (let i = 0; i < 4; i++) {
      app.clock.advance(50_000);
      assert.equal((await client.scan(customer.scanCode)).status, 200, `busy minute ${i + 1}`);
    }
    app.clock.advance(61_000);
    assert.equal((await client.scan(customer.scanCode)).status, 401);
  });

  it('a disabled member’s session stops working at once; the Lock button ends a session', async () => {
    const local = await seedCounterOrg(app, 'Disable Café');
    const customer = await apiCustomer(app, local);
    const sam = new CounterClient(app, local.orgId);
    await sam.unlock(STAFF[0]!.pin);
    const alex = new CounterClient(app, local.orgId);
    await alex.unlock(STAFF[1]!.pin);
    setStaffStatus(app.deps, local.orgId, staffId(app, local.orgId, 'Sam'), 'disabled');
    assert.equal((await sam.scan(customer.scanCode)).status, 401);
    assert.equal((await sam.unlock(STAFF[0]!.pin)).status, 401, 'a disabled member’s PIN no longer opens it');
    assert.equal((await alex.scan(customer.scanCode)).status, 200);

    const lock = await alex.request('POST', `${alex.base}/lock`, { form: { _csrf: alex.csrf } });
    assert.equal(lock.status, 303);
    assert.equal((await alex.scan(customer.scanCode)).status, 401);
  });

  it('switches between live and test data with the visible switch, or opens on test data with ?mode=test', async () => {
    const client = new CounterClient(app, org.orgId);
    await client.unlock(STAFF[0]!.pin);
    assert.match((await client.request('GET', client.base)).text, /id="mode-badge">LIVE DATA</);
    const toTest = await client.request('POST', `${client.base}/mode`, { form: { _csrf: client.csrf, mode: 'test' } });
    assert.equal(toTest.status, 303);
    const page = (await client.request('GET', client.base)).text;
    assert.match(page, /id="mode-badge">TEST DATA</);
    assert.match(page, /data-mode="test"/);
    assert.match(page, /Back to live data/);

    const tester = new CounterClient(app, org.orgId, 'test');
    assert.match((await tester.request('GET', `${tester.base}?mode=test`)).text, /name="mode" value="test"/);
    await tester.unlock(STAFF[0]!.pin);
    assert.match((await tester.request('GET', tester.base)).text, /id="mode-badge">TEST DATA</);
  });

  it('refuses a change without the session’s token or from another origin, and writes nothing', async () => {
    const customer = await apiCustomer(app, org);
    const client = new CounterClient(app, org.orgId);
    await client.unlock(STAFF[0]!.pin);
    const noToken = await client.request('POST', `${client.base}/earn`, { form: { mode: 'live', key: 'k-1', customer: customer.passUserId, what: 'flat', amount: '1' } });
    assert.equal(noToken.status, 403);
    assert.equal(messageOf(noToken).message, 'This page has expired. Reload it and try again.');
    const foreign = await client.request('POST', `${client.base}/earn`, {
      form: { mode: 'live', key: 'k-2', customer: customer.passUserId, what: 'flat', amount: '1' },
      headers: { 'X-CSRF-Token': client.csrf },
      origin: 'https://evil.example',
    });
    assert.equal(foreign.status, 403);
    const rows = app.db.prepare("SELECT count(*) AS n FROM transactions WHERE customer_id = ? AND source = 'scan'").get(customer.passUserId) as { n: number };
    assert.equal(rows.n, 0);
  });
});
