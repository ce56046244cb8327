import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Customer } from '../../src/customers/model';
import { noAfterCommit } from '../support/fakes';
import { loadWalletServices } from '../../src/wallet/services';
import { FIRST_RETRY_MS, MAX_ATTEMPTS, retryDelayMs } from '../../src/wallet/updates/backoff';
import { queuePassUpdate } from '../../src/wallet/updates/queue';
import { passUpdatesRepo } from '../../src/wallet/updates/repo';
import { createPassUpdateWorker, type PassUpdateWorker, type PassUpdateWorkerOptions } from '../../src/wallet/updates/worker';
import { walletRepo } from '../../src/wallet/repo';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { ANDROID_UA, appleEnv, changeBalance, createCustomer, getBytes, googleEnv, IPHONE_UA, ISSUER_ID, reload, unzipPass } from '../support/wallet-app';
import {
  createAppleTestChain, createGoogleCallbackSigner, createServiceAccount, startFakeApns, startFakeGoogle, unusedPort,
  type AppleTestChain, type FakeApns, type FakeGoogle, type ServiceAccountFixture,
} from '../support/wallet-fixtures';

let chain: AppleTestChain;
let apns: FakeApns;
let google: FakeGoogle;
let account: ServiceAccountFixture;
let app: TestApp;
let org: StandardOrg;
let worker: PassUpdateWorker;
const extraWorkers: PassUpdateWorker[] = [];

before(async () => {
  chain = createAppleTestChain();
  apns = await startFakeApns(chain);
  google = await startFakeGoogle();
  account = createServiceAccount(google.tokenUri);
  app = await startTestApp({
    env: { ...appleEnv(chain, apns.url), ...googleEnv(google, account) },
    // As main.ts wires it: a committed balance change wakes the worker.
    afterCommit: { passUpdatesQueued: () => worker.wake() },
  });
  org = seedStandardOrg(app);
  worker = newWorker();
});
after(async () => {
  await worker.stop();
  await Promise.all(extraWorkers.map((w) => w.stop()));
  await app.close();
  await apns.close();
  await google.close();
  chain.cleanup();
});
beforeEach(() => {
  apns.requests.length = 0;
  apns.answer(200);
  google.requests.length = 0;
  google.setObjectStatus(200);
});
afterEach(() => worker.idle());

function newWorker(config = app.config, options: PassUpdateWorkerOptions = {}): PassUpdateWorker {
  return createPassUpdateWorker(
    { db: app.db, clock: app.clock, log: app.deps.log, config, wallet: loadWalletServices(config, app.clock) },
    { apnsCa: readFileSync(chain.rootCertPath), apnsTimeoutMs: 2000, ...options },
  );
}

