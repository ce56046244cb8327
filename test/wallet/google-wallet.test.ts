import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Customer } from '../../src/customers/model';
import { sweepTestCustomers, TEST_CUSTOMER_LIFETIME_MS } from '../../src/customers/test-mode';
import { walletRepo } from '../../src/wallet/repo';
import { sweepGoogleNonces } from '../../src/wallet/sweeps';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { ANDROID_UA, appleEnv, changeBalance, createCustomer, getBytes, googleEnv, IPHONE_UA, ISSUER_ID, reload, unzipPass } from '../support/wallet-app';
import {
  createAppleTestChain, createGoogleCallbackSigner, createServiceAccount, startFakeGoogle,
  type AppleTestChain, type CallbackBody, type FakeGoogle, type GoogleCallbackSigner,
} from '../support/wallet-fixtures';

let chain: AppleTestChain;
let google: FakeGoogle;
let signer: GoogleCallbackSigner;
let app: TestApp;
let org: StandardOrg;

before(async () => {
  chain = createAppleTestChain();
  google = await startFakeGoogle();
  signer = createGoogleCallbackSigner({ issuerId: ISSUER_ID });
  google.setRootKeys(signer.rootKeys);
  app = await startTestApp({ env: { ...appleEnv(chain), ...googleEnv(google, createServiceAccount(google.tokenUri)) } });
  org = seedStandardOrg(app);
});
after(async () => {
  await app.close();
  await google.close();
  chain.cleanup();
});

let nonces = 0;
/** A callback as Google sends it for this customer's object, signed by the fake root key. */
function callback(customer: Customer, eventType: 'save' | 'del', overrides: Record<string, unknown> = {}): CallbackBody {
  return signer.sign(
    {
      classId: `${ISSUER_ID}.${customer.cardId}`,
      objectId: `${ISSUER_ID}.${customer.id}`,
      eventType,
      expTimeMillis: app.clock.now() + 60_000,
      count: 1,
      nonce: `nonce-${++nonces}`,
      ...overrides,
    },
    { keyExpirationMs: app.clock.now() + 3_600_000 },
  );
}

