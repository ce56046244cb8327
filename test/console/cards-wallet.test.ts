import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import type { Customer } from '../../src/customers/model';
import { createCard, updateCard } from '../../src/cards/service';
import { cardsRepo } from '../../src/cards/repo';
import { walletRepo } from '../../src/wallet/repo';
import { cardUpdatesRepo, FANOUT_START } from '../../src/wallet/updates/card-repo';
import { expandCardChange } from '../../src/wallet/updates/queue';
import { passUpdatesRepo } from '../../src/wallet/updates/repo';
import { createPassUpdateWorker, type PassUpdateWorker } from '../../src/wallet/updates/worker';
import { loadWalletServices } from '../../src/wallet/services';
import { noAfterCommit } from '../support/fakes';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import type { TestApp } from '../support/app';
import { ANDROID_UA, appleEnv, createCustomer, getBytes, googleEnv, IPHONE_UA, ISSUER_ID, unzipPass } from '../support/wallet-app';
import { createAppleTestChain, createServiceAccount, startFakeApns, startFakeGoogle, type AppleTestChain, type FakeApns, type FakeGoogle } from '../support/wallet-fixtures';
import { errorOf, jpegImage, pngImage, uploadLogo } from './cards-support';

// A card edited in the console reaches the passes already installed, as a balance change does:
// Apple devices get a push and then the new pass, Google gets the object and the class patched,
// the web pass shows it. A card's logo upload goes the same way.

let chain: AppleTestChain;
let apns: FakeApns;
let google: FakeGoogle;
let app: TestApp;
let org: ConsoleOrg;
let worker: PassUpdateWorker;
let client: ConsoleClient;

before(async () => {
  chain = createAppleTestChain();
  apns = await startFakeApns(chain);
  google = await startFakeGoogle();
  const account = createServiceAccount(google.tokenUri);
  app = await startTestApp({
    env: { ...appleEnv(chain, apns.url), ...googleEnv(google, account), PUBLIC_URL: 'https://loyalty.example.com' },
    afterCommit: { passUpdatesQueued: () => worker.wake() },
  });
  worker = createPassUpdateWorker(
    { db: app.db, clock: app.clock, log: app.deps.log, config: app.config, wallet: loadWalletServices(app.config, app.clock) },
    { apnsCa: readFileSync(chain.rootCertPath), apnsTimeoutMs: 2000 },
  );
  org = await seedConsoleOrg(app);
  client = new ConsoleClient(app);
  // PUBLIC_URL names another origin: the console is reached at the test server's own address.
  await client.signIn(org.admin.email, ADMIN_PASSWORD);
});
after(async () => {
  await worker.stop();
  await app.close();
  await apns.close();
  await google.close();
  chain.cleanup();
});
beforeEach(() => {
  apns.requests.length = 0;
  google.requests.length = 0;
});
afterEach(() => worker.idle());

