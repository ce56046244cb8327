import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, seedStandardOrg, type StandardOrg, type TestApp } from '../support/app';
import {
  ANDROID_UA, appleEnv, createCustomer, DESKTOP_UA, expectedManifest, getBytes, googleEnv, IPHONE_UA, ISSUER_ID,
  opensslVerify, unzipPass, withoutNonce, writeTamperedManifest, changeBalance,
} from '../support/wallet-app';
import { createAppleTestChain, createServiceAccount, startFakeGoogle, verifyRs256Jwt, type AppleTestChain, type FakeGoogle, type ServiceAccountFixture } from '../support/wallet-fixtures';
import type { Customer } from '../../src/customers/model';

let chain: AppleTestChain;
let google: FakeGoogle;
let account: ServiceAccountFixture;
let app: TestApp;
let bare: TestApp;
let org: StandardOrg;
let stamp: Customer;
let levelTest: Customer;
let designCardId: string;

before(async () => {
  chain = createAppleTestChain();
  google = await startFakeGoogle();
  account = createServiceAccount(google.tokenUri);
  app = await startTestApp({ env: { ...appleEnv(chain), ...googleEnv(google, account), PUBLIC_URL: 'https://loyalty.example.com' } });
  bare = await startTestApp();
  org = seedStandardOrg(app);
  const [designed] = app.seed({
    orgs: [{ name: 'Bistro <b>&</b>', cards: [{ name: 'Soup <script>alert(1)</script>', passType: 'stamp_card', reward: { name: 'Free soup', cost: 8 },
      design: { backgroundColor: '#00aa77', foregroundColor: 'rgb(250, 250, 250)', labelColor: '#ffeedd', logoText: 'Bistro' } }] }],
  }).orgs;
  designCardId = designed!.cards[0]!.cardId;
  stamp = createCustomer(app, { orgId: designed!.orgId, cardId: designCardId, balance: 300, name: '<img src=x onerror=alert(1)>' });
  levelTest = createCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, livemode: false, balance: 12000 });
});
after(async () => {
  await app.close();
  await bare.close();
  await google.close();
  chain.cleanup();
});

const installPath = (c: Customer, code: string | null = c.installCode) => `/get-pass/${c.cardId}${code === null ? '' : `?code=${encodeURIComponent(code)}`}`;
const page = (t: TestApp, path: string, ua = DESKTOP_UA) => t.request('GET', path, { headers: { 'User-Agent': ua } });