const post = (body: unknown) => app.request('POST', '/wallet/google/callback', { rawBody: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

/** The holder opened the install link on Android: a save link (and our object record) exists. */
async function savedLinkFor(customer: Customer) {
  const res = await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': ANDROID_UA });
  assert.equal(res.status, 302);
}

describe('Google save/delete callback', () => {
  let customer: Customer;
  beforeEach(async () => {
    customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    await savedLinkFor(customer);
  });

  test('a valid save sets installed; a valid del sets pending_install again', async () => {
    assert.equal((await post(callback(customer, 'save'))).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'installed');
    assert.equal((await post(callback(customer, 'del'))).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
  });

  test('tampered, mis-signed, expired or malformed callbacks are refused and change nothing', async () => {
    const good = callback(customer, 'save');
    const otherCustomer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    const refused: Array<[string, unknown, number]> = [
      ['a message changed after signing', { ...good, signedMessage: good.signedMessage.replace(customer.id, otherCustomer.id) }, 401],
      ['a signature of another message', { ...good, signature: callback(customer, 'del').signature }, 401],
      ['an intermediate key not signed by Google', { ...good, intermediateSigningKey: { ...good.intermediateSigningKey, signatures: [callback(customer, 'save').signature] } }, 401],
      ['a message for another issuer', signer.sign(JSON.parse(good.signedMessage), { keyExpirationMs: app.clock.now() + 60_000, issuerId: '1234' }), 401],
      ['an expired message', callback(customer, 'save', { expTimeMillis: app.clock.now() - 1 }), 401],
      ['another protocol', { ...good, protocolVersion: 'ECv1' }, 400],
      ['not JSON', '{"signature":', 400],
    ];
    for (const [name, body, status] of refused) {
      assert.equal((await post(body)).status, status, name);
    }
    // Bytes that are not UTF-8 are refused as such (415), as on every JSON body, not decoded to U+FFFD.
    const latin1 = await fetch(`${app.url}/wallet/google/callback`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify(good).replace('"signature"', '"signatur\u00e9"'), 'latin1') });
    assert.equal(latin1.status, 415, await latin1.text());
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
    assert.equal(reload(app, otherCustomer.id)!.status, 'pending_install');
    assert.equal(walletRepo(app.db).isGoogleSaved(customer.id), false);
    // The untouched original is still good: nothing above used up its nonce.
    assert.equal((await post(good)).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'installed');
  });

  test('a replayed nonce is acknowledged and ignored', async () => {
    const save = callback(customer, 'save');
    assert.equal((await post(save)).status, 200);
    assert.equal((await post(callback(customer, 'del'))).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
    assert.equal((await post(save)).status, 200, 'Google retries get a 200');
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
  });

  test('callbacks arrive out of order: a delayed save older than a del already applied changes nothing', async () => {
    // Google's save reached us only after the del that followed it (its first delivery failed and
    // Google retried later). The signed expiry dates each event: the save's is the older one.
    const lateSave = callback(customer, 'save', { expTimeMillis: app.clock.now() + 60_000 });
    const del = callback(customer, 'del', { expTimeMillis: app.clock.now() + 120_000 });
    assert.equal((await post(del)).status, 200);
    assert.equal((await post(lateSave)).status, 200, 'acknowledged, so Google stops retrying');
    assert.equal(reload(app, customer.id)!.status, 'pending_install', 'a stale save resurrected a deleted pass');
    assert.equal(walletRepo(app.db).isGoogleSaved(customer.id), false);

    // A del older than a save already applied is ignored the same way...
    app.clock.advance(10_000);
    assert.equal((await post(callback(customer, 'save', { expTimeMillis: app.clock.now() + 120_000 }))).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'installed');
    assert.equal((await post(callback(customer, 'del', { expTimeMillis: app.clock.now() + 60_000 }))).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'installed');
    // ...and a newer del applies.
    assert.equal((await post(callback(customer, 'del', { expTimeMillis: app.clock.now() + 180_000 }))).status, 200);
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
  });

  test('del keeps installed while an Apple device still holds the pass', async () => {
    const { pass } = unzipPass((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': IPHONE_UA })).bytes);
    const reg = await app.request('POST', `/wallet/v1/devices/d1/registrations/${chain.passTypeId}/${customer.id}`, {
      headers: { Authorization: `ApplePass ${pass.authenticationToken}` }, body: { pushToken: 'p1' },
    });
    assert.equal(reg.status, 201);
    await post(callback(customer, 'save'));
    await post(callback(customer, 'del'));
    assert.equal(reload(app, customer.id)!.status, 'installed');
  });

  test('an object we never handed out changes nothing', async () => {
    const stranger = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    assert.equal((await post(callback(stranger, 'save'))).status, 200);
    assert.equal(reload(app, stranger.id)!.status, 'pending_install');
  });

  test('root keys are fetched from the configured URL once and then cached', () => {
    const fetches = google.requests.filter((r) => r.path === '/keys');
    assert.equal(fetches.length, 1);
  });

  test('expired nonces are swept', () => {
    const before = sweepGoogleNonces({ db: app.db, clock: app.clock });
    assert.equal(before, 0);
    app.clock.advance(61_000);
    assert.ok(sweepGoogleNonces({ db: app.db, clock: app.clock }) > 0);
  });
});

describe('Google callback without Google configured', () => {
  test('is 404', async () => {
    const bare = await startTestApp();
    try {
      assert.equal((await bare.request('POST', '/wallet/google/callback', { body: {} })).status, 404);
    } finally {
      await bare.close();
    }
  });
});

describe('Google callback while the root keys are unreachable', () => {
  test('is 503, so Google tries again, and changes nothing', async () => {
    // A port that was free a moment ago: connections to it are refused.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const env = { ...googleEnv(google, createServiceAccount(google.tokenUri)), GOOGLE_ROOT_KEYS_URL: `http://127.0.0.1:${closed}/keys` };
    const cut = await startTestApp({ env });
    try {
      const cutOrg = seedStandardOrg(cut);
      const customer = createCustomer(cut, { orgId: cutOrg.orgId, cardId: cutOrg.cards.points });
      assert.equal((await getBytes(`${cut.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': ANDROID_UA })).status, 302);
      const res = await cut.request('POST', '/wallet/google/callback', { rawBody: JSON.stringify(callback(customer, 'save')), headers: { 'Content-Type': 'application/json' } });
      assert.equal(res.status, 503);
      assert.equal(reload(cut, customer.id)!.status, 'pending_install');
      assert.equal(walletRepo(cut.db).isGoogleSaved(customer.id), false);
    } finally {
      await cut.close();
    }
  });
});

describe('test-customer sweep', () => {
  test('removes the wallet rows of a swept test customer; its pass then answers 401 and lists nothing', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points, livemode: false, balance: 100 });
    const { pass } = unzipPass((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': IPHONE_UA })).bytes);
    const registration = `/wallet/v1/devices/sweptDevice/registrations/${chain.passTypeId}/${customer.id}`;
    const headers = { Authorization: `ApplePass ${pass.authenticationToken}` };
    assert.equal((await app.request('POST', registration, { headers, body: { pushToken: 'swept' } })).status, 201);
    await savedLinkFor(customer);
    assert.equal((await post(callback(customer, 'save'))).status, 200);
    changeBalance(app, customer.id, 200);

    const counts = () =>
      Object.fromEntries(
        ['wallet_passes', 'wallet_apple_registrations', 'wallet_google_objects', 'wallet_pass_updates', 'wallet_pass_versions'].map((table) => [
          table,
          app.db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE customer_id = ?`).get(customer.id)!.n,
        ]),
      );
    assert.deepEqual(Object.values(counts()), [1, 1, 1, 1, 1]);

    app.clock.advance(TEST_CUSTOMER_LIFETIME_MS + 1);
    assert.ok(sweepTestCustomers(app.deps) >= 1);
    assert.deepEqual(counts(), { wallet_passes: 0, wallet_apple_registrations: 0, wallet_google_objects: 0, wallet_pass_updates: 0, wallet_pass_versions: 0 });
    assert.equal((await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${customer.id}`, headers)).status, 401);
    assert.equal((await app.request('GET', `/wallet/v1/devices/sweptDevice/registrations/${chain.passTypeId}`)).status, 204);
    assert.equal((await app.request('DELETE', registration, { headers })).status, 401);
  });
});
