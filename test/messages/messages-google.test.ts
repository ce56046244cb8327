import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createMessageWorker, type MessageWorker } from '../../src/messages/worker';
import { loadWalletServices } from '../../src/wallet/services';
import { FIRST_RETRY_MS } from '../../src/wallet/updates/backoff';
import { createWalletSenders, type WalletSenders } from '../../src/wallet/updates/senders';
import { createPassUpdateWorker, type PassUpdateWorker } from '../../src/wallet/updates/worker';
import { walletResourceId } from '../../src/wallet/google/objects';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { deliveryRows, givePasses } from '../support/messages';
import { saveShopLocations } from '../../src/orgs/service';
import { ANDROID_UA, createCustomer, googleEnv, ISSUER_ID } from '../support/wallet-app';
import { createServiceAccount, GOOGLE_NOTIFY_BUDGET, startFakeGoogle, verifyRs256Jwt, type FakeGoogle, type ServiceAccountFixture } from '../support/wallet-fixtures';

// Messages on Google Wallet passes, against a fake Google that keeps Google's budget: at most 3
// notifying updates per pass in 24 hours, the next refused with 429 QuotaExceeded. The worker
// spends the budget only on new words, counts what it spent, sends TEXT once it is spent, retries a
// refused notifying message at once as TEXT, and leaves a failed TEXT to the queue's retries.

const DAY = 24 * 3_600_000;

