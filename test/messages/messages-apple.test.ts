import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createMessageWorker, type MessageWorker } from '../../src/messages/worker';
import { setCustomerLanguage } from '../../src/customers/language';
import { saveShopLocations } from '../../src/orgs/service';
import { loadWalletServices } from '../../src/wallet/services';
import { createWalletSenders, type WalletSenders } from '../../src/wallet/updates/senders';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { deliveryRows } from '../support/messages';
import { appleEnv, getBytes, IPHONE_UA, unzipPass } from '../support/wallet-app';
import { createAppleTestChain, startFakeApns, type AppleTestChain, type FakeApns } from '../support/wallet-fixtures';

// Messages on Apple Wallet passes: the pass carries the latest message as its first back field,
// whose changeMessage "%@" puts the words on the lock screen when they change; the usual empty push
// goes to every device holding the pass, which then finds the pass in its changed list and fetches
// it. The shop's locations ride on the same pass, each with its lock-screen text.

describe('messages on Apple Wallet', () => {
  let chain: AppleTestChain;
  let apns: FakeApns;
  let app: TestApp;
  let org: StandardOrg;
  let senders: WalletSenders;
  let messages: MessageWorker;

  before(async () => {
    chain = createAppleTestChain();
    apns = await startFakeApns(chain);
    app = await startTestApp({ env: appleEnv(chain, apns.url), afterCommit: { messagesQueued: () => messages.wake() } });
    org = seedStandardOrg(app);
    const deps = { db: app.db, clock: app.clock, log: app.deps.log, config: app.config, wallet: loadWalletServices(app.config, app.clock) };
    senders = createWalletSenders(deps, { apnsCa: readFileSync(chain.rootCertPath), apnsTimeoutMs: 5000 });
    messages = createMessageWorker(deps, senders);
  });
  after(async () => {
    await messages.stop();
    await senders.close();
    await app.close();
    await apns.close();
    chain.cleanup();
  });
  beforeEach(() => {
    apns.requests.length = 0;
    apns.answer(200);
  });

  /** Enrolled through the API and installed on two iPhones, as in the end-to-end test. */
  async function installedOnTwoPhones(externalId: string) {
    const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: externalId, cardId: org.cards.stamps } });
    assert.equal(enrolled.status, 201, enrolled.text);
    const link = new URL(enrolled.body.installUrl);
    const { pass } = unzipPass((await getBytes(`${app.url}${link.pathname}${link.search}`, { 'User-Agent': IPHONE_UA })).bytes);
    const auth = { Authorization: `ApplePass ${pass.authenticationToken}` };
    for (const device of ['phone-a', 'phone-b']) {
      const res = await app.request('POST', `/wallet/v1/devices/${device}/registrations/${chain.passTypeId}/${pass.serialNumber}`, { headers: auth, body: { pushToken: `push-${device}-${externalId}` } });
      assert.equal(res.status, 201);
    }
    const tag = (await app.request('GET', `/wallet/v1/devices/phone-a/registrations/${chain.passTypeId}`)).body.lastUpdated as string;
    return { serial: pass.serialNumber as string, auth, tag, pushTokens: [`push-phone-a-${externalId}`, `push-phone-b-${externalId}`] };
  }

  async function send(ref: string, header: string, body: string): Promise<string> {
    const res = await app.request('POST', `/api/v1/customers/${ref}/messages`, { key: org.keys.live, body: { header, body } });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.recipients, 1);
    await messages.drain();
    return res.body.messageId as string;
  }

  test('the .pkpass carries the message as a back field with changeMessage "%@"; a push goes to each device; the devices find the pass changed', async () => {
    const phone = await installedOnTwoPhones('apple-1');
    const installedAt = app.clock.now();
    app.clock.advance(5_000);
    const messageId = await send('apple-1', 'Pumpkin pie is back', 'Until Sunday: a slice with every large coffee.');

    assert.deepEqual(apns.requests.map((r) => r.path).sort(), phone.pushTokens.map((t) => `/3/device/${t}`).sort());
    assert.ok(apns.requests.every((r) => r.headers['apns-topic'] === chain.passTypeId && r.body === '{}'));
    assert.deepEqual(deliveryRows(app, messageId).map((r) => [r.channel, r.status]), [['apple', 'delivered']]);

    const changed = await app.request('GET', `/wallet/v1/devices/phone-a/registrations/${chain.passTypeId}?passesUpdatedSince=${phone.tag}`);
    assert.deepEqual(changed.body.serialNumbers, [phone.serial]);
    // The device's copy is older than the message: it gets the new pass, not 304.
    const latest = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${phone.serial}`, { ...phone.auth, 'If-Modified-Since': new Date(installedAt).toUTCString() });
    assert.equal(latest.status, 200);
    const backFields = unzipPass(latest.bytes).pass.storeCard.backFields;
    assert.deepEqual(backFields[0], { key: 'news', label: 'Pumpkin pie is back', value: 'Until Sunday: a slice with every large coffee.', changeMessage: '%@' });
  });

  test('the same words again: pushed, shown without a notification (the field does not change)', async () => {
    await installedOnTwoPhones('apple-2');
    assert.deepEqual(deliveryRows(app, await send('apple-2', 'Closed Monday', 'We are closed on Monday.')).map((r) => r.status), ['delivered']);
    assert.deepEqual(deliveryRows(app, await send('apple-2', 'Closed on Monday', 'We are closed on Monday.')).map((r) => r.status), ['shown']);
    assert.deepEqual(deliveryRows(app, await send('apple-2', 'Closed on Monday', 'We are closed on Monday and Tuesday.')).map((r) => r.status), ['delivered']);
  });

  test('a device APNs reports dead loses its registration; with none left the row fails', async () => {
    await installedOnTwoPhones('apple-3');
    apns.answer(410, 'Unregistered');
    const messageId = await send('apple-3', 'Hello', 'Anyone there?');
    assert.deepEqual(deliveryRows(app, messageId).map((r) => [r.status, r.error]), [['failed', 'no Apple device holds the pass any more']]);
    const status = await app.request('GET', '/api/v1/customers/apple-3', { key: org.keys.live });
    assert.equal(status.body.status, 'pending_install');
  });

  test('the shop’s locations are on the pass, each with its lock-screen text', async () => {
    const phone = await installedOnTwoPhones('apple-4');
    saveShopLocations(app.deps, org.orgId, [
      { name: 'Main Street', latitude: 52.520008, longitude: 13.404954 },
      { name: 'Station kiosk', latitude: 52.525, longitude: 13.369, relevantText: 'Coffee to go, 2 stamps to your free one' },
    ]);
    const latest = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${phone.serial}`, phone.auth);
    assert.deepEqual(unzipPass(latest.bytes).pass.locations, [
      { latitude: 52.520008, longitude: 13.404954, relevantText: 'Show this card at Main Street' },
      { latitude: 52.525, longitude: 13.369, relevantText: 'Coffee to go, 2 stamps to your free one' },
    ]);

    // A customer who chose German gets the default text in German; the owner's own words stay as written.
    const { id } = app.db.prepare('SELECT id FROM customers WHERE external_id = ?').get('apple-4') as { id: string };
    setCustomerLanguage(app.deps, { id }, 'de');
    const german = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${phone.serial}`, phone.auth);
    assert.deepEqual(
      unzipPass(german.bytes).pass.locations.map((l: { relevantText: string }) => l.relevantText),
      ['Zeigen Sie diese Karte bei Main Street vor', 'Coffee to go, 2 stamps to your free one'],
    );
  });
});