/** Installs the pass on a device the way iOS does: download, then register with its token. */
async function registerDevice(customer: Customer, device: string, pushToken: string): Promise<string> {
  const { pass } = unzipPass((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': IPHONE_UA })).bytes);
  const res = await app.request('POST', `/wallet/v1/devices/${device}/registrations/${chain.passTypeId}/${customer.id}`, {
    headers: { Authorization: `ApplePass ${pass.authenticationToken}` },
    body: { pushToken },
  });
  assert.equal(res.status, 201);
  return pass.authenticationToken;
}

const queued = (customerId: string) => passUpdatesRepo(app.db).find(customerId);

describe('queuePassUpdate', () => {
  test('runs only inside the balance change transaction and coalesces repeated changes', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    await registerDevice(customer, 'phoneQ', 'tokenQ');
    assert.throws(() => queuePassUpdate(app.deps, customer.id), /inside the transaction/);
    const noWake = { ...app, deps: { ...app.deps, afterCommit: noAfterCommit } };
    changeBalance(noWake, customer.id, 100);
    changeBalance(noWake, customer.id, 200);
    assert.deepEqual(queued(customer.id), { customerId: customer.id, generation: 2, attempts: 0, nextAttemptAt: app.clock.now(), leaseUntil: null, lastError: null });
  });

  test('a rolled-back balance change leaves no queue row', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    await registerDevice(customer, 'phoneRb', 'tokenRb');
    assert.throws(() =>
      app.db.transaction(() => {
        queuePassUpdate(app.deps, customer.id);
        throw new Error('INSUFFICIENT_BALANCE');
      })(),
    );
    assert.equal(queued(customer.id), undefined);
  });

  test('a pass on no wallet gets neither a queue row nor a sequence number; the worker has nothing to do', () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    const sequence = walletRepo(app.db).updateSequence();
    changeBalance(app, customer.id, 100);
    changeBalance(app, customer.id, 200);
    assert.equal(queued(customer.id), undefined);
    assert.equal(walletRepo(app.db).updateSequence(), sequence, 'no Apple device can ask about it');
    assert.equal(app.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM wallet_pass_versions WHERE customer_id = ?').get(customer.id)!.n, 0);
  });

  test('a pass with only a Google save link is queued for the PATCH without taking an Apple sequence number', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    assert.equal((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': ANDROID_UA })).status, 302);
    const sequence = walletRepo(app.db).updateSequence();
    const noWake = { ...app, deps: { ...app.deps, afterCommit: noAfterCommit } };
    changeBalance(noWake, customer.id, 100);
    assert.equal(queued(customer.id)?.generation, 1);
    assert.equal(walletRepo(app.db).updateSequence(), sequence);
    assert.deepEqual(await worker.runDue(), { processed: 1, succeeded: 1, failed: 0 });
  });

  test('a device registering after unrecorded changes is told the pass changed since its older tag', async () => {
    // The device already holds another pass and the tag of its last serial-number list.
    const held = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    await registerDevice(held, 'phoneLate', 'tokenLate');
    const list = (since?: string) => app.request('GET', `/wallet/v1/devices/phoneLate/registrations/${chain.passTypeId}${since ? `?passesUpdatedSince=${since}` : ''}`);
    const tag: string = (await list()).body.lastUpdated;

    // It downloads a new pass; the balance changes before it registers (no device: nothing recorded).
    const late = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 100 });
    const download = await getBytes(`${app.url}/get-pass/${late.cardId}?code=${late.installCode}`, { 'User-Agent': IPHONE_UA });
    const { pass } = unzipPass(download.bytes);
    app.clock.advance(2000);
    changeBalance(app, late.id, 300);
    assert.equal(queued(late.id), undefined);
    const registered = await app.request('POST', `/wallet/v1/devices/phoneLate/registrations/${chain.passTypeId}/${late.id}`, {
      headers: { Authorization: `ApplePass ${pass.authenticationToken}` },
      body: { pushToken: 'tokenLate' },
    });
    assert.equal(registered.status, 201);

    const changed = await list(tag);
    assert.equal(changed.status, 200);
    assert.deepEqual(changed.body.serialNumbers, [late.id], 'the pass that changed after its download is listed, the unchanged one is not');
    const fresh = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${late.id}`, {
      Authorization: `ApplePass ${pass.authenticationToken}`,
      'If-Modified-Since': String(download.headers.get('last-modified')),
    });
    assert.equal(fresh.status, 200, 'its copy is older than the change');
    assert.equal(unzipPass(fresh.bytes).pass.storeCard.primaryFields[0].value, 3);
    assert.equal((await list(changed.body.lastUpdated)).status, 204);
  });

  test('retry delays double from 30 s up to an hour, then stop', () => {
    assert.deepEqual([1, 2, 3, 4].map(retryDelayMs), [FIRST_RETRY_MS, 60_000, 120_000, 240_000]);
    assert.equal(retryDelayMs(MAX_ATTEMPTS - 1), 3_600_000);
    assert.equal(retryDelayMs(MAX_ATTEMPTS), null);
  });
});

describe('Apple pushes', () => {
  test('a committed balance change pushes to each registered device with the pass certificate; the device then gets the new balance', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 100 });
    const bystander = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    const token = await registerDevice(customer, 'phoneA', 'tokenA');
    await registerDevice(customer, 'watchA', 'tokenW');
    await registerDevice(bystander, 'phoneB', 'tokenB');
    const before = await app.request('GET', `/wallet/v1/devices/phoneA/registrations/${chain.passTypeId}`);

    app.clock.advance(2000);
    changeBalance(app, customer.id, 700);
    await worker.idle();

    const certFingerprint = new X509Certificate(readFileSync(chain.passCertPath)).fingerprint256;
    assert.deepEqual(apns.requests.map((r) => r.path).sort(), ['/3/device/tokenA', '/3/device/tokenW']);
    for (const push of apns.requests) {
      assert.equal(push.method, 'POST');
      assert.equal(push.headers['apns-topic'], chain.passTypeId);
      assert.equal(push.body, '{}');
      assert.equal(push.clientFingerprint256, certFingerprint);
    }
    assert.equal(queued(customer.id), undefined, 'done rows leave the queue');

    const list = await app.request('GET', `/wallet/v1/devices/phoneA/registrations/${chain.passTypeId}?passesUpdatedSince=${before.body.lastUpdated}`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.serialNumbers, [customer.id]);
    const latest = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${customer.id}`, { Authorization: `ApplePass ${token}` });
    assert.equal(latest.status, 200);
    assert.equal(unzipPass(latest.bytes).pass.storeCard.primaryFields[0].value, 7);
  });

  test('410 Unregistered removes that registration; with none left the customer is pending_install', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    await registerDevice(customer, 'oldPhone', 'deadToken');
    assert.equal(reload(app, customer.id)!.status, 'installed');
    apns.answer(410, 'Unregistered');
    changeBalance(app, customer.id, 500);
    await worker.idle();
    assert.equal(apns.requests.length, 1);
    assert.deepEqual(walletRepo(app.db).registrationsOf(customer.id, chain.passTypeId), []);
    assert.equal(reload(app, customer.id)!.status, 'pending_install');
    assert.equal(queued(customer.id), undefined, 'a dead device is not a failure to retry');
  });

  test('APNs answering 500 leaves a retry with backoff that later succeeds; the balance stays', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    await registerDevice(customer, 'phoneR', 'tokenR');
    apns.answer(500, 'InternalServerError');
    changeBalance(app, customer.id, 300);
    await worker.idle();
    const failedAt = app.clock.now();
    assert.deepEqual(queued(customer.id), {
      customerId: customer.id, generation: 1, attempts: 1, nextAttemptAt: failedAt + FIRST_RETRY_MS, leaseUntil: null,
      lastError: 'APNs answered 500 InternalServerError',
    });
    assert.equal(reload(app, customer.id)!.balance, 300);

    apns.answer(200);
    assert.deepEqual(await worker.runDue(), { processed: 0, succeeded: 0, failed: 0 }, 'not due yet');
    assert.equal(apns.requests.length, 1);
    app.clock.advance(FIRST_RETRY_MS);
    assert.deepEqual(await worker.runDue(), { processed: 1, succeeded: 1, failed: 0 });
    assert.equal(apns.requests.length, 2);
    assert.equal(apns.requests[1]!.path, '/3/device/tokenR');
    assert.equal(queued(customer.id), undefined);
  });

  test('APNs unreachable: the row waits, and a later run that reaches APNs sends it', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    await registerDevice(customer, 'phoneU', 'tokenU');
    const offline = { ...app.config, apple: { ...app.config.apple, apnsUrl: `https://127.0.0.1:${await unusedPort()}` } };
    const cutOff = newWorker(offline);
    extraWorkers.push(cutOff);
    const noWake = { ...app, deps: { ...app.deps, afterCommit: noAfterCommit } };
    changeBalance(noWake, customer.id, 400);
    assert.deepEqual(await cutOff.runDue(), { processed: 1, succeeded: 0, failed: 1 });
    assert.match(queued(customer.id)!.lastError!, /^APNs: .*ECONNREFUSED/);
    assert.equal(apns.requests.length, 0);
    app.clock.advance(FIRST_RETRY_MS);
    assert.deepEqual(await worker.runDue(), { processed: 1, succeeded: 1, failed: 0 });
    assert.deepEqual(apns.requests.map((r) => r.path), ['/3/device/tokenU']);
  });

  test('a row held by a worker that died is taken up again once its lease expires', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    await registerDevice(customer, 'phoneL', 'tokenL');
    const noWake = { ...app, deps: { ...app.deps, afterCommit: noAfterCommit } };
    changeBalance(noWake, customer.id, 100);
    // A worker claims the row and crashes before sending.
    const leaseUntil = app.clock.now() + 60_000;
    assert.equal(passUpdatesRepo(app.db).claimDue(app.clock.now(), leaseUntil, 10).length, 1);
    assert.deepEqual(await worker.runDue(), { processed: 0, succeeded: 0, failed: 0 });
    app.clock.set(leaseUntil);
    assert.deepEqual(await worker.runDue(), { processed: 1, succeeded: 1, failed: 0 });
    assert.deepEqual(apns.requests.map((r) => r.path), ['/3/device/tokenL']);
  });

  test('a change arriving while its push is in flight is pushed again', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    await registerDevice(customer, 'phoneG', 'tokenG');
    const noWake = { ...app, deps: { ...app.deps, afterCommit: noAfterCommit } };
    changeBalance(noWake, customer.id, 100);
    const running = worker.runDue(); // claims the row synchronously, then awaits APNs
    changeBalance(noWake, customer.id, 200);
    assert.deepEqual(await running, { processed: 2, succeeded: 2, failed: 0 });
    assert.deepEqual(apns.requests.map((r) => r.path), ['/3/device/tokenG', '/3/device/tokenG']);
    assert.equal(queued(customer.id), undefined);
  });
});

