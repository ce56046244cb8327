import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cardsRepo } from '../../src/cards/repo';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import type { TestApp } from '../support/app';
import { createCustomer } from '../support/wallet-app';
import { errorOf, groupErrorOf, valueOf } from './cards-support';

// The card editor over HTTP, as a browser without JavaScript posts it: what it saves is what the
// API shows and uses; what it refuses comes back with the API's messages at the right inputs.

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let csrf: string;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app);
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, ADMIN_PASSWORD);
  csrf = await client.csrfFrom('/console/cards/new');
});
after(() => app.close());

const post = (path: string, form: Record<string, string>) => client.request('POST', path, { form: { _csrf: csrf, ...form } });
const apiCard = async (cardId: string) => (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body.find((c: { cardId: string }) => c.cardId === cardId);
const signup = { 'signupFields.name': 'required', 'signupFields.email': 'optional', 'signupFields.phone': 'off' };

/** Creates a card through the form; returns its id. */
async function create(form: Record<string, string>): Promise<string> {
  const res = await post('/console/cards/new', { ...signup, ...form });
  assert.equal(res.status, 303, res.text.slice(0, 2000));
  const match = /^\/console\/cards\/(card_[A-Za-z0-9]+)\?done=created$/.exec(res.headers.get('location') ?? '');
  assert.ok(match, `redirect to the new card, got ${res.headers.get('location')}`);
  return match[1]!;
}

describe('a card made in the console works through the API', () => {
  test('a stamp card: the API shows every value; enroll, earn by items and redeem the reward', async () => {
    const cardId = await create({
      name: 'Espresso club', passType: 'stamp_card', 'rewards[0].name': 'Free espresso', 'rewards[0].cost': '8',
      'accrual.items[0].key': 'espresso', 'accrual.items[0].units': '1', 'accrual.items[1].key': 'cake', 'accrual.items[1].units': '2',
      'earningLimits.waitSeconds': '60', 'earningLimits.maxPerAward': '4', 'earningLimits.period': 'day', 'earningLimits.maxPerPeriod': '10',
      dataCollectionEnabled: 'on',
      'questions[0].label': 'Member number', 'questions[0].key': 'memberNo', 'questions[0].type': 'number', 'questions[0].required': 'on', 'questions[0].isIdentifier': 'on',
      'questions[1].label': 'Milk', 'questions[1].key': 'milk', 'questions[1].type': 'select',
      'questions[1].options[0].label': 'Oat', 'questions[1].options[0].value': 'oat', 'questions[1].options[1].label': 'Cow', 'questions[1].options[1].value': 'cow',
      'design.backgroundColor': '#102030', 'design.foregroundColor': 'rgb(250, 250, 250)', 'design.logoText': 'Espresso',
    });
    const shown = await apiCard(cardId);
    assert.match(shown.rewards[0].id, /^rw_/);
    assert.deepEqual(shown, {
      cardId,
      name: 'Espresso club',
      passType: 'stamp_card',
      archived: false,
      dataCollectionEnabled: true,
      signupFields: { name: 'required', email: 'optional', phone: 'off' },
      questions: [
        { key: 'memberNo', label: 'Member number', type: 'number', required: true, isIdentifier: true },
        { key: 'milk', label: 'Milk', type: 'select', required: false, isIdentifier: false, options: [{ value: 'oat', label: 'Oat' }, { value: 'cow', label: 'Cow' }] },
      ],
      reward: { name: 'Free espresso', cost: 8 },
      rewards: [{ id: shown.rewards[0].id, name: 'Free espresso', cost: 8 }],
      levels: null,
      accrual: { items: { espresso: 1, cake: 2 } },
      earningLimits: { waitSeconds: 60, maxPerAward: 4, period: 'day', maxPerPeriod: 10 },
      flagAwardsPerDay: 6,
      unitValue: null,
      expiry: null,
      birthday: null,
    });
    assert.deepEqual(cardsRepo(app.db).findById(cardId)!.design, { backgroundColor: '#102030', foregroundColor: 'rgb(250, 250, 250)', logoText: 'Espresso' });

    const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId, externalCustomerId: 'pos-espresso', initialPoints: 5, customFields: { memberNo: 77 } } });
    assert.equal(enrolled.status, 201, enrolled.text);
    const earned = await app.request('POST', '/api/v1/customers/pos-espresso/earn', { key: org.keys.live, body: { type: 'stamps', from: 'items', items: [{ key: 'espresso', quantity: 1 }, { key: 'cake', quantity: 1 }] } });
    assert.equal(earned.status, 201, earned.text);
    assert.deepEqual(earned.body.balance, { stamps: 8 });
    const redeemed = await app.request('POST', '/api/v1/customers/pos-espresso/redeem', { key: org.keys.live, body: { type: 'reward' } });
    assert.equal(redeemed.status, 201, redeemed.text);
    assert.deepEqual(redeemed.body.balance, { stamps: 0 });
  });

  test('a point card earning by spend, a level card with its levels, a prepaid card in cents', async () => {
    const points = await create({ name: 'Beans', passType: 'point_card', 'rewards[0].name': 'Bag of beans', 'rewards[0].cost': '100', 'accrual.spend.currency': 'eur', 'accrual.spend.rate': '2' });
    assert.deepEqual((await apiCard(points)).accrual, { spend: { currency: 'EUR', rate: 2 } });
    await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId: points, externalCustomerId: 'pos-beans' } });
    const spent = await app.request('POST', '/api/v1/customers/pos-beans/earn', { key: org.keys.live, body: { type: 'points', from: 'spend', spend: { amount: 12.5, currency: 'EUR' } } });
    assert.equal(spent.status, 201, spent.text);
    assert.deepEqual(spent.body.balance, { points: 25 });

    const levels = await create({ name: 'Friends', passType: 'level_card', 'levels[0].name': 'Bronze', 'levels[0].minPoints': '0', 'levels[1].name': 'Silver', 'levels[1].minPoints': '100', 'levels[2].name': '', 'levels[2].minPoints': '' });
    assert.deepEqual((await apiCard(levels)).levels, [{ name: 'Bronze', minPoints: 0 }, { name: 'Silver', minPoints: 100 }], 'the blank row is left out');
    await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId: levels, externalCustomerId: 'pos-friends' } });
    const lifted = await app.request('POST', '/api/v1/customers/pos-friends/earn', { key: org.keys.live, body: { type: 'points', amount: 150 } });
    assert.deepEqual(lifted.body.balance, { points: 150, level: 'Silver' }, lifted.text);

    const prepaid = await create({ name: 'Gift', passType: 'prepaid_card', 'earningLimits.maxPerAward': '250.50' });
    assert.deepEqual((await apiCard(prepaid)).earningLimits, { maxPerAward: 250.5 });
    await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId: prepaid, externalCustomerId: 'pos-gift' } });
    const topUp = await app.request('POST', '/api/v1/customers/pos-gift/earn', { key: org.keys.live, body: { type: 'points', amount: 20.25 } });
    assert.deepEqual(topUp.body.balance, { points: 20.25 }, topUp.text);
  });

  test('an edit is what the API shows next; the editor shows the stored values back', async () => {
    const cardId = await create({ name: 'Tea', passType: 'stamp_card', 'rewards[0].name': 'Tea', 'rewards[0].cost': '5' });
    const res = await post(`/console/cards/${cardId}`, { ...signup, name: 'Tea time', passType: 'stamp_card', 'rewards[0].name': 'Pot of tea', 'rewards[0].cost': '6', 'design.labelColor': '#abc' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/console/cards/${cardId}?done=saved`);
    assert.deepEqual((await apiCard(cardId)).reward, { name: 'Pot of tea', cost: 6 });
    const page = (await client.request('GET', `/console/cards/${cardId}?done=saved`)).text;
    assert.equal(valueOf(page, 'name'), 'Tea time');
    assert.equal(valueOf(page, 'rewards[0].cost'), '6');
    assert.equal(valueOf(page, 'design.labelColor'), '#abc');
    assert.match(page, /Saved\. Passes already in customers&#39; wallets are being updated\./);
  });
});

describe('a refused form comes back with the field\'s message, as typed, and nothing is written', () => {
  const base = { ...signup, name: 'Stamps', passType: 'stamp_card' };
  const cases: { name: string; form: Record<string, string>; field: string; message: string | RegExp; group?: boolean; kept?: [string, string] }[] = [
    { name: 'letters in a number', form: { 'rewards[0].name': 'Coffee', 'rewards[0].cost': 'ten' }, field: 'rewards[0].cost', message: 'Must be a number', kept: ['rewards[0].cost', 'ten'] },
    { name: 'a decimal on a stamp card', form: { 'rewards[0].name': 'Coffee', 'rewards[0].cost': '2.5' }, field: 'rewards[0].cost', message: 'Must be a whole number' },
    { name: 'a reward without its cost', form: { 'rewards[0].name': 'Coffee' }, field: 'rewards[0].cost', message: 'Required' },
    {
      name: 'levels not ascending',
      form: { passType: 'level_card', 'levels[0].name': 'Gold', 'levels[0].minPoints': '0', 'levels[1].name': 'Silver', 'levels[1].minPoints': '50', 'levels[2].name': 'Bronze', 'levels[2].minPoints': '20' },
      field: 'levels', group: true, message: 'MinPoints must ascend', kept: ['levels[2].minPoints', '20'],
    },
    {
      name: 'a level row after a blank one keeps its own number',
      form: { passType: 'level_card', 'levels[0].name': 'Base', 'levels[0].minPoints': '0', 'levels[1].name': '', 'levels[1].minPoints': '', 'levels[2].name': 'Top', 'levels[2].minPoints': '-5' },
      field: 'levels[2].minPoints', message: /^Invalid value: Expected >=0/,
    },
    {
      name: 'two questions with the same key',
      form: { 'questions[0].label': 'A', 'questions[0].key': 'memberNo', 'questions[0].type': 'text', 'questions[1].label': 'B', 'questions[1].key': 'MemberNo', 'questions[1].type': 'text' },
      field: 'questions', group: true, message: 'Question keys must be unique (case-insensitively)', kept: ['questions[1].key', 'MemberNo'],
    },
    { name: 'a select question without options', form: { 'questions[0].label': 'Size', 'questions[0].key': 'size', 'questions[0].type': 'select' }, field: 'questions[0].options', group: true, message: 'A select question needs options; other types take none' },
    { name: 'a reserved question key', form: { 'questions[0].label': 'Mail', 'questions[0].key': 'email', 'questions[0].type': 'text' }, field: 'questions[0].key', message: 'Must not be one of name, email, phone, status, custom' },
    {
      name: 'an identifier that is not required',
      form: { 'questions[0].label': 'No', 'questions[0].key': 'memberNo', 'questions[0].type': 'number', 'questions[0].isIdentifier': 'on' },
      field: 'questions[0].isIdentifier', message: 'An identifier question must be required and of type number, text, email or phone',
    },
    { name: 'a colour out of range', form: { 'design.backgroundColor': 'rgb(300, 0, 0)' }, field: 'design.backgroundColor', message: 'Must be #rgb, #rrggbb or rgb(r, g, b) with r, g and b from 0 to 255', kept: ['design.backgroundColor', 'rgb(300, 0, 0)'] },
    { name: 'maxPerPeriod without period', form: { 'earningLimits.maxPerPeriod': '5' }, field: 'earningLimits.maxPerPeriod', message: 'Period and maxPerPeriod go together' },
    { name: 'a currency that is not ISO 4217', form: { 'accrual.spend.currency': 'EURO', 'accrual.spend.rate': '1' }, field: 'accrual.spend.currency', message: 'Must be an ISO 4217 code such as EUR' },
    { name: 'the same item twice', form: { 'accrual.items[0].key': 'latte', 'accrual.items[0].units': '1', 'accrual.items[1].key': 'latte', 'accrual.items[1].units': '2' }, field: 'accrual.items[1].key', message: /listed twice/ },
    { name: 'an item code with a space', form: { 'accrual.items[0].key': 'flat white', 'accrual.items[0].units': '1' }, field: 'accrual.items[0].key', message: 'Item keys hold letters, digits, _ . - (at most 64)' },
    { name: 'no name', form: { name: '  ' }, field: 'name', message: 'Required' },
    { name: 'an unknown type', form: { passType: 'coupon' }, field: 'passType', message: /^Invalid type: Expected \("stamp_card"/ },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      const before = cardsRepo(app.db).listForOrg(org.orgId).length;
      const res = await post('/console/cards/new', { ...base, ...c.form });
      assert.equal(res.status, 400);
      const message = c.group ? groupErrorOf(res.text, c.field) : errorOf(res.text, c.field);
      if (typeof c.message === 'string') assert.equal(message, c.message, res.text.includes('class="error"') ? undefined : 'no message at all');
      else assert.match(message ?? '', c.message);
      assert.match(res.text, /Nothing was saved/);
      if (c.kept) assert.equal(valueOf(res.text, c.kept[0]), c.kept[1]);
      assert.equal(cardsRepo(app.db).listForOrg(org.orgId).length, before, 'no card written');
    });
  }

  test('an edit refused leaves the stored card as it was', async () => {
    const stored = cardsRepo(app.db).findById(org.cards.points)!;
    const res = await post(`/console/cards/${org.cards.points}`, { ...signup, name: 'Renamed', passType: 'point_card', 'rewards[0].name': 'Voucher', 'rewards[0].cost': 'lots' });
    assert.equal(res.status, 400);
    assert.equal(valueOf(res.text, 'name'), 'Renamed');
    assert.deepEqual(cardsRepo(app.db).findById(org.cards.points), stored);
  });
});

describe('what is not the editor\'s form', () => {
  test('a JSON body is refused with 415 (a page), nothing written', async () => {
    const stored = cardsRepo(app.db).findById(org.cards.stamps)!;
    const res = await client.request('POST', `/console/cards/${org.cards.stamps}`, { headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf } });
    assert.equal(res.status, 415);
    assert.match(res.text, /This page takes its form as a web form \(application\/x-www-form-urlencoded\)/);
    assert.deepEqual(cardsRepo(app.db).findById(org.cards.stamps), stored);
  });

  test('rows past 50 are not read', async () => {
    const res = await post('/console/cards/new', { ...signup, name: 'Many rows', passType: 'level_card', 'levels[0].name': 'A', 'levels[0].minPoints': '0', 'levels[99].name': 'Far', 'levels[99].minPoints': '5', _action: 'preview' });
    assert.equal(res.status, 200);
    assert.equal(valueOf(res.text, 'levels[49].name'), '');
    assert.equal(valueOf(res.text, 'levels[50].name'), undefined);
  });
});

describe('rows are added and removed by submit buttons, everything typed kept', () => {
  test('add a level, add a question choice, remove a row: nothing is saved', async () => {
    const typed = { ...signup, name: 'Unsaved name', passType: 'level_card', 'levels[0].name': 'Bronze', 'levels[0].minPoints': '0', 'questions[0].label': 'Size', 'questions[0].key': 'size', 'questions[0].type': 'text' };
    const added = await post('/console/cards/new', { ...typed, _action: 'add:levels' });
    assert.equal(added.status, 200);
    assert.equal(valueOf(added.text, 'name'), 'Unsaved name');
    assert.equal(valueOf(added.text, 'levels[0].name'), 'Bronze');
    assert.equal(valueOf(added.text, 'levels[1].name'), '', 'one more, empty level');
    assert.equal(valueOf(added.text, 'levels[2].name'), undefined);

    const choice = await post('/console/cards/new', { ...typed, _action: 'add-option:0' });
    assert.equal(valueOf(choice.text, 'questions[0].options[0].label'), '');
    assert.match(choice.text, /<option value="select" selected>/, 'a question given choices becomes a choice question');

    const removed = await post('/console/cards/new', { ...typed, 'levels[1].name': 'Silver', 'levels[1].minPoints': '10', _action: 'remove:levels:0' });
    assert.equal(valueOf(removed.text, 'levels[0].name'), 'Silver');
    assert.equal(valueOf(removed.text, 'levels[1].name'), undefined);
    assert.equal(cardsRepo(app.db).listForOrg(org.orgId).filter((c) => c.name === 'Unsaved name').length, 0);
  });
});

describe('a card with customers keeps its type', () => {
  test('changing the type of a card with customers is refused at the type field; without customers it is allowed', async () => {
    const used = await create({ name: 'Used', passType: 'stamp_card' });
    createCustomer(app, { orgId: org.orgId, cardId: used, livemode: false });
    const page = (await client.request('GET', `/console/cards/${used}`)).text;
    assert.match(page, /<select id="f-passType" disabled/, 'the type cannot be picked');
    assert.match(page, /This card has 1 customer \(live and test\), so its type stays stamp card/);

    const refused = await post(`/console/cards/${used}`, { ...signup, name: 'Used', passType: 'point_card' });
    assert.equal(refused.status, 409);
    assert.equal(errorOf(refused.text, 'passType'), 'This card has 1 customer (live and test data together), whose balances count stamps, so it stays a stamp card. Create a new card for another type');
    assert.equal(cardsRepo(app.db).findById(used)!.passType, 'stamp_card');

    const fresh = await create({ name: 'Fresh', passType: 'stamp_card' });
    const changed = await post(`/console/cards/${fresh}`, { ...signup, name: 'Fresh', passType: 'point_card' });
    assert.equal(changed.status, 303);
    assert.equal((await apiCard(fresh)).passType, 'point_card');
  });
});

describe('the pass preview', () => {
  test('draws the typed values in its own page, framed by the console only, a bad colour left out', async () => {
    const res = await client.request('GET', `/console/cards/preview?name=Bean+Club&passType=point_card&rewards%5B0%5D.name=Bag&rewards%5B0%5D.cost=100&design.backgroundColor=%23336699&design.foregroundColor=rgb(300,0,0)&card=${org.cards.stamps}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
    assert.match(res.text, /<h1 id="title">Bean Club<\/h1>/);
    assert.match(res.text, /\.card\{--bg:rgb\(51, 102, 153\);\}/);
    assert.doesNotMatch(res.text, /--fg:/, 'the colour out of range is left out');
    assert.match(res.text, /60 of 100/);
    const signedOut = await fetch(`${app.url}/console/cards/preview?name=X`, { redirect: 'manual' });
    assert.equal(signedOut.status, 303, 'behind the sign-in like every console page');
  });
});