/** Installs the pass as iOS does: download, then register with a push token. Returns its ApplePass token. */
async function registerDevice(customer: Customer, device: string, pushToken: string): Promise<string> {
  const { pass } = unzipPass((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': IPHONE_UA })).bytes);
  const res = await app.request('POST', `/wallet/v1/devices/${device}/registrations/${chain.passTypeId}/${customer.id}`, { headers: { Authorization: `ApplePass ${pass.authenticationToken}` }, body: { pushToken } });
  assert.equal(res.status, 201);
  return pass.authenticationToken;
}

/** The card's editor form as stored, with some fields changed, posted; expects the save. */
async function editCard(cardId: string, changes: Record<string, string>): Promise<void> {
  const page = (await client.request('GET', `/console/cards/${cardId}`)).text;
  const form: Record<string, string> = {};
  for (const m of page.matchAll(/<input id="[^"]*" name="([^"]+)" type="(?:text|hidden)"(?: value="([^"]*)")?/g)) form[m[1]!] = (m[2] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
  for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form[m[1]!] = m[2]!;
  for (const m of page.matchAll(/<select id="[^"]*" name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) form[m[1]!] = /<option value="([^"]*)" selected>/.exec(m[2]!)?.[1] ?? '';
  for (const m of page.matchAll(/<input id="[^"]*" type="checkbox" name="([^"]+)" value="on" checked>/g)) form[m[1]!] = 'on';
  const res = await client.request('POST', `/console/cards/${cardId}`, { form: { ...form, ...changes } });
  assert.equal(res.status, 303, errorSummary(res.text));
}

const errorSummary = (page: string) => [...page.matchAll(/class="error"[^>]*>([^<]*)</g)].map((m) => m[1]).join('; ') || page.slice(0, 500);

const lastModified = async (token: string, serial: string) => (await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${serial}`, { Authorization: `ApplePass ${token}` })).headers.get('last-modified')!;

describe('editing a card updates the installed passes', () => {
  test('Apple: each registered device of the card gets a push, lists the pass as changed, and downloads it with the new name and colours', async () => {
    const holder = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 300 });
    const webOnly = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    const otherCard = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    const token = await registerDevice(holder, 'phone-1', 'push-holder');
    await registerDevice(otherCard, 'phone-2', 'push-other');
    const tag = (await app.request('GET', `/wallet/v1/devices/phone-1/registrations/${chain.passTypeId}`)).body.lastUpdated;
    const modified = await lastModified(token, holder.id);
    await worker.idle();
    apns.requests.length = 0;

    app.clock.advance(5000);
    await editCard(org.cards.stamps, { name: 'Coffee passport', 'design.backgroundColor': '#0a3d62', 'design.logoText': 'Passport' });
    await worker.idle();

    assert.deepEqual(apns.requests.map((r) => r.path), ['/3/device/push-holder'], 'only the card\'s registered devices');
    assert.equal(passUpdatesRepo(app.db).find(webOnly.id), undefined, 'a pass no wallet holds needs no push');
    const changed = await app.request('GET', `/wallet/v1/devices/phone-1/registrations/${chain.passTypeId}?passesUpdatedSince=${tag}`);
    assert.deepEqual(changed.body.serialNumbers, [holder.id]);
    const latest = await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${holder.id}`, { Authorization: `ApplePass ${token}`, 'If-Modified-Since': modified });
    assert.equal(latest.status, 200, 'the device\'s copy is out of date');
    const { pass } = unzipPass(latest.bytes);
    assert.equal(pass.logoText, 'Passport');
    assert.equal(pass.description, 'Coffee passport loyalty card');
    assert.equal(pass.backgroundColor, 'rgb(10, 61, 98)');

    const web = await app.request('GET', `/pass/${holder.installCode}`);
    assert.match(web.text, /<h1 id="title">Coffee passport<\/h1>/);
    assert.match(web.text, /\.card\{--bg:rgb\(10, 61, 98\);\}/);
    assert.equal((await app.request('GET', `/pass/${holder.installCode}/balance`)).body.title, 'Coffee passport', 'an open web pass picks the name up on its refresh');
  });

  test('Google: the saved object is patched, and the card\'s classes get the new name, colour and logo address', async () => {
    const android = createCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, balance: 15000 });
    assert.equal((await getBytes(`${app.url}/get-pass/${android.cardId}?code=${android.installCode}`, { 'User-Agent': ANDROID_UA })).status, 302);
    await worker.idle();
    google.requests.length = 0;

    await editCard(org.cards.levels, { name: 'Club Plus', 'levels[1].name': 'Argent', 'design.backgroundColor': '#123456' });
    await worker.idle();

    const objects = google.objectRequests();
    assert.deepEqual(objects.map((r) => r.path), [`/walletobjects/v1/loyaltyObject/${ISSUER_ID}.${android.id}`]);
    assert.deepEqual(JSON.parse(objects[0]!.body).textModulesData[0], { id: 'level', header: 'Level', body: 'Argent' });
    const classes = google.classRequests();
    assert.deepEqual(classes.map((r) => [r.method, r.path]), [
      ['PATCH', `/walletobjects/v1/loyaltyClass/${ISSUER_ID}.${org.cards.levels}`],
      ['PATCH', `/walletobjects/v1/loyaltyClass/${ISSUER_ID}.${org.cards.levels}-test`],
    ]);
    const live = JSON.parse(classes[0]!.body);
    assert.deepEqual(Object.keys(live).sort(), ['hexBackgroundColor', 'issuerName', 'programLogo', 'programName']);
    assert.equal(live.programName, 'Club Plus');
    assert.equal(live.hexBackgroundColor, '#123456');
    assert.equal(live.issuerName, 'Test Café');
    assert.match(live.programLogo.sourceUri.uri, new RegExp(`^https://loyalty\\.example\\.com/wallet/cards/${org.cards.levels}/logo\\.png\\?v=[0-9a-f]{12}$`));
    assert.equal(JSON.parse(classes[1]!.body).programName, 'TEST · Club Plus');
    assert.equal(cardUpdatesRepo(app.db).findClass(org.cards.levels), undefined, 'sent: the row is gone');
  });

  test('a class Google answers 500 for is retried later; 404 (never saved) is done', async () => {
    google.setClassStatus(500);
    await editCard(org.cards.prepaid, { name: 'Gift card 2' });
    await worker.idle();
    const failed = cardUpdatesRepo(app.db).findClass(org.cards.prepaid)!;
    assert.equal(failed.attempts, 1);
    assert.equal(failed.lastError, 'Google class answered 500; Google class answered 500');
    google.setClassStatus(404);
    app.clock.advance(31_000);
    await worker.runDue();
    assert.equal(cardUpdatesRepo(app.db).findClass(org.cards.prepaid), undefined);
    google.setClassStatus(200);
  });

  test('a change no pass shows (a question, a limit) queues nothing', async () => {
    const holder = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    await registerDevice(holder, 'phone-3', 'push-3');
    await worker.idle();
    apns.requests.length = 0;
    await editCard(org.cards.points, { 'earningLimits.waitSeconds': '120', 'questions[0].label': 'Favourite bean', 'questions[0].key': 'bean', 'questions[0].type': 'text' });
    await worker.idle();
    assert.deepEqual(apns.requests, []);
    assert.equal(cardUpdatesRepo(app.db).nextFanout(), undefined);
  });
});

describe('a card of many customers is expanded outside the request, in batches', () => {
  test('the edit writes one row; the worker queues the wallet holders 500 customers a transaction, resuming where it stopped', () => {
    const card = createCard(app.deps, org.orgId, { name: 'Many', passType: 'stamp_card', dataCollectionEnabled: false, signupFields: { name: 'required', email: 'required', phone: 'optional' }, questions: [] });
    // Test and live customers, several to a millisecond: the fan-out's order is test before live,
    // then by creation, then by id (customers_card_fanout).
    const customers = Array.from({ length: 1200 }, (_, i) => {
      if (i % 7 === 0) app.clock.advance(1);
      return createCustomer(app, { orgId: org.orgId, cardId: card.id, name: null, livemode: i % 10 !== 0 });
    });
    const ids = [...customers].sort((a, b) => Number(a.livemode) - Number(b.livemode) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((c) => c.id);
    const holders = [ids[3]!, ids[499]!, ids[500]!, ids[700]!, ids[1199]!];
    app.db.transaction(() => holders.forEach((id) => walletRepo(app.db).recordGoogleLink({ customerId: id, objectId: `${ISSUER_ID}.${id}`, classId: 'x' }, app.clock.now())))();
    const queuedRows = () => app.db.prepare('SELECT count(*) AS n FROM wallet_pass_updates').get() as { n: number };
    const rowsBefore = queuedRows().n;
    const deps = { ...app.deps, afterCommit: noAfterCommit };

    updateCard(deps, org.orgId, card.id, { name: 'Renamed for many', passType: 'stamp_card', dataCollectionEnabled: false, signupFields: card.signupFields, questions: [] });
    assert.equal(queuedRows().n, rowsBefore, 'the request itself queues no pass');
    assert.deepEqual(cardUpdatesRepo(app.db).nextFanout(), { cardId: card.id, after: FANOUT_START });

    assert.equal(expandCardChange(deps, 500), true);
    assert.equal(cardUpdatesRepo(app.db).nextFanout()?.after.customerId, ids[499], 'how far it got is committed with the batch');
    assert.ok(passUpdatesRepo(app.db).find(holders[0]!));
    assert.ok(passUpdatesRepo(app.db).find(holders[1]!), 'the batch\'s last customer');
    assert.equal(passUpdatesRepo(app.db).find(holders[2]!), undefined, 'the next batch\'s first');
    assert.equal(passUpdatesRepo(app.db).find(holders[3]!), undefined);

    // The card changes again mid-way: the expansion starts over, so every pass gets the newest card.
    updateCard(deps, org.orgId, card.id, { name: 'Renamed again', passType: 'stamp_card', dataCollectionEnabled: false, signupFields: card.signupFields, questions: [] });
    assert.deepEqual(cardUpdatesRepo(app.db).nextFanout(), { cardId: card.id, after: FANOUT_START });
    while (expandCardChange(deps, 500));
    assert.equal(cardUpdatesRepo(app.db).nextFanout(), undefined);
    for (const id of holders) assert.ok(passUpdatesRepo(app.db).find(id), `${id} queued`);
    assert.equal(queuedRows().n - rowsBefore, holders.length, 'only the customers a wallet holds');
    app.db.prepare('DELETE FROM wallet_pass_updates WHERE customer_id IN (SELECT id FROM customers WHERE card_id = ?)').run(card.id);
    app.db.prepare('DELETE FROM wallet_class_updates WHERE card_id = ?').run(card.id);
  });
});

describe('the card logo', () => {
  const logoUrl = (cardId: string) => `${app.url}/wallet/cards/${cardId}/logo.png`;

  test('a PNG upload is stored, shown in the editor, drawn into the .pkpass, served at the logo URLs and sent to the passes', async () => {
    const holder = createCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid });
    const token = await registerDevice(holder, 'phone-logo', 'push-logo');
    const before = (await getBytes(logoUrl(org.cards.prepaid))).bytes;
    await worker.idle();
    apns.requests.length = 0;
    google.requests.length = 0;

    const res = await uploadLogo(app, client, org.cards.prepaid, { bytes: pngImage(300, 300, [10, 200, 90]) });
    assert.equal(res.status, 303, errorSummary(res.text));
    assert.equal(res.location, `/console/cards/${org.cards.prepaid}?done=logo#logo`);
    await worker.idle();
    assert.deepEqual(apns.requests.map((r) => r.path), ['/3/device/push-logo']);
    assert.match(JSON.parse(google.classRequests()[0]!.body).programLogo.sourceUri.uri, /logo\.png\?v=[0-9a-f]{12}$/);

    const editor = (await client.request('GET', `/console/cards/${org.cards.prepaid}?done=logo`)).text;
    assert.match(editor, /Logo uploaded/);
    assert.match(editor, /<img src="\/wallet\/cards\/card_[A-Za-z0-9]+\/pass-logo\.png\?v=[0-9a-f]{12}" alt="The card(?:'|&#39;)s logo">/);

    const { files } = unzipPass((await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${holder.id}`, { Authorization: `ApplePass ${token}` })).bytes);
    const size = (name: string) => {
      const png = PNG.sync.read(files.get(name)!);
      return [png.width, png.height];
    };
    assert.deepEqual([size('logo.png'), size('logo@2x.png'), size('logo@3x.png')], [[50, 50], [100, 100], [150, 150]], 'within the 160 × 50 pt logo box');
    assert.deepEqual([size('icon.png'), size('icon@2x.png'), size('icon@3x.png')], [[29, 29], [58, 58], [87, 87]], 'a square logo makes the icon');
    const logo = PNG.sync.read(files.get('logo@3x.png')!);
    assert.deepEqual([...logo.data.subarray(0, 4)], [10, 200, 90, 255], 'the uploaded pixels');

    const served = await getBytes(logoUrl(org.cards.prepaid));
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.notDeepEqual(served.bytes, before, 'the class logo is now the upload');
    const square = PNG.sync.read(served.bytes);
    assert.equal(square.width, square.height);
    const middle = (Math.floor(square.height / 2) * square.width + Math.floor(square.width / 2)) * 4;
    assert.deepEqual([...square.data.subarray(middle, middle + 3)], [10, 200, 90]);
    const web = await app.request('GET', `/pass/${holder.installCode}`);
    const src = /<img src="([^"]+pass-logo\.png\?v=[0-9a-f]{12})"/.exec(web.text)?.[1];
    assert.ok(src, 'the web pass shows the logo');
    assert.equal((await getBytes(`${app.url}${src}`)).headers.get('content-type'), 'image/png');
  });

  test('a wide logo fits the logo box and leaves the drawn icon; a JPEG is converted to PNG; removing it goes back to the drawn mark', async () => {
    const holder = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
    const token = await registerDevice(holder, 'phone-wide', 'push-wide');
    assert.equal((await uploadLogo(app, client, org.cards.points, { bytes: pngImage(960, 200) })).status, 303);
    let files = unzipPass((await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${holder.id}`, { Authorization: `ApplePass ${token}` })).bytes).files;
    assert.deepEqual([PNG.sync.read(files.get('logo@3x.png')!).width, PNG.sync.read(files.get('logo@3x.png')!).height], [480, 100]);
    const drawnIcon = files.get('icon.png')!;

    assert.equal((await uploadLogo(app, client, org.cards.points, { bytes: jpegImage(120, 90), name: 'logo.jpg', type: 'image/jpeg' })).status, 303);
    const stored = cardsRepo(app.db).logoOf(org.cards.points)!;
    assert.deepEqual([stored.width, stored.height, stored.png.subarray(1, 4).toString('latin1')], [120, 90, 'PNG']);

    const removed = await client.request('POST', `/console/cards/${org.cards.points}/logo/remove`, { form: { _csrf: await client.csrfFrom(`/console/cards/${org.cards.points}`) } });
    assert.equal(removed.status, 303);
    assert.equal(cardsRepo(app.db).logoOf(org.cards.points), undefined);
    files = unzipPass((await getBytes(`${app.url}/wallet/v1/passes/${chain.passTypeId}/${holder.id}`, { Authorization: `ApplePass ${token}` })).bytes).files;
    assert.ok(files.get('icon.png')!.equals(drawnIcon), 'the drawn icon again');
    assert.equal((await getBytes(`${app.url}/wallet/cards/${org.cards.points}/pass-logo.png`)).status, 404);
  });

  const refusals: { name: string; file: () => { bytes: Buffer; name?: string; type?: string }; status: number; message: RegExp }[] = [
    { name: 'a text file', file: () => ({ bytes: Buffer.from('hello, I am not a picture'), name: 'notes.txt', type: 'text/plain' }), status: 400, message: /^The file is not a PNG or JPEG image$/ },
    { name: 'a PNG cut short', file: () => ({ bytes: pngImage(64, 64).subarray(0, 60) }), status: 400, message: /cannot be read/ },
    { name: 'a file over 1 MB', file: () => ({ bytes: Buffer.concat([pngImage(64, 64), Buffer.alloc(1024 * 1024)]) }), status: 413, message: /^The logo file must be 1 MB or smaller$/ },
    { name: 'a tiny image', file: () => ({ bytes: pngImage(20, 20) }), status: 400, message: /must be at least 32 pixels wide and high/ },
    { name: 'a line, not a logo', file: () => ({ bytes: pngImage(1000, 40) }), status: 400, message: /at most 8 times wider than high/ },
    { name: 'no file chosen', file: () => ({ bytes: Buffer.alloc(0), name: '' }), status: 400, message: /^Choose a PNG or JPEG file to upload$/ },
  ];
  for (const r of refusals) {
    test(`refused: ${r.name}, with a message at the file field, nothing stored`, async () => {
      const before = cardsRepo(app.db).logoOf(org.cards.stamps);
      const res = await uploadLogo(app, client, org.cards.stamps, r.file());
      assert.equal(res.status, r.status);
      assert.match(errorOf(res.text, 'logo') ?? '', r.message);
      assert.deepEqual(cardsRepo(app.db).logoOf(org.cards.stamps), before);
    });
  }

  test('an upload needs the CSRF token in its address, and a page of our own origin', async () => {
    const res = await uploadLogo(app, client, org.cards.stamps, { bytes: pngImage(64, 64) }, { csrf: null });
    assert.equal(res.status, 403);
    assert.match(res.text, /This form has expired or was sent from another site/);
    const wrong = await uploadLogo(app, client, org.cards.stamps, { bytes: pngImage(64, 64) }, { csrf: 'not-the-token' });
    assert.equal(wrong.status, 403);
    assert.equal(cardsRepo(app.db).logoOf(org.cards.stamps), undefined);
  });

  test('another org\'s card cannot be given a logo', async () => {
    const other = await seedConsoleOrg(app, 'Other Café');
    const res = await uploadLogo(app, client, other.cards.stamps, { bytes: pngImage(64, 64) }, { csrf: await client.csrfFrom(`/console/cards/${org.cards.stamps}`) });
    assert.equal(res.status, 403);
    assert.equal(cardsRepo(app.db).logoOf(other.cards.stamps), undefined);
  });
});
