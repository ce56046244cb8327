import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createPassUpdateWorker, type PassUpdateWorker } from '../../src/wallet/updates/worker';
import { loadWalletServices } from '../../src/wallet/services';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { appleEnv, getBytes, IPHONE_UA, unzipPass } from '../support/wallet-app';
import { createAppleTestChain, startFakeApns, type AppleTestChain, type FakeApns } from '../support/wallet-fixtures';

// The promise to integrators: they build nothing for the pass. An enroll and an earn made
// through the integration API alone reach a registered iPhone as a push and a fresh pass.
describe('end to end: an API earn updates the installed Apple pass', () => {
  let chain: AppleTestChain;
  let apns: FakeApns;
  let app: TestApp;
  let org: StandardOrg;
  let worker: PassUpdateWorker;
  before(async () => {
    chain = createAppleTestChain();
    apns = await startFakeApns(chain);
    app = await startTestApp({ env: appleEnv(chain, apns.url), afterCommit: { passUpdatesQueued: () => worker.wake() } });
    worker = createPassUpdateWorker(
      { db: app.db, clock: app.clock, log: app.deps.log, config: app.config, wallet: loadWalletServices(app.config, app.clock) },
      { apnsCa: readFileSync(chain.rootCertPath), apnsTimeoutMs: 2000 },
    );
    org = seedStandardOrg(app);
  });
  after(async () => {
    await worker.stop();
    await app.close();
    await apns.close();
    chain.cleanup();
  });

  test('enroll → install on a device → earn: APNs is pushed and the device fetches the new balance', async () => {
    const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'pos-42', cardId: org.cards.stamps, initialPoints: 2 } });
    assert.equal(enrolled.status, 201, enrolled.text);

    // The customer opens the install link on an iPhone and Wallet registers the pass.
    const link = new URL(enrolled.body.installUrl);
    const download = await getBytes(`${app.url}${link.pathname}${link.search}`, { 'User-Agent': IPHONE_UA });
    assert.equal(download.status, 200);
    const { pass } = unzipPass(download.bytes);
    assert.equal(pass.storeCard.primaryFields[0].value, 2);
    const auth = { Authorization: `ApplePass ${pass.authenticationToken}` };
    const registered = await app.request('POST', `/wallet/v1/devices/dev-1/registrations/${chain.passTypeId}/${pass.serialNumber}`, { headers: auth, body: { pushToken: 'push-1' } });
    assert.equal(registered.status, 201);
    const installed = await app.request('GET', '/api/v1/customers/pos-42', { key: org.keys.live });
    assert.equal(installed.body.status, 'installed');
    const tag = (await app.request('GET', `/wallet/v1/devices/dev-1/registrations/${chain.passTypeId}`)).body.lastUpdated;
    await worker.idle();
    apns.requests.length = 0;

    app.clock.advance(2000);
    const earned = await app.request('POST', '/api/v1/customers/pos-42/earn', { key: org.keys.live, body: { type: 'stamps', amount: 3 } });
    assert.equal(earned.status, 201, earned.text);
    await worker.idle();

    assert.deepEqual(apns.requests.map((r) => [r.path, r.headers['apns-topic']]), [['/3/device/push-1', chain.passTypeId]]);
    const changed = await app.request('GET', `/wallet/v1/devices/dev-1/registrations/${chain.passTypeId}?passesUpdatedSince=${tag}`);
    assert.deepEqual(changed.body.serialNumbers, [pass.serialNumber]);
    const latest = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${pass.serialNumber}`, auth);
    assert.equal(latest.status, 200);
    assert.equal(unzipPass(latest.bytes).pass.storeCard.primaryFields[0].value, 5);
  });
});
