import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { enrollCustomer } from '../../src/loyalty/enroll';
import { setCustomerLanguage } from '../../src/customers/language';
import { customersRepo } from '../../src/customers/repo';
import type { Customer } from '../../src/customers/model';
import { updateOrgProfile } from '../../src/orgs/service';
import { readOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { ANDROID_UA, appleEnv, createCustomer, getBytes, googleEnv, IPHONE_UA, unzipPass } from '../support/wallet-app';
import { createAppleTestChain, createServiceAccount, startFakeGoogle, verifyRs256Jwt, type AppleTestChain, type FakeGoogle, type ServiceAccountFixture } from '../support/wallet-fixtures';

// The pass speaks the customer's language: the language stored with them (from the sign-up page),
// else the shop's. Labels, values and lock-screen notices of the Apple pass and the Google object
// come from the catalogues; numbers are written as the language writes them.

let chain: AppleTestChain;
let google: FakeGoogle;
let account: ServiceAccountFixture;
let app: TestApp;
let orgId: string;
let cards: { stamps: string; levels: string; credit: string };

before(async () => {
  chain = createAppleTestChain();
  google = await startFakeGoogle();
  account = createServiceAccount(google.tokenUri);
  app = await startTestApp({ env: { ...appleEnv(chain), ...googleEnv(google, account), PUBLIC_URL: 'https://loyalty.example.com' } });
  const [org] = app.seed({
    orgs: [{
      name: 'Café Hafen',
      settings: { timeZone: 'Europe/Berlin' },
      cards: [
        { ref: 'stamps', name: 'Kaffee', passType: 'stamp_card', reward: { name: 'Gratis Kaffee', cost: 10 } },
        { ref: 'levels', name: 'Club', passType: 'level_card', levels: [{ name: 'Bronze', minPoints: 0 }, { name: 'Gold', minPoints: 2000 }] },
        { ref: 'credit', name: 'Gutschein', passType: 'prepaid_card' },
      ],
    }],
  }).orgs;
  orgId = org!.orgId;
  const id = (ref: string) => org!.cards.find((c) => c.ref === ref)!.cardId;
  cards = { stamps: id('stamps'), levels: id('levels'), credit: id('credit') };
});
after(async () => {
  await app?.close();
  await google?.close();
  chain?.cleanup();
});

const installPath = (c: Customer) => `/get-pass/${c.cardId}?code=${encodeURIComponent(c.installCode)}`;
const applePass = async (c: Customer) => unzipPass((await getBytes(app.url + installPath(c), { 'User-Agent': IPHONE_UA })).bytes).pass;
async function googleObject(c: Customer) {
  const res = await getBytes(app.url + installPath(c), { 'User-Agent': ANDROID_UA });
  assert.equal(res.status, 302);
  const jwt = res.headers.get('location')!.slice('https://pay.google.com/gp/v/save/'.length);
  return (verifyRs256Jwt(jwt, account.publicKey).claims.payload as any).loyaltyObjects[0];
}
const withLanguage = (c: Customer, lang: 'de' | 'fr' | 'en') => setCustomerLanguage(app.deps, c, lang);

describe('the pass in the customer’s language', () => {
  test('language de: the .pkpass labels, values, notices and description are German', async () => {
    const customer = withLanguage(createCustomer(app, { orgId, cardId: cards.stamps, balance: 300, name: 'Jonas' }), 'de');
    const pass = await applePass(customer);
    assert.equal(pass.description, 'Treuekarte Kaffee');
    assert.deepEqual(pass.storeCard.primaryFields, [{ key: 'balance', label: 'Stempel', value: 3, changeMessage: 'Sie haben jetzt %@ Stempel.' }]);
    assert.deepEqual(pass.storeCard.secondaryFields, [{ key: 'reward', label: 'Gratis Kaffee', value: '3 von 10', changeMessage: 'Gratis Kaffee: %@' }]);
    assert.deepEqual(pass.storeCard.backFields, [{ key: 'holder', label: 'Karteninhaber', value: 'Jonas' }]);
  });

  test('language de on a level card: level, next level and numbers as German writes them', async () => {
    const customer = withLanguage(createCustomer(app, { orgId, cardId: cards.levels, balance: 50_000 }), 'de');
    const pass = await applePass(customer);
    assert.deepEqual(pass.storeCard.primaryFields, [{ key: 'balance', label: 'Punkte', value: 500, changeMessage: 'Sie haben jetzt %@ Punkte.' }]);
    assert.deepEqual(pass.storeCard.secondaryFields, [
      { key: 'level', label: 'Stufe', value: 'Bronze', changeMessage: 'Ihre Stufe ist jetzt %@.' },
      { key: 'nextLevel', label: 'Nächste Stufe: Gold', value: 'noch 1.500' },
    ]);
  });

  test('language fr: the Google object’s labels and text modules are French', async () => {
    const customer = withLanguage(createCustomer(app, { orgId, cardId: cards.levels, balance: 50_000, name: null }), 'fr');
    const object = await googleObject(customer);
    assert.deepEqual(object.loyaltyPoints, { label: 'Points', balance: { int: 500 } });
    assert.deepEqual(object.textModulesData, [
      { id: 'level', header: 'Niveau', body: 'Bronze' },
      { id: 'nextLevel', header: 'Prochain niveau\u00a0: Gold', body: 'encore 1\u202f500' },
    ]);
    assert.equal(object.accountName, 'Titulaire', 'no name: the word for the holder, in French');
    const stamps = await googleObject(withLanguage(createCustomer(app, { orgId, cardId: cards.stamps, balance: 1000 }), 'fr'));
    assert.deepEqual(stamps.loyaltyPoints, { label: 'Tampons', balance: { int: 10 } });
    assert.deepEqual(stamps.textModulesData, [{ id: 'reward', header: 'Gratis Kaffee', body: 'Disponible dès maintenant' }]);
  });

  test('no language stored: the shop’s language; its currency formats store credit; a customer’s own choice wins', async () => {
    const customer = createCustomer(app, { orgId, cardId: cards.credit, balance: 1250 });
    assert.deepEqual((await applePass(customer)).storeCard.primaryFields[0], { key: 'balance', label: 'Credit', value: '12.50', changeMessage: 'Your credit is now %@.' });

    const before = customersRepo(app.db).findByPassUserId(customer.id)!.passVersion;
    app.clock.advance(60_000);
    updateOrgProfile(app.deps, orgId, { name: 'Café Hafen', brandColor: null, timeZone: 'Europe/Berlin', language: 'de', currency: 'EUR' });
    assert.deepEqual([readOrgSettings(app.db, orgId).language, readOrgSettings(app.db, orgId).currency], ['de', 'EUR']);
    const queued = app.db.prepare('SELECT card_id FROM wallet_card_fanouts WHERE queued_at = ? ORDER BY card_id').pluck().all(app.clock.now());
    assert.deepEqual(queued, Object.values(cards).sort(), 'every card’s installed passes are brought up to date');
    assert.deepEqual((await applePass(customer)).storeCard.primaryFields[0], { key: 'balance', label: 'Guthaben', value: '12,50\u00a0€', changeMessage: 'Ihr Guthaben beträgt jetzt %@.' });
    assert.equal(customersRepo(app.db).findByPassUserId(customer.id)!.passVersion, before, 'the customer row itself did not change');

    const english = withLanguage(customer, 'en');
    assert.equal(english.passVersion, before + 1, 'a new language is a new pass version');
    assert.deepEqual((await applePass(english)).storeCard.primaryFields[0], { key: 'balance', label: 'Credit', value: '€12.50', changeMessage: 'Your credit is now %@.' });
    assert.equal(withLanguage(english, 'en').passVersion, before + 1, 'the same language again writes nothing');
    updateOrgProfile(app.deps, orgId, { name: 'Café Hafen', brandColor: null, timeZone: 'Europe/Berlin', language: 'en', currency: null });
  });

  test('enrolling from a page in French stores French; a matched customer keeps their language', () => {
    const n = { orgId, livemode: true };
    const created = enrollCustomer(app.deps, n, { cardId: cards.stamps, email: 'lea@example.fr', language: 'fr' }, { channel: 'signup', idempotencyKey: null });
    assert.equal(customersRepo(app.db).findByPassUserId(created.passUserId)!.language, 'fr');
    const matched = enrollCustomer(app.deps, n, { cardId: cards.stamps, email: 'lea@example.fr', language: 'de' }, { channel: 'signup', idempotencyKey: null });
    assert.equal(matched.result, 'matched');
    assert.equal(customersRepo(app.db).findByPassUserId(created.passUserId)!.language, 'fr');
    const api = enrollCustomer(app.deps, n, { cardId: cards.stamps, email: 'sam@example.org' }, { channel: 'api', idempotencyKey: null });
    assert.equal(customersRepo(app.db).findByPassUserId(api.passUserId)!.language, null, 'no page, no language: the shop’s');
  });
});
