import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Customer } from '../../src/customers/model';
import { customersRepo } from '../../src/customers/repo';
import { createLogger } from '../../src/lib/log';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import {
  appleEnv, changeBalance, createCustomer, expectedManifest, getBytes, IPHONE_UA, opensslVerify, reload, unzipPass, writeTamperedManifest,
} from '../support/wallet-app';
import { createAppleTestChain, type AppleTestChain } from '../support/wallet-fixtures';

let chain: AppleTestChain;
let app: TestApp;
let org: StandardOrg;

before(async () => {
  chain = createAppleTestChain();
  app = await startTestApp({ env: appleEnv(chain) });
  org = seedStandardOrg(app);
});
after(async () => {
  await app.close();
  chain.cleanup();
});

/** What a device does first: download the pass and read its token from pass.json. */
async function installedPass(customer: Customer): Promise<{ token: string; serial: string }> {
  const res = await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': IPHONE_UA });
  const { pass } = unzipPass(res.bytes);
  return { token: pass.authenticationToken, serial: pass.serialNumber };
}

const registration = (device: string, serial: string, passTypeId = chain.passTypeId) => `/wallet/v1/devices/${device}/registrations/${passTypeId}/${serial}`;
const serials = (device: string, since?: string) =>
  `/wallet/v1/devices/${device}/registrations/${chain.passTypeId}${since === undefined ? '' : `?passesUpdatedSince=${since}`}`;
const auth = (token: string) => ({ Authorization: `ApplePass ${token}` });

describe('Apple web service: registration', () => {
  let customer: Customer;
  let token: string;
  before(async () => {
    customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 200 });
    ({ token } = await installedPass(customer));
  });

  test('refuses without a valid ApplePass token, for another pass type and an unknown serial (401), changing nothing', async () => {
    const body = { pushToken: 'push-1' };
    const refused: Array<[string, Record<string, string>]> = [
      [registration('dev1', customer.id), {}],
      [registration('dev1', customer.id), auth('x'.repeat(32))],
      [registration('dev1', customer.id), { Authorization: `Bearer ${token}` }],
      [registration('dev1', customer.id), auth(token.slice(0, -1))],
      [registration('dev1', customer.id, 'pass.com.other.type'), auth(token)],
      [registration('dev1', 'unknownSerial'), auth(token)],
    ];
    for (const [path, headers] of refused) {
      assert.equal((await app.request('POST', path, { headers, body })).status, 401, `${path} ${JSON.stringify(headers)}`);
    }
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
    assert.equal((await app.request('GET', serials('dev1'))).status, 204);
  });

  test('first registration: 201 and the customer becomes installed; again: 200', async () => {
    const first = await app.request('POST', registration('dev1', customer.id), { headers: auth(token), body: { pushToken: 'push-1' } });
    assert.equal(first.status, 201);
    assert.equal(reload(app, customer.id)!.status, 'installed');
    const again = await app.request('POST', registration('dev1', customer.id), { headers: { Authorization: `applepass ${token}` }, body: { pushToken: 'push-1' } });
    assert.equal(again.status, 200);
    const secondDevice = await app.request('POST', registration('dev2', customer.id), { headers: auth(token), body: { pushToken: 'push-2' } });
    assert.equal(secondDevice.status, 201);
  });

  test('a body without pushToken is 400', async () => {
    assert.equal((await app.request('POST', registration('dev3', customer.id), { headers: auth(token), body: {} })).status, 400);
  });

  test('serial numbers: 200 with a string lastUpdated, then 204 when nothing changed since that tag', async () => {
    const all = await app.request('GET', serials('dev1'));
    assert.equal(all.status, 200);
    assert.match(all.headers.get('content-type')!, /^application\/json/);
    assert.deepEqual(all.body.serialNumbers, [customer.id]);
    assert.equal(typeof all.body.lastUpdated, 'string');
    assert.equal((await app.request('GET', serials('dev1', all.body.lastUpdated))).status, 204);
    assert.equal((await app.request('GET', serials('unknownDevice'))).status, 204);
    assert.equal((await app.request('GET', '/wallet/v1/devices/dev1/registrations/pass.com.other.type')).status, 204);

    app.clock.advance(5000);
    changeBalance(app, customer.id, 300);
    const changed = await app.request('GET', serials('dev1', all.body.lastUpdated));
    assert.equal(changed.status, 200);
    assert.deepEqual(changed.body.serialNumbers, [customer.id]);
    assert.equal(typeof changed.body.lastUpdated, 'string');
    assert.ok(Number(changed.body.lastUpdated) > Number(all.body.lastUpdated), 'the tag moves on with every change');
    assert.equal((await app.request('GET', serials('dev1', changed.body.lastUpdated))).status, 204);
  });

  test('unregister: 200; the last device gone sets pending_install', async () => {
    assert.equal((await app.request('DELETE', registration('dev1', customer.id), { headers: auth('y'.repeat(32)) })).status, 401);
    assert.equal((await app.request('DELETE', registration('dev1', customer.id), { headers: auth(token) })).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'installed', 'dev2 still holds the pass');
    assert.equal((await app.request('GET', serials('dev1'))).status, 204);
    assert.equal((await app.request('DELETE', registration('dev2', customer.id), { headers: auth(token) })).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
    // Unregistering what is not registered is still fine for the device.
    assert.equal((await app.request('DELETE', registration('dev2', customer.id), { headers: auth(token) })).status, 200);
    assert.equal((await app.request('POST', registration('dev2', customer.id), { headers: auth(token), body: { pushToken: 'push-2' } })).status, 201);
    assert.equal(reload(app, customer.id)!.status, 'installed');
  });

  test('a device log is accepted', async () => {
    const res = await app.request('POST', '/wallet/v1/log', { body: { logs: ['[2026-01-01] Web service error for pass.x: 500'] } });
    assert.equal(res.status, 200);
  });

  test('a device log with entries that are not text is still 200, never a 500', async () => {
    for (const logs of [[{ toString: 1 }], [null, 7, { a: [1] }], [{ valueOf: 'x', toString: 'y' }]]) {
      const res = await app.request('POST', '/wallet/v1/log', { body: { logs } });
      assert.equal(res.status, 200, JSON.stringify(logs));
    }
  });
});

