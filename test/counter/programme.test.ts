// The card's programme at the counter, over HTTP: every reward with the affordable ones enabled
// and a one-tap redemption by rewardId; the promotions running now and what an award gives with
// them before the tap (the earn's own figure); the large award asked about with its promotions; the
// sandbox's test clock for test customers; and the units that expire next.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { CounterClient, messageOf } from './client';
import { apiCustomer, ledgerRows, seedCounterOrg, staffId, STAFF, type CounterOrg } from './support';

let app: TestApp;
let org: CounterOrg;
let sam: CounterClient;
const ids: Record<string, string> = {};

/** Tuesday 3 March 2026, 15:10 in Berlin: Double Tuesday (14:00–17:00) runs. */
const TUESDAY_1510 = Date.parse('2026-03-03T14:10:00Z');

before(async () => {
  app = await startTestApp();
  app.clock.set(TUESDAY_1510);
  org = await seedCounterOrg(app, 'Programme Café');
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin', counter: { lockAfterMinutes: 240, staffDailyAwardCap: null, customerDailyAwardCap: null } }))();
  const cards = (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body as { cardId: string; rewards: { id: string }[] }[];
  const coffee = cards.find((c) => c.cardId === org.cards.stamps)!.rewards[0]!.id;
  const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, {
    key: org.keys.live,
    body: { rewards: [{ id: coffee, name: 'Free coffee', cost: 10 }, { name: 'Cake', cost: 6, description: 'Any slice' }, { name: 'Lunch', cost: 15 }] },
  });
  assert.equal(patched.status, 200, patched.text);
  for (const r of patched.body.rewards as { id: string; name: string }[]) ids[r.name] = r.id;
  await promotion(org.cards.stamps, { name: 'Double Tuesday', kind: 'multiplier', value: 2, startsAt: '2026-03-01', endsAt: '2026-03-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } });
  await promotion(org.cards.points, { name: 'Happy hour', kind: 'multiplier', value: 1.5, startsAt: '2026-03-01', endsAt: '2026-03-03' });
  await promotion(org.cards.points, { name: 'Spring week', kind: 'bonus', value: 2, startsAt: '2026-03-02', endsAt: '2026-03-08' });
  sam = new CounterClient(app, org.orgId);
  await sam.unlock(STAFF[0]!.pin);
});
after(() => app?.close());

async function promotion(cardId: string, body: Record<string, unknown>): Promise<string> {
  const res = await app.request('POST', `/api/v1/cards/${cardId}/promotions`, { key: org.keys.live, body });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
}

interface RewardButton {
  name: string;
  enabled: boolean;
  note: string;
  rewardId: string;
}

/** The reward buttons of a customer screen: their names, whether they can be pressed, and the line under each. */
function rewardButtons(panel: string): RewardButton[] {
  const tiles = [...panel.matchAll(/<li class="cx-reward[^"]*">([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
  return tiles.map((tile) => {
    const button = /<button type="submit" class="big cx-redeem" aria-describedby="([^"]+)"([^>]*)>([^<]+)<\/button>/.exec(tile)!;
    const note = new RegExp(`<p class="small cx-reward-note" id="${button[1]}">([^<]*)</p>`).exec(tile)!;
    return { name: button[3]!, enabled: !/\bdisabled\b/.test(button[2]!), note: note[1]!, rewardId: /name="rewardId" value="([^"]+)"/.exec(tile)![1]! };
  });
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('counter: the customer’s rewards', () => {
  it('lists every reward with its cost: the affordable ones enabled, the others disabled with what is missing', async () => {
    for (const c of [
      { initial: 0, enabled: [], progress: '6 stamps more to Cake (6 stamps).' },
      { initial: 7, enabled: ['Cake'], progress: '3 stamps more to Free coffee (10 stamps).' },
      { initial: 14, enabled: ['Free coffee', 'Cake'], progress: '1 stamp more to Lunch (15 stamps).' },
      { initial: 15, enabled: ['Free coffee', 'Cake', 'Lunch'], progress: 'Every reward can be redeemed now.' },
    ]) {
      const customer = await apiCustomer(app, org, { initial: c.initial });
      const panel = (await sam.scan(customer.scanCode)).text;
      const buttons = rewardButtons(panel);
      assert.deepEqual(
        buttons.map((b) => b.name),
        ['Redeem Free coffee (10 stamps)', 'Redeem Cake (6 stamps)', 'Redeem Lunch (15 stamps)'],
        'every reward, in the card’s order',
      );
      assert.deepEqual(buttons.filter((b) => b.enabled).map((b) => b.name.replace(/^Redeem (.+) \(.*$/, '$1')), c.enabled, `${c.initial} stamps`);
      for (const [b, cost] of buttons.map((b, i) => [b, [10, 6, 15][i]!] as const)) {
        const expected = b.enabled ? (b.name.includes('Cake') ? 'Any slice' : 'Can be redeemed now') : `${cost - c.initial} stamp${cost - c.initial === 1 ? '' : 's'} missing${b.name.includes('Cake') ? ' · Any slice' : ''}`;
        assert.equal(b.note, expected, b.name);
      }
      assert.deepEqual(buttons.map((b) => b.rewardId), [ids['Free coffee'], ids.Cake, ids.Lunch]);
      assert.ok(text(panel).includes(c.progress), `${c.progress} in ${c.initial}`);
    }
  });

  it('redeems the chosen reward in one tap through the API’s redeem: rewardId on the ledger row, source scan, the staff member', async () => {
    const anna = await apiCustomer(app, org, { name: 'Anna Rewards', initial: 7 });
    const tap = await sam.act('redeem', { customer: anna.passUserId, what: 'reward', rewardId: ids.Cake! });
    assert.equal(tap.status, 200, tap.text);
    assert.match(tap.text, /✓ Cake redeemed<\/strong> · Anna Rewards now has 1 stamp\./);
    assert.deepEqual(rewardButtons(tap.text).filter((b) => b.enabled), [], 'nothing affordable any more');
    const row = ledgerRows(app, anna.passUserId).at(-1)!;
    assert.deepEqual([row.kind, row.change, row.source, row.staffId, JSON.parse(row.details!)], ['redeem', -600, 'scan', staffId(app, org.orgId, 'Sam'), { reward: { id: ids.Cake, name: 'Cake', cost: 600 } }]);
    const event = app.db.prepare("SELECT payload FROM events WHERE customer_id = ? AND type = 'reward.redeemed'").get(anna.passUserId) as { payload: string };
    assert.equal(JSON.parse(event.payload).data.rewardId, ids.Cake);

    // Undo gives the 6 stamps back, as for any entry.
    const undoable = /name="transaction" value="([^"]+)"/.exec(tap.text)![1]!;
    assert.match((await sam.act('undo', { customer: anna.passUserId, transaction: undoable })).text, /✓ Undone: \+6 stamps<\/strong> · Anna Rewards now has 7 stamps/);
  });

  it('refuses in the staff’s words: a reward the balance does not pay, and one the owner removed; without rewardId the default', async () => {
    const ben = await apiCustomer(app, org, { name: 'Ben Short', initial: 12 });
    for (const c of [
      { rewardId: ids.Lunch!, status: 400, message: 'Lunch costs 15 stamps and Ben Short has 12 stamps: 3 stamps missing.' },
      { rewardId: 'rw_gone', status: 400, message: 'This reward is no longer on the card: the owner changed the rewards. Open the customer again.' },
    ]) {
      const res = await sam.act('redeem', { customer: ben.passUserId, what: 'reward', rewardId: c.rewardId });
      assert.equal(res.status, c.status);
      assert.equal(messageOf(res).message, c.message);
    }
    assert.equal(ledgerRows(app, ben.passUserId).length, 1, 'nothing written');
    const byDefault = await sam.act('redeem', { customer: ben.passUserId, what: 'reward' });
    assert.match(byDefault.text, /✓ Free coffee redeemed<\/strong> · Ben Short now has 2 stamps\./);
  });

  it('a level card and store credit show no rewards', async () => {
    for (const card of ['levels', 'prepaid'] as const) {
      const customer = await apiCustomer(app, org, { card, initial: 50 });
      assert.deepEqual(rewardButtons((await sam.scan(customer.scanCode)).text), [], card);
    }
  });
});