describe('messages on Google Wallet', () => {
  let google: FakeGoogle;
  let app: TestApp;
  let org: StandardOrg;
  let senders: WalletSenders;
  let messages: MessageWorker;
  let passUpdates: PassUpdateWorker;
  let account: ServiceAccountFixture;

  before(async () => {
    google = await startFakeGoogle({ now: () => app.clock.now() });
    account = createServiceAccount(google.tokenUri);
    app = await startTestApp({
      env: googleEnv(google, account),
      // As main.ts wires them: a commit wakes the queue that has new rows.
      afterCommit: { messagesQueued: () => messages.wake(), passUpdatesQueued: () => passUpdates.wake() },
    });
    org = seedStandardOrg(app);
    const deps = { db: app.db, clock: app.clock, log: app.deps.log, config: app.config, wallet: loadWalletServices(app.config, app.clock) };
    senders = createWalletSenders(deps);
    messages = createMessageWorker(deps, senders);
    passUpdates = createPassUpdateWorker(deps, { senders });
  });
  after(async () => {
    await messages.stop();
    await passUpdates.stop();
    await senders.close();
    await app.close();
    await google.close();
  });
  beforeEach(() => {
    google.failMessages('TEXT', null);
    google.failMessages('TEXT_AND_NOTIFY', null);
  });

  /** A customer of the point card whose saved Google pass is the only one they hold. */
  function googleCustomer() {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance: 500 });
    givePasses(app, customer.id, { google: true });
    return { id: customer.id, objectId: walletResourceId(ISSUER_ID, customer.id) };
  }

  async function sendTo(customerId: string, header: string, body = `${header}: details inside.`): Promise<string> {
    const res = await app.request('POST', `/api/v1/customers/pu_${customerId}/messages`, { key: org.keys.live, body: { header, body } });
    assert.equal(res.status, 202, res.text);
    await messages.drain();
    return res.body.messageId as string;
  }
  const statusOf = (messageId: string) => deliveryRows(app, messageId).map((r) => r.status);
  const types = (objectId: string) => google.messageRequests().filter((r) => r.path.includes(encodeURIComponent(objectId))).map((r) => JSON.parse(r.body).message.messageType);

  test('three notifying messages a day, then shown without a notification; the budget comes back after 24 hours', async () => {
    const { id, objectId } = googleCustomer();
    const sent: string[] = [];
    for (const header of ['Monday special', 'Tuesday special', 'Wednesday special', 'Thursday special']) {
      sent.push(await sendTo(id, header));
      app.clock.advance(3_600_000);
    }
    assert.deepEqual(sent.map(statusOf), [['delivered'], ['delivered'], ['delivered'], ['shown']]);
    // The fourth went as TEXT straight away: our own count said the budget was spent, so Google refused nothing.
    assert.deepEqual(types(objectId), ['TEXT_AND_NOTIFY', 'TEXT_AND_NOTIFY', 'TEXT_AND_NOTIFY', 'TEXT']);
    assert.equal(google.notifyingUpdates(objectId), GOOGLE_NOTIFY_BUDGET);
    assert.deepEqual(google.messagesOf(objectId).map((m) => [m.header, m.notified]), [
      ['Monday special', true],
      ['Tuesday special', true],
      ['Wednesday special', true],
      ['Thursday special', false],
    ]);

    // 24 hours after the first, one notification is free again.
    app.clock.set(app.clock.now() - 4 * 3_600_000 + DAY + 1);
    assert.deepEqual(statusOf(await sendTo(id, 'Friday special')), ['delivered']);
    assert.equal(types(objectId).at(-1), 'TEXT_AND_NOTIFY');
  });

  test('Google refusing a notifying message (429) gets it at once as TEXT', async () => {
    const { id, objectId } = googleCustomer();
    // Google counted notifications we did not make (another system, a restored backup): our count says 0.
    for (let i = 0; i < GOOGLE_NOTIFY_BUDGET; i++) {
      const res = await fetch(`${google.baseUrl}/walletobjects/v1/loyaltyObject/${encodeURIComponent(objectId)}/addMessage`, {
        method: 'POST',
        body: JSON.stringify({ message: { header: `Elsewhere ${i}`, body: 'x', messageType: 'TEXT_AND_NOTIFY' } }),
      });
      assert.equal(res.status, 200);
    }
    const before = google.messageRequests().length;
    const messageId = await sendTo(id, 'Quiet news');
    const attempts = google.messageRequests().slice(before);
    assert.deepEqual(attempts.map((r) => JSON.parse(r.body).message.messageType), ['TEXT_AND_NOTIFY', 'TEXT']);
    assert.deepEqual(statusOf(messageId), ['shown']);
    assert.equal(google.messagesOf(objectId).at(-1)!.header, 'Quiet news');
  });

  test('a TEXT retry that fails too is a failed attempt, tried again by the queue', async () => {
    const { id, objectId } = googleCustomer();
    google.failMessages('TEXT_AND_NOTIFY', 429);
    google.failMessages('TEXT', 503);
    const messageId = await sendTo(id, 'Closed on Monday');
    const [row] = deliveryRows(app, messageId);
    assert.equal(row!.status, 'pending');
    assert.equal(row!.attempts, 1);
    assert.equal(row!.error, 'Google answered 503');
    assert.equal(row!.next_attempt_at, app.clock.now() + FIRST_RETRY_MS);

    google.failMessages('TEXT_AND_NOTIFY', null);
    google.failMessages('TEXT', null);
    app.clock.advance(FIRST_RETRY_MS);
    await messages.drain();
    assert.deepEqual(statusOf(messageId), ['delivered']);
    assert.equal(google.messagesOf(objectId).at(-1)!.header, 'Closed on Monday');
  });

  test('the same words again are shown without a notification', async () => {
    const { id, objectId } = googleCustomer();
    assert.deepEqual(statusOf(await sendTo(id, 'Cake day', 'Free cake with every coffee.')), ['delivered']);
    assert.deepEqual(statusOf(await sendTo(id, 'Cake day', 'Free cake with every coffee.')), ['shown']);
    assert.deepEqual(types(objectId), ['TEXT_AND_NOTIFY', 'TEXT']);
    assert.equal(google.notifyingUpdates(objectId), 1);
  });

  test('balance updates never notify, so they never spend the budget', async () => {
    const { id, objectId } = googleCustomer();
    const before = google.objectRequests().length;
    const earned = await app.request('POST', `/api/v1/customers/pu_${id}/earn`, { key: org.keys.live, body: { type: 'points', amount: 10 } });
    assert.equal(earned.status, 201, earned.text);
    await passUpdates.idle();
    const patches = google.objectRequests().slice(before);
    assert.equal(patches.length, 1);
    assert.equal(JSON.parse(patches[0]!.body).notifyPreference, undefined);
    assert.equal(google.notifyingUpdates(objectId), 0);
  });

  test('a pass Google no longer has fails without retries', async () => {
    const { id } = googleCustomer();
    google.failMessages('TEXT_AND_NOTIFY', 404);
    const messageId = await sendTo(id, 'Gone');
    const [row] = deliveryRows(app, messageId);
    assert.equal(row!.status, 'failed');
    assert.equal(row!.next_attempt_at, null);
    const read = await app.request('GET', `/api/v1/cards/${org.cards.points}/messages/${messageId}`, { key: org.keys.live });
    assert.deepEqual(read.body.deliveries, { passes: 1, pending: 0, delivered: 0, shownWithoutNotification: 0, failed: 1 });
  });

  test('a pass saved after the message shows it too, quietly, with the shop’s locations; a change of locations reaches saved passes', async () => {
    const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'android-1', cardId: org.cards.points } });
    givePasses(app, enrolled.body.passUserId, { web: true });
    const messageId = await sendTo(enrolled.body.passUserId, 'Welcome', 'Glad to have you.');
    saveShopLocations(app.deps, org.orgId, [{ name: 'Main Street', latitude: 48.137154, longitude: 11.576124 }]);

    const link = new URL(enrolled.body.installUrl);
    const install = await fetch(`${app.url}${link.pathname}${link.search}`, { headers: { 'User-Agent': ANDROID_UA }, redirect: 'manual' });
    const saveUrl = install.headers.get('location')!;
    const { claims } = verifyRs256Jwt(saveUrl.split('/save/')[1]!, account.publicKey);
    const object = (claims.payload as { loyaltyObjects: Record<string, unknown>[] }).loyaltyObjects[0]!;
    assert.deepEqual(object.messages, [{ id: messageId, header: 'Welcome', body: 'Glad to have you.', messageType: 'TEXT' }]);
    assert.deepEqual(object.locations, [{ latitude: 48.137154, longitude: 11.576124 }]);

    // Saved now; the shop moves: every saved pass gets the new list in its next PATCH.
    const { id } = googleCustomer();
    await passUpdates.runDue();
    const before = google.objectRequests().length;
    saveShopLocations(app.deps, org.orgId, [{ name: 'New place', latitude: 48.1, longitude: 11.5 }]);
    await passUpdates.runDue();
    const patch = google.objectRequests().slice(before).find((r) => r.path.endsWith(encodeURIComponent(walletResourceId(ISSUER_ID, id))));
    assert.ok(patch, 'the saved pass was PATCHed');
    assert.deepEqual(JSON.parse(patch.body).locations, [{ latitude: 48.1, longitude: 11.5 }]);
    assert.equal(JSON.parse(patch.body).notifyPreference, undefined);
  });
});