describe('Apple web service: latest pass', () => {
  let customer: Customer;
  let token: string;
  const passPath = (serial: string, passTypeId = chain.passTypeId) => `/wallet/v1/passes/${passTypeId}/${serial}`;
  before(async () => {
    customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points, livemode: false, balance: 4000 });
    ({ token } = await installedPass(customer));
  });

  test('200 with the signed pass and Last-Modified; 401 without the token', async () => {
    assert.equal((await getBytes(app.url + passPath(customer.id))).status, 401);
    assert.equal((await getBytes(app.url + passPath(customer.id), auth('z'.repeat(32)))).status, 401);
    assert.equal((await getBytes(app.url + passPath(customer.id, 'pass.com.other'), auth(token))).status, 401);
    app.clock.advance(1000); // a device asking after the second of the last change
    const res = await getBytes(app.url + passPath(customer.id), auth(token));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.apple.pkpass');
    assert.equal(res.headers.get('last-modified'), new Date(Math.floor(customer.passUpdatedAt / 1000) * 1000).toUTCString());
    const unzipped = unzipPass(res.bytes);
    assert.deepEqual(JSON.parse(unzipped.files.get('manifest.json')!.toString('utf8')), expectedManifest(unzipped.files));
    assert.equal(opensslVerify(unzipped.dir, chain.rootCertPath).status, 0);
    assert.notEqual(opensslVerify(unzipped.dir, chain.rootCertPath, writeTamperedManifest(unzipped)).status, 0);
    assert.equal(unzipped.pass.logoText, 'TEST · Points');
    assert.equal(unzipped.pass.authenticationToken, token);
    assert.equal(unzipped.pass.storeCard.primaryFields[0].value, 40);
  });

  test('304 on If-Modified-Since at whole-second precision; 200 once the balance changed', async () => {
    // A change 700 ms into a second, fetched in the next one: Last-Modified says the change's
    // second, and must still count as current.
    app.clock.set(Math.floor(app.clock.now() / 1000) * 1000 + 10_700);
    changeBalance(app, customer.id, 5000);
    const changedAt = app.clock.now();
    app.clock.advance(500);
    const fresh = await getBytes(app.url + passPath(customer.id), auth(token));
    const lastModified = fresh.headers.get('last-modified')!;
    assert.equal(Date.parse(lastModified), Math.floor(changedAt / 1000) * 1000);
    assert.equal(unzipPass(fresh.bytes).pass.storeCard.primaryFields[0].value, 50);
    const same = await getBytes(app.url + passPath(customer.id), { ...auth(token), 'If-Modified-Since': lastModified });
    assert.equal(same.status, 304);
    assert.equal(same.bytes.length, 0);

    app.clock.advance(1000);
    changeBalance(app, customer.id, 6000);
    const changed = await getBytes(app.url + passPath(customer.id), { ...auth(token), 'If-Modified-Since': lastModified });
    assert.equal(changed.status, 200);
    assert.equal(unzipPass(changed.bytes).pass.storeCard.primaryFields[0].value, 60);
  });

  test('after the customer is deleted every endpoint still answers: 401 or 204', async () => {
    const gone = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points, livemode: false });
    const pass = await installedPass(gone);
    assert.equal((await app.request('POST', registration('devX', gone.id), { headers: auth(pass.token), body: { pushToken: 'p' } })).status, 201);
    app.db.transaction(() => customersRepo(app.db).remove(gone.id))();
    assert.equal((await getBytes(app.url + passPath(gone.id), auth(pass.token))).status, 401);
    assert.equal((await app.request('GET', serials('devX'))).status, 204);
    assert.equal((await app.request('POST', registration('devX', gone.id), { headers: auth(pass.token), body: { pushToken: 'p' } })).status, 401);
    assert.equal((await app.request('DELETE', registration('devX', gone.id), { headers: auth(pass.token) })).status, 401);
  });
});