describe('the cards list counts people', () => {
  test('a customer whose personal data was deleted is no longer counted; the card still keeps its type and cannot be deleted', async () => {
    const cardId = await create({ name: 'Counted', passType: 'stamp_card' });
    const enroll = async (id: string, key = org.keys.live) => {
      const res = await app.request('POST', '/api/v1/customers', { key, body: { externalCustomerId: id, cardId } });
      assert.equal(res.status, 201, res.text);
    };
    await enroll('counted-1');
    await enroll('counted-2');
    await enroll('counted-3', org.keys.test);
    const countsOnList = async () => {
      const list = (await client.request('GET', '/console/cards')).text;
      const row = new RegExp(`<a href="/console/cards/${cardId}">Counted</a>[\\s\\S]*?<span class="count">([^<]+)</span> <span class="muted small block">([^<]+)</span>`).exec(list);
      assert.ok(row, 'the card has its row');
      return [row[1], row[2]];
    };
    assert.deepEqual(await countsOnList(), ['2 live', '1 test']);

    assert.equal((await app.request('DELETE', '/api/v1/customers/counted-1', { key: org.keys.live })).status, 200);
    assert.deepEqual(await countsOnList(), ['1 live', '1 test'], 'the erased customer is not counted');
    assert.equal((await app.request('DELETE', '/api/v1/customers/counted-2', { key: org.keys.live })).status, 200);
    assert.deepEqual(await countsOnList(), ['0 live', '1 test']);

    // Their ledger rows stay for the books: the type stays, and the card is archived, not deleted.
    const editor = (await client.request('GET', `/console/cards/${cardId}`)).text;
    assert.match(editor, /<select id="f-passType" disabled/);
    assert.match(editor, /It cannot be deleted: its history keeps 2 customers whose personal data was deleted/);
    assert.doesNotMatch(editor, /can be deleted\./);
    assert.equal((await post(`/console/cards/${cardId}/delete`, {})).status, 409);
    assert.ok(cardsRepo(app.db).findById(cardId));
  });
});