describe('Google object updates', () => {
  test('a balance change PATCHes the object handed out in a save link, with a service-account token', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, balance: 9000 });
    const untouched = createCustomer(app, { orgId: org.orgId, cardId: org.cards.levels });
    assert.equal((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': ANDROID_UA })).status, 302);

    changeBalance(app, customer.id, 52000);
    changeBalance(app, untouched.id, 100);
    await worker.idle();

    const patches = google.objectRequests();
    assert.equal(patches.length, 1, 'only objects that may exist at Google');
    assert.equal(patches[0]!.method, 'PATCH');
    assert.equal(patches[0]!.path, `/walletobjects/v1/loyaltyObject/${ISSUER_ID}.${customer.id}`);
    assert.match(String(patches[0]!.headers.authorization), /^Bearer token-\d+$/);
    assert.deepEqual(JSON.parse(patches[0]!.body), {
      loyaltyPoints: { label: 'Points', balance: { int: 520 } },
      textModulesData: [{ id: 'level', header: 'Level', body: 'Gold' }],
      // The shop's locations, none here: a PATCH always carries the current list, so a removed one leaves the pass too.
      locations: [],
    });
    assert.equal(queued(customer.id), undefined);
    assert.equal(queued(untouched.id), undefined);
  });

  test('404 (not saved yet) completes; 500 is retried', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}&wallet=google`);
    google.setObjectStatus(404);
    changeBalance(app, customer.id, 100);
    await worker.idle();
    assert.equal(queued(customer.id), undefined);

    google.setObjectStatus(500);
    changeBalance(app, customer.id, 200);
    await worker.idle();
    assert.equal(queued(customer.id)!.lastError, 'Google answered 500');
    google.setObjectStatus(200);
    app.clock.advance(FIRST_RETRY_MS);
    assert.deepEqual(await worker.runDue(), { processed: 1, succeeded: 1, failed: 0 });
    assert.deepEqual(JSON.parse(google.objectRequests().at(-1)!.body).loyaltyPoints, { label: 'Points', balance: { int: 2 } });
  });
});

describe('erasure voids the pass', () => {
  test('Apple devices are pushed and fetch a voided pass; the Google object is made inactive without the name', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance: 500 });
    const token = await registerDevice(customer, 'phoneV', 'tokenV');
    assert.equal((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': ANDROID_UA })).status, 302);
    await worker.idle();
    apns.requests.length = 0;
    google.requests.length = 0;

    app.clock.advance(2000);
    const erased = await app.request('DELETE', `/api/v1/customers/pu_${customer.id}`, { key: org.keys.live });
    assert.equal(erased.status, 200, erased.text);
    await worker.idle();

    assert.deepEqual(apns.requests.map((r) => r.path), ['/3/device/tokenV']);
    const latest = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${customer.id}`, { Authorization: `ApplePass ${token}` });
    assert.equal(latest.status, 200);
    const { pass } = unzipPass(latest.bytes);
    assert.equal(pass.voided, true);
    assert.equal(pass.storeCard.backFields.length, 0, 'no holder name on the back');
    assert.notEqual(pass.barcodes[0].message, customer.scanCode, 'the old code is not on it');

    const patches = google.objectRequests();
    assert.equal(patches.length, 1);
    const body = JSON.parse(patches[0]!.body);
    assert.equal(body.state, 'INACTIVE');
    assert.equal(body.accountName, 'Member');
  });
});