describe('install page without a valid code', () => {
  test('an unknown card is a 404 page', async () => {
    const res = await page(app, '/get-pass/card_doesNotExist?code=whatever');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(res.text, /Card not found/);
  });

  test('no code: the card public page, naming the card only', async () => {
    const res = await page(app, installPath(stamp, null), IPHONE_UA);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(res.text, /Soup &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(res.text, /ask at the counter/);
    assert.doesNotMatch(res.text, /<script>alert/);
  });

  test('a wrong code, a truncated code and another card\'s code look exactly like no code', async () => {
    const none = withoutNonce((await page(app, installPath(stamp, null), IPHONE_UA)).text);
    const otherCards = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    for (const code of ['x'.repeat(24), stamp.installCode.slice(0, 20), stamp.installCode + 'x', otherCards.installCode, '']) {
      for (const ua of [IPHONE_UA, ANDROID_UA, DESKTOP_UA]) {
        const res = await page(app, installPath(stamp, code), ua);
        assert.equal(res.status, 200, code);
        assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
        assert.equal(withoutNonce(res.text), none, `code "${code}" with ${ua.slice(13, 30)}`);
      }
    }
    for (const secret of [stamp.scanCode, stamp.id, otherCards.scanCode, 'onerror']) assert.ok(!none.includes(secret));
  });
});

describe('install page with a valid code', () => {
  test('iPhone Safari receives the signed .pkpass of this customer', async () => {
    const res = await getBytes(app.url + installPath(stamp), { 'User-Agent': IPHONE_UA });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.apple.pkpass');
    assert.match(res.headers.get('content-disposition')!, /attachment; filename="Soup-script-alert-1-script\.pkpass"/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const unzipped = unzipPass(res.bytes);
    assert.deepEqual(JSON.parse(unzipped.files.get('manifest.json')!.toString('utf8')), expectedManifest(unzipped.files));
    const verified = opensslVerify(unzipped.dir, chain.rootCertPath);
    assert.equal(verified.status, 0, verified.stderr);
    const tampered = opensslVerify(unzipped.dir, chain.rootCertPath, writeTamperedManifest(unzipped));
    assert.notEqual(tampered.status, 0);

    const { pass } = unzipped;
    assert.equal(pass.passTypeIdentifier, chain.passTypeId);
    assert.equal(pass.teamIdentifier, chain.teamId);
    assert.equal(pass.serialNumber, stamp.id);
    assert.equal(pass.webServiceURL, 'https://loyalty.example.com/wallet');
    assert.match(pass.authenticationToken, /^[A-Za-z0-9]{32}$/);
    assert.equal(pass.organizationName, 'Bistro <b>&</b>');
    assert.equal(pass.logoText, 'Bistro');
    assert.equal(pass.backgroundColor, 'rgb(0, 170, 119)');
    assert.equal(pass.foregroundColor, 'rgb(250, 250, 250)');
    assert.equal(pass.labelColor, 'rgb(255, 238, 221)');
    assert.deepEqual(pass.barcodes, [{ format: 'PKBarcodeFormatQR', message: stamp.scanCode, messageEncoding: 'iso-8859-1', altText: stamp.scanCode }]);
    assert.deepEqual(pass.storeCard.primaryFields, [{ key: 'balance', label: 'Stamps', value: 3, changeMessage: 'You now have %@ stamps.' }]);
    assert.deepEqual(pass.storeCard.secondaryFields, [{ key: 'reward', label: 'Free soup', value: '3 of 8', changeMessage: 'Free soup: %@' }]);
    assert.deepEqual(pass.storeCard.backFields, [{ key: 'holder', label: 'Member', value: '<img src=x onerror=alert(1)>' }]);
  });

  test('a reward name with % is escaped in changeMessage, which Wallet reads as a format string', async () => {
    const [shop] = app.seed({ orgs: [{ name: 'Shop', cards: [{ name: 'Deals', passType: 'point_card', reward: { name: '10% off', cost: 50 } }] }] }).orgs;
    const customer = createCustomer(app, { orgId: shop!.orgId, cardId: shop!.cards[0]!.cardId, balance: 1000 });
    const { pass } = unzipPass((await getBytes(app.url + installPath(customer), { 'User-Agent': IPHONE_UA })).bytes);
    // "10% off: %@" would make "% o" a conversion that consumes the new value; %% is a literal %.
    assert.deepEqual(pass.storeCard.secondaryFields, [{ key: 'reward', label: '10% off', value: '10 of 50', changeMessage: '10%% off: %@' }]);
  });

  test('the same customer gets the same token and serial on every download', async () => {
    const first = unzipPass((await getBytes(app.url + installPath(stamp), { 'User-Agent': IPHONE_UA })).bytes).pass;
    const second = unzipPass((await getBytes(app.url + `${installPath(stamp)}&wallet=apple`)).bytes).pass;
    assert.equal(second.authenticationToken, first.authenticationToken);
    assert.equal(second.serialNumber, first.serialNumber);
  });

  test('a test-mode level customer: TEST · name, points with level and next level', async () => {
    const res = await getBytes(app.url + installPath(levelTest), { 'User-Agent': IPHONE_UA });
    const { pass } = unzipPass(res.bytes);
    assert.equal(pass.logoText, 'TEST · Club');
    assert.equal(pass.description, 'TEST · Club loyalty card');
    assert.deepEqual(pass.storeCard.primaryFields, [{ key: 'balance', label: 'Points', value: 120, changeMessage: 'You now have %@ points.' }]);
    assert.deepEqual(pass.storeCard.secondaryFields, [
      { key: 'level', label: 'Level', value: 'Silver', changeMessage: 'Your level is now %@.' },
      { key: 'nextLevel', label: 'Next: Gold', value: '380 to go' },
    ]);
    assert.equal(pass.backgroundColor, 'rgb(34, 40, 49)', 'default colours without a design');
  });

  test('Android is redirected to a Google save link signed by the service account', async () => {
    const res = await getBytes(app.url + installPath(levelTest), { 'User-Agent': ANDROID_UA });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const location = res.headers.get('location')!;
    assert.ok(location.startsWith('https://pay.google.com/gp/v/save/'), location);
    const { claims } = verifyRs256Jwt(location.slice('https://pay.google.com/gp/v/save/'.length), account.publicKey);
    assert.equal(claims.iss, account.json.client_email);
    assert.equal(claims.aud, 'google');
    assert.equal(claims.typ, 'savetowallet');
    assert.deepEqual(claims.origins, ['https://loyalty.example.com']);
    const payload = claims.payload as any;
    const [klass] = payload.loyaltyClasses;
    const [object] = payload.loyaltyObjects;
    assert.equal(klass.id, `${ISSUER_ID}.${org.cards.levels}-test`);
    assert.equal(klass.programName, 'TEST · Club');
    assert.deepEqual(klass.callbackOptions, { url: 'https://loyalty.example.com/wallet/google/callback' });
    // Versioned: Google keeps the image it fetched, so a new logo needs a new address.
    assert.match(klass.programLogo.sourceUri.uri, new RegExp(`^https://loyalty\\.example\\.com/wallet/cards/${org.cards.levels}/logo\\.png\\?v=[0-9a-f]{12}$`));
    assert.equal(object.id, `${ISSUER_ID}.${levelTest.id}`);
    assert.equal(object.classId, klass.id);
    assert.deepEqual(object.loyaltyPoints, { label: 'Points', balance: { int: 120 } });
    assert.deepEqual(object.barcode, { type: 'QR_CODE', value: levelTest.scanCode, alternateText: levelTest.scanCode });
    assert.deepEqual(object.textModulesData, [{ id: 'level', header: 'Level', body: 'Silver' }, { id: 'nextLevel', header: 'Next: Gold', body: '380 to go' }]);
  });

  test('user agents: iPad, iPod and Chrome or Firefox on iPhone get the pass; iPadOS desktop mode and Windows get the choice', async () => {
    const cases: Array<[string, 'pkpass' | 'google' | 'choice']> = [
      ['Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'pkpass'],
      ['Mozilla/5.0 (iPod touch; CPU iPhone OS 15_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1', 'pkpass'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1', 'pkpass'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15', 'pkpass'],
      ['Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'google'],
      ['Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0', 'google'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 'choice'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'choice'],
      ['', 'choice'],
    ];
    for (const [ua, expected] of cases) {
      const res = await getBytes(app.url + installPath(stamp), { 'User-Agent': ua });
      const got = res.status === 302 ? 'google' : res.headers.get('content-type') === 'application/vnd.apple.pkpass' ? 'pkpass' : 'choice';
      assert.equal(got, expected, ua || '(no User-Agent)');
    }
  });

  test('the class logo Google fetches is a PNG', async () => {
    const res = await getBytes(`${app.url}/wallet/cards/${org.cards.levels}/logo.png`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.ok(res.bytes.subarray(1, 4).equals(Buffer.from('PNG')));
    assert.equal((await getBytes(`${app.url}/wallet/cards/card_nope/logo.png`)).status, 404);
  });

  test('other browsers get a page offering both wallets and the web pass', async () => {
    const res = await page(app, installPath(stamp));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    // The address holds the install code: no other site may see it, while the page's own form
    // ("Email me my card") still carries its real Origin (no-referrer would send `Origin: null`).
    assert.equal(res.headers.get('referrer-policy'), 'same-origin');
    assert.match(res.text, /<meta name="referrer" content="same-origin">/);
    assert.match(res.headers.get('content-security-policy')!, /default-src 'none'/);
    const code = encodeURIComponent(stamp.installCode);
    assert.ok(res.text.includes(`href="/get-pass/${designCardId}?code=${code}&amp;wallet=apple"`));
    assert.ok(res.text.includes(`href="/get-pass/${designCardId}?code=${code}&amp;wallet=google"`));
    assert.ok(res.text.includes(`href="/pass/${code}"`));
    assert.doesNotMatch(res.text, /must configure/);
    assert.doesNotMatch(res.text, /<script>alert/);
    const google = await getBytes(`${app.url}${installPath(stamp)}&wallet=google`);
    assert.equal(google.status, 302);
  });
});

describe('install page when no wallet is configured', () => {
  test('every browser gets the web pass and a note for the customer, never the operator\'s settings', async () => {
    const bareOrg = seedStandardOrg(bare);
    const customer = createCustomer(bare, { orgId: bareOrg.orgId, cardId: bareOrg.cards.points, balance: 4200 });
    for (const ua of [IPHONE_UA, ANDROID_UA, DESKTOP_UA]) {
      const res = await page(bare, `${installPath(customer)}&wallet=apple`, ua);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      assert.match(res.text, /<p class="note">[^<]*Wallet[^<]*browser/);
      // The operator's hint is in the start-up log (wallet-settings.test.ts), not on a customer's page.
      assert.doesNotMatch(res.text, /APPLE_|GOOGLE_|README|operator|configure/);
      assert.ok(res.text.includes(`href="/pass/${encodeURIComponent(customer.installCode)}"`));
      assert.doesNotMatch(res.text, /Add to (Apple|Google) Wallet/);
    }
    // The Apple web service does not exist on this server.
    const reg = await bare.request('POST', `/wallet/v1/devices/d1/registrations/pass.x/${customer.id}`, { body: { pushToken: 't' } });
    assert.equal(reg.status, 404);
  });
});

describe('web pass', () => {
  test('shows the card, the live balance and the scan code as an SVG QR code, all escaped', async () => {
    const res = await page(app, `/pass/${encodeURIComponent(stamp.installCode)}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.text, /<div class="balance" id="balance">3<\/div>/);
    assert.match(res.text, /Soup &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(res.text, /Bistro &lt;b&gt;&amp;&lt;\/b&gt;/);
    assert.match(res.text, /<svg role="img" aria-label="QR code to scan at the counter" xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"[^>]*><path/);
    assert.ok(res.text.includes(`<div class="code">${stamp.scanCode}</div>`));
    assert.match(res.text, /--bg:rgb\(0, 170, 119\)/);
    assert.doesNotMatch(res.text, /<script>alert|<img src=x/);
    // The only script is ours, allowed by its nonce.
    const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers.get('content-security-policy')!)![1]!;
    assert.equal([...res.text.matchAll(/<script/g)].length, 1);
    assert.ok(res.text.includes(`<script nonce="${nonce}">`));
  });

  test('the balance endpoint follows balance changes; a wrong code is 404 with nothing in it', async () => {
    const path = `/pass/${encodeURIComponent(stamp.installCode)}/balance`;
    assert.deepEqual((await app.request('GET', path)).body.balance, { label: 'Stamps', text: '3' });
    app.clock.advance(1000);
    changeBalance(app, stamp.id, 900);
    const res = await app.request('GET', path);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(res.body, {
      title: 'Soup <script>alert(1)</script>',
      organizationName: 'Bistro <b>&</b>',
      stamps: { have: 8, of: 8 },
      colors: { background: 'rgb(0, 170, 119)', foreground: 'rgb(250, 250, 250)', label: 'rgb(255, 238, 221)' },
      logoUrl: null,
      logoText: 'Bistro',
      balance: { label: 'Stamps', text: '9' },
      details: [{ key: 'reward', label: 'Free soup', value: 'Ready to redeem' }],
      updatedAt: new Date(app.clock.now()).toISOString(),
    });
    const wrong = await app.request('GET', `/pass/${'y'.repeat(24)}/balance`);
    assert.equal(wrong.status, 404);
    assert.equal((await page(app, `/pass/${'y'.repeat(24)}`)).status, 404);
  });

  test('prepaid credit keeps its cents, as money of the card’s currency', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, balance: 1250 });
    const res = await app.request('GET', `/pass/${encodeURIComponent(customer.installCode)}/balance`);
    assert.deepEqual(res.body.balance, { label: 'Credit', text: '€12.50' });
    const { pass } = unzipPass((await getBytes(app.url + installPath(customer), { 'User-Agent': IPHONE_UA })).bytes);
    assert.deepEqual(pass.storeCard.primaryFields, [{ key: 'balance', label: 'Credit', value: '€12.50', changeMessage: 'Your credit is now %@.' }]);
  });
});