describe('counter: promotions running now', () => {
  it('names the promotion running now and, under each quick button, what it adds; the tap gives exactly that', async () => {
    const cleo = await apiCustomer(app, org, { name: 'Cleo Promo' });
    const panel = (await sam.scan(cleo.scanCode)).text;
    assert.match(text(panel), /Promotion running now Double Tuesday · double stamps · until 17:00/);
    for (const n of [1, 2, 3]) {
      assert.match(panel, new RegExp(`<button type="submit" name="amount" value="${n}" class="[^"]+" aria-describedby="cx-gives-${n}">`));
      assert.match(panel, new RegExp(`<span class="cx-gives" id="cx-gives-${n}">\\+${n} more<span class="cx-gives-from"> from Double Tuesday</span></span>`));
    }
    const tap = await sam.act('earn', { customer: cleo.passUserId, what: 'flat', amount: '2' });
    assert.match(tap.text, /✓ \+4 stamps \(\+2 stamps from Double Tuesday\)<\/strong> · Cleo Promo now has 4 stamps\./);
    const row = ledgerRows(app, cleo.passUserId).at(-1)!;
    assert.equal(row.change, 400);
    assert.deepEqual(JSON.parse(row.details!).promotions.extra, 200);
    assert.match(tap.text, /<span class="cx-what">\+4 stamps \(\+2 stamps from Double Tuesday\)<\/span>/, 'the history names it too');
  });

  it('previews a typed award as the earn will record it: flat amounts, items, a sale, ×1.5 rounding down, two promotions at once', async () => {
    const stamps = await apiCustomer(app, org, { name: 'Dora Preview' });
    const points = await apiCustomer(app, org, { name: 'Emil Preview', card: 'points' });
    const cases: { customer: { passUserId: string }; form: Record<string, string>; preview: string; change: number }[] = [
      { customer: stamps, form: { what: 'flat', amount: '5' }, preview: '+5 stamps, +5 more from Double Tuesday', change: 1000 },
      { customer: stamps, form: { what: 'items', item: 'cake', quantity: '2' }, preview: '+4 stamps, +4 more from Double Tuesday', change: 800 },
      // Happy hour ×1.5 and Spring week +2: floor(3 × 1.5) − 3 + 2 = 3.
      { customer: points, form: { what: 'flat', amount: '3' }, preview: '+3 points, +3 more from Happy hour and Spring week', change: 600 },
      // 10.00 EUR at 1.5 a euro is 15 points: floor(22.5) − 15 + 2 = 9.
      { customer: points, form: { what: 'spend', amount: '10,00' }, preview: '+15 points, +9 more from Happy hour and Spring week', change: 2400 },
    ];
    for (const c of cases) {
      const query = new URLSearchParams({ customer: c.customer.passUserId, ...c.form }).toString();
      const preview = await sam.get(`/preview?${query}`);
      assert.equal(preview.status, 200);
      assert.equal(preview.text, c.preview, JSON.stringify(c.form));
      await sam.act('earn', { customer: c.customer.passUserId, ...c.form, confirmed: 'yes' });
      assert.equal(ledgerRows(app, c.customer.passUserId).at(-1)!.change, c.change, `the earn gives what the preview said: ${c.preview}`);
    }
    for (const amount of ['', '4,', 'abc', '0']) {
      const preview = await sam.get(`/preview?${new URLSearchParams({ customer: stamps.passUserId, what: 'flat', amount })}`);
      assert.equal(preview.text, 'Type an amount to see what the award gives.', `"${amount}"`);
    }
    const panel = (await sam.scan(points.scanCode)).text;
    assert.match(text(panel), /Promotions running now Happy hour · ×1\.5 points · last day today Spring week · \+2 points on every award · last day 8 Mar/);
    assert.match(panel, /<output class="cx-preview" for="cx-spend" data-preview aria-live="polite">Happy hour and Spring week run now: what an award gets shows here as you type\.<\/output>/);
    // The items form starts at one of its first item: its preview is drawn with it (a latte is 1 stamp).
    assert.match((await sam.scan(stamps.scanCode)).text, /<output class="cx-preview" for="cx-item cx-qty" data-preview aria-live="polite">\+1 stamp, \+1 more from Double Tuesday<\/output>/);
  });

  it('asks before an award that promotions make large, with what they add', async () => {
    const fritz = await apiCustomer(app, org, { name: 'Fritz Large' });
    const asked = await sam.act('earn', { customer: fritz.passUserId, what: 'flat', amount: '6' });
    assert.match(asked.text, /Add 12 stamps to Fritz Large\?/);
    assert.match(asked.text, /<p>\+6 stamps, \+6 more from Double Tuesday\.<\/p>/);
    assert.match(asked.text, /Yes, add 12 stamps/);
    assert.equal(ledgerRows(app, fritz.passUserId).length, 0, 'nothing written until confirmed');
    assert.match((await sam.act('earn', { customer: fritz.passUserId, what: 'flat', amount: '5' })).text, /✓ \+10 stamps/, '10 is not more than 10');
  });

  it('outside the promotion’s hours: no promotion, no preview, the plain award', async () => {
    const gina = await apiCustomer(app, org, { name: 'Gina Later' });
    app.clock.set(Date.parse('2026-03-03T16:00:00Z')); // 17:00 in Berlin: the window is over
    try {
      const panel = (await sam.scan(gina.scanCode)).text;
      assert.doesNotMatch(panel, /Double Tuesday|cx-gives|data-preview/);
      assert.equal((await sam.get(`/preview?${new URLSearchParams({ customer: gina.passUserId, what: 'flat', amount: '2' })}`)).text, '+2 stamps');
      assert.match((await sam.act('earn', { customer: gina.passUserId, what: 'flat', amount: '2' })).text, /✓ \+2 stamps<\/strong>/);
    } finally {
      app.clock.set(TUESDAY_1510);
    }
  });

  it('test customers run on the sandbox’s test clock, as their awards do', async () => {
    await promotion(org.cards.stamps, { name: 'Wednesday bonus', kind: 'bonus', value: 1, startsAt: '2026-03-01', endsAt: '2026-03-31', weekdays: [3] });
    const testSam = new CounterClient(app, org.orgId, 'test');
    await testSam.unlock(STAFF[0]!.pin);
    const tess = await apiCustomer(app, org, { name: 'Tess Test', test: true });
    const live = await apiCustomer(app, org, { name: 'Liv Live' });
    try {
      const advanced = await app.request('POST', '/api/v1/test_clock/advance', { key: org.keys.test, body: { to: '2026-03-04T14:10:00Z' } });
      assert.equal(advanced.status, 200, advanced.text);
      const testPanel = text((await testSam.scan(tess.scanCode)).text);
      assert.match(testPanel, /Promotion running now Wednesday bonus · \+1 stamp on every award · last day 31 Mar/);
      assert.doesNotMatch(testPanel, /Double Tuesday/);
      const livePanel = text((await sam.scan(live.scanCode)).text);
      assert.match(livePanel, /Double Tuesday/, 'live data keeps the real clock');
      assert.doesNotMatch(livePanel, /Wednesday bonus/);
      assert.match((await testSam.act('earn', { customer: tess.passUserId, what: 'flat', amount: '1' })).text, /✓ \+2 stamps \(\+1 stamp from Wednesday bonus\)/);
    } finally {
      app.db.prepare('DELETE FROM test_clocks').run();
    }
  });
});

describe('counter: what expires next', () => {
  it('shows the next units to expire in the shop’s days, and nothing on a card without expiry', async () => {
    const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.levels}`, { key: org.keys.live, body: { expiry: { months: 1 } } });
    assert.equal(patched.status, 200, patched.text);
    const hugo = await apiCustomer(app, org, { name: 'Hugo Expiring', card: 'levels' });
    const earned = await app.request('POST', `/api/v1/customers/pu_${hugo.passUserId}/earn`, { key: org.keys.live, body: { type: 'points', amount: 12 } });
    assert.equal(earned.status, 201, earned.text);
    assert.match((await sam.scan(hugo.scanCode)).text, /<p class="cx-expiring" id="cx-expiring">12 points expire on 3 Apr<\/p>/);
    const plain = await apiCustomer(app, org, { initial: 3 });
    assert.doesNotMatch((await sam.scan(plain.scanCode)).text, /cx-expiring/);
  });
});