describe('Google object saved from an older link', () => {
  test('the save callback brings the new object up to the current balance', async () => {
    const signer = createGoogleCallbackSigner({ issuerId: ISSUER_ID });
    google.setRootKeys(signer.rootKeys);
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance: 100 });
    // The holder opens the link while the balance is 1: the save JWT carries 1 point.
    assert.equal((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': ANDROID_UA })).status, 302);
    // An earn before the holder taps "Save": the object does not exist yet (404), nothing to update.
    google.setObjectStatus(404);
    changeBalance(app, customer.id, 500);
    await worker.idle();
    assert.equal(queued(customer.id), undefined);

    // Now the holder saves: Google creates the object from the JWT, with 1 point, and calls back.
    google.setObjectStatus(200);
    google.requests.length = 0;
    const save = signer.sign(
      { classId: `${ISSUER_ID}.${customer.cardId}`, objectId: `${ISSUER_ID}.${customer.id}`, eventType: 'save', expTimeMillis: app.clock.now() + 60_000, count: 1, nonce: 'late-save-1' },
      { keyExpirationMs: app.clock.now() + 3_600_000 },
    );
    const res = await app.request('POST', '/wallet/google/callback', { rawBody: JSON.stringify(save), headers: { 'Content-Type': 'application/json' } });
    assert.equal(res.status, 200);
    await worker.idle();
    const patches = google.objectRequests();
    assert.equal(patches.length, 1, 'the saved object was left showing the balance of the old link');
    assert.deepEqual(JSON.parse(patches[0]!.body).loyaltyPoints, { label: 'Points', balance: { int: 5 } });
    assert.equal(queued(customer.id), undefined);
  });
});

describe('without wallet credentials', () => {
  test('the worker has nothing to send and clears the queue', async () => {
    const bare = await startTestApp();
    try {
      const bareOrg = seedStandardOrg(bare);
      const customer = createCustomer(bare, { orgId: bareOrg.orgId, cardId: bareOrg.cards.stamps });
      // A device registered while Apple Wallet was configured; the credentials have been removed since.
      walletRepo(bare.db).insertRegistration({ deviceLibraryId: 'oldPhone', passTypeId: 'pass.example.old', customerId: customer.id, pushToken: 'old' }, bare.clock.now());
      changeBalance(bare, customer.id, 100);
      const idle = createPassUpdateWorker({ db: bare.db, clock: bare.clock, log: bare.deps.log, config: bare.config, wallet: loadWalletServices(bare.config, bare.clock) });
      assert.deepEqual(await idle.runDue(), { processed: 1, succeeded: 1, failed: 0 });
      assert.equal(passUpdatesRepo(bare.db).find(customer.id), undefined);
      await idle.stop();
      changeBalance(bare, customer.id, 200);
      assert.deepEqual(await idle.runDue(), { processed: 0, succeeded: 0, failed: 0 }, 'a stopped worker sends nothing');
    } finally {
      await bare.close();
    }
  });
});
