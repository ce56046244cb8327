// The next reward on every pass (Apple, Google, the web pass) of a card with several rewards: "18
// points to Free coffee", beside the default reward's line and the expiry reminder's, within the
// Apple storeCard's four front fields (any further line goes on its back). When the next reward is
// the default one, its own line says how far it is: a card of one reward keeps its pass as it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { appleFields } from '../../src/wallet/apple/customer-pass';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { api, runSweepJob, setTimeZone } from '../support/programme';
import { ANDROID_UA, appleEnv, getBytes, googleEnv, IPHONE_UA, unzipPass } from '../support/wallet-app';
import { createAppleTestChain, createServiceAccount, startFakeGoogle, verifyRs256Jwt, type AppleTestChain, type FakeGoogle, type ServiceAccountFixture } from '../support/wallet-fixtures';

let chain: AppleTestChain;
let google: FakeGoogle;
let account: ServiceAccountFixture;
let app: TestApp;
let org: StandardOrg;
let live: ReturnType<typeof api>;
let nina: { passUserId: string; installUrl: string };

const NEXT = { key: 'nextReward', label: 'Next reward', value: '18 points to Free coffee' };
const EXPIRING = { key: 'expiring', label: 'Expiring', value: '12 points expire on 10 Feb' };

before(async () => {
  chain = createAppleTestChain();
  google = await startFakeGoogle();
  account = createServiceAccount(google.tokenUri);
  app = await startTestApp({ env: { ...appleEnv(chain), ...googleEnv(google, account), PUBLIC_URL: 'https://loyalty.example.com' } });
  org = seedStandardOrg(app);
  live = api(app, org.keys.live);
  setTimeZone(app, org.orgId, 'Europe/Berlin');
  app.clock.set(Date.parse('2026-01-10T10:00:00Z'));
  const voucher = ((await live.call('GET', '/cards', undefined, 200)).body as { cardId: string; rewards: { id: string }[] }[]).find((c) => c.cardId === org.cards.points)!.rewards[0]!.id;
  await live.patchCard(org.cards.points, {
    rewards: [{ id: voucher, name: 'Voucher', cost: 100 }, { name: 'Free coffee', cost: 30 }, { name: 'Lunch', cost: 250 }],
    expiry: { months: 1 },
  });
  nina = await live.enroll(org.cards.points, 'crm-nina', { name: 'Nina Next' });
  await live.earn('crm-nina', 'points', 12);
  // 14 days before the points run out (10 February): the reminder puts the line on the pass.
  app.clock.set(Date.parse('2026-01-27T12:00:00Z'));
  await runSweepJob(app);
});
after(async () => {
  await app.close();
  await google.close();
  chain.cleanup();
});

const local = (installUrl: string) => { const u = new URL(installUrl); return app.url + u.pathname + u.search; };
const codeOf = (installUrl: string) => new URL(installUrl).searchParams.get('code')!;
const webDetails = async (installUrl: string) => (await app.request('GET', `/pass/${codeOf(installUrl)}/balance`)).body.details as { key: string; label: string; value: string }[];

describe('the next reward on the pass', () => {
  test('Apple: pass.json has the reward, the next reward and the expiry on the front (three of its four fields)', async () => {
    const res = await getBytes(local(nina.installUrl), { 'User-Agent': IPHONE_UA });
    assert.equal(res.status, 200);
    const { pass } = unzipPass(res.bytes);
    assert.deepEqual(pass.storeCard.secondaryFields, [{ key: 'reward', label: 'Voucher', value: '12 of 100', changeMessage: 'Voucher: %@' }, NEXT]);
    assert.deepEqual(pass.storeCard.auxiliaryFields, [{ ...EXPIRING, changeMessage: '%@' }]);
    assert.deepEqual(pass.storeCard.backFields, [{ key: 'holder', label: 'Member', value: 'Nina Next' }]);
  });

  test('Google: the save link’s object carries it as a text module', async () => {
    const res = await getBytes(local(nina.installUrl), { 'User-Agent': ANDROID_UA });
    assert.equal(res.status, 302);
    const jwt = res.headers.get('location')!.slice('https://pay.google.com/gp/v/save/'.length);
    const object = (verifyRs256Jwt(jwt, account.publicKey).claims.payload as { loyaltyObjects: { textModulesData: unknown[] }[] }).loyaltyObjects[0]!;
    assert.deepEqual(object.textModulesData, [{ id: 'reward', header: 'Voucher', body: '12 of 100' }, { id: 'nextReward', header: 'Next reward', body: NEXT.value }, { id: 'expiring', header: 'Expiring', body: EXPIRING.value }]);
  });

  test('the web pass shows it, and its refresh follows the balance: the cheapest reward not yet paid, unless the reward line says it', async () => {
    const page = await app.request('GET', `/pass/${codeOf(nina.installUrl)}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<div class="label">Next reward<\/div><div data-key="nextReward">18 points to Free coffee<\/div>/);
    assert.match(page.text, /<div data-key="expiring">12 points expire on 10 Feb<\/div>/);
    for (const [earn, reward, next] of [
      [17, '29 of 100', '1 point to Free coffee'],
      // The next is the default reward: its own line says how far it is.
      [1, '30 of 100', undefined],
      [70, 'Ready to redeem', '150 points to Lunch'],
      [150, 'Ready to redeem', undefined],
    ] as const) {
      await live.earn('crm-nina', 'points', earn);
      const details = await webDetails(nina.installUrl);
      assert.deepEqual([details.find((d) => d.key === 'reward')?.value, details.find((d) => d.key === 'nextReward')?.value], [reward, next], `after +${earn}`);
    }
  });

  test('a card of one reward keeps its pass as it was: its reward line already says how far it is', async () => {
    const one = await live.enroll(org.cards.stamps, 'crm-one', { name: 'Olli One' });
    await live.earn('crm-one', 'stamps', 3);
    assert.deepEqual(await webDetails(one.installUrl), [{ key: 'reward', label: 'Free coffee', value: '3 of 10' }]);
    const { pass } = unzipPass((await getBytes(local(one.installUrl), { 'User-Agent': IPHONE_UA })).bytes);
    assert.deepEqual(pass.storeCard.secondaryFields, [{ key: 'reward', label: 'Free coffee', value: '3 of 10', changeMessage: 'Free coffee: %@' }]);
  });
});

describe('the Apple storeCard’s field budget', () => {
  test('four lines on the front, in the content’s order; any further ones on the back, before the member’s name', () => {
    const line = (n: number) => ({ key: `k${n}`, label: `L${n}`, value: `v${n}` });
    assert.deepEqual(appleFields({ details: [line(1), line(2), line(3)], holderName: null, lang: 'en' }), { fields: [line(1), line(2), line(3)], backFields: [] });
    assert.deepEqual(appleFields({ details: [1, 2, 3, 4, 5, 6].map(line), holderName: 'Ana', lang: 'en' }), {
      fields: [1, 2, 3, 4].map(line),
      backFields: [line(5), line(6), { key: 'holder', label: 'Member', value: 'Ana' }],
    });
  });
});