describe('Apple web service: nothing is lost within one millisecond or one second', () => {
  // The fake clock does not move in these tests: every change, list and download happens "at once",
  // as on a fast machine where a push, the device's question and the next change share a millisecond.
  const passPath = (serial: string) => `/wallet/v1/passes/${chain.passTypeId}/${serial}`;

  test('the serial-number list reports a change made in the same millisecond as the tag it follows', async () => {
    const a = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 100 });
    const b = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 100 });
    const passA = await installedPass(a);
    const passB = await installedPass(b);
    for (const [customer, pass] of [[a, passA], [b, passB]] as const) {
      const res = await app.request('POST', registration('devSameMs', customer.id), { headers: auth(pass.token), body: { pushToken: 'push-same-ms' } });
      assert.equal(res.status, 201);
    }

    const first = await app.request('GET', serials('devSameMs'));
    assert.equal(first.status, 200);
    let tag: string = first.body.lastUpdated;

    // A change in the very millisecond of the device's last answer must still be reported.
    changeBalance(app, a.id, 200);
    const afterA = await app.request('GET', serials('devSameMs', tag));
    assert.equal(afterA.status, 200, 'a change in the same millisecond as the tag was lost');
    assert.deepEqual(afterA.body.serialNumbers, [a.id]);
    assert.equal(typeof afterA.body.lastUpdated, 'string');
    tag = afterA.body.lastUpdated;
    assert.equal((await app.request('GET', serials('devSameMs', tag))).status, 204);

    // Two changes in one millisecond, the device asking between them: the second one is not lost.
    changeBalance(app, b.id, 300);
    const afterB = await app.request('GET', serials('devSameMs', tag));
    assert.deepEqual(afterB.body.serialNumbers, [b.id]);
    changeBalance(app, a.id, 400);
    const afterA2 = await app.request('GET', serials('devSameMs', afterB.body.lastUpdated));
    assert.equal(afterA2.status, 200, 'the second change of the same millisecond was lost');
    assert.deepEqual(afterA2.body.serialNumbers, [a.id]);
    assert.equal((await app.request('GET', serials('devSameMs', afterA2.body.lastUpdated))).status, 204);
  });

  test('a tag the database never issued (a restored backup) lists every pass again instead of hiding changes', async () => {
    const c = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 100 });
    const pass = await installedPass(c);
    assert.equal((await app.request('POST', registration('devRestored', c.id), { headers: auth(pass.token), body: { pushToken: 'push-r' } })).status, 201);
    const res = await app.request('GET', serials('devRestored', '999999999999'));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.serialNumbers, [c.id]);
  });

  test('If-Modified-Since: a change in the same second as the Last-Modified the device holds is still delivered', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance: 1000 });
    const { token } = await installedPass(customer);
    changeBalance(app, customer.id, 2000);
    const fetched = await getBytes(app.url + passPath(customer.id), auth(token));
    assert.equal(fetched.status, 200);
    const lastModified = fetched.headers.get('last-modified')!;
    assert.equal(unzipPass(fetched.bytes).pass.storeCard.primaryFields[0].value, 20);

    // The next change lands in the same second (here: the same millisecond).
    changeBalance(app, customer.id, 3000);
    const next = await getBytes(app.url + passPath(customer.id), { ...auth(token), 'If-Modified-Since': lastModified });
    assert.equal(next.status, 200, 'the device was told its copy is current although the balance changed');
    assert.equal(unzipPass(next.bytes).pass.storeCard.primaryFields[0].value, 30);

    // Once a second has passed without a change, the device's copy is current: 304.
    app.clock.advance(1000);
    const settled = await getBytes(app.url + passPath(customer.id), auth(token));
    const again = await getBytes(app.url + passPath(customer.id), { ...auth(token), 'If-Modified-Since': settled.headers.get('last-modified')! });
    assert.equal(again.status, 304);
  });
});

describe('Apple web service under a per-address limit', () => {
  // Phones behind one carrier NAT (or every client behind the operator's reverse proxy) share an
  // address, and a push to every holder of a card makes them all ask at once.
  let limited: TestApp;
  let limitedOrg: StandardOrg;
  const logged: string[] = [];
  before(async () => {
    const log = createLogger('warn', (line) => logged.push(line));
    limited = await startTestApp({ env: { ...appleEnv(chain), RATE_LIMIT_ANONYMOUS: '2' }, log });
    limitedOrg = seedStandardOrg(limited);
  });
  after(() => limited.close());

  test('devices are never refused for their address; the unauthenticated log is', async () => {
    const customer = createCustomer(limited, { orgId: limitedOrg.orgId, cardId: limitedOrg.cards.stamps, balance: 100 });
    const res = await getBytes(`${limited.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': IPHONE_UA });
    const token = unzipPass(res.bytes).pass.authenticationToken;
    for (let i = 0; i < 6; i++) {
      const device = `natDevice${i}`;
      assert.equal((await limited.request('POST', registration(device, customer.id), { headers: auth(token), body: { pushToken: `p${i}` } })).status, 201);
      assert.equal((await limited.request('GET', serials(device))).status, 200);
      assert.equal((await getBytes(`${limited.url}/wallet/v1/passes/${chain.passTypeId}/${customer.id}`, auth(token))).status, 200);
    }

    limited.clock.advance(1000); // the install page above took from this address's budget
    logged.length = 0;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await limited.request('POST', '/wallet/v1/log', { body: { logs: [`flood ${i}`] } })).status);
    }
    assert.deepEqual(statuses, [200, 200, 429, 429, 429, 429]);
    assert.equal(logged.filter((line) => line.includes('Apple device log')).length, 2);
  });
});
