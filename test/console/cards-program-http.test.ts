import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cardsRepo } from '../../src/cards/repo';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import type { TestApp } from '../support/app';
import { errorOf, groupErrorOf, valueOf } from './cards-support';

// The card editor's program settings over HTTP, as a browser without JavaScript posts them: the
// reward list, expiry, the birthday treat, the watch-list threshold and the value of a unit. What
// is saved is what the API shows; what is refused comes back at its field, and nothing is written.

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

const signup = { 'signupFields.name': 'required', 'signupFields.email': 'optional', 'signupFields.phone': 'off' };
const post = (path: string, form: Record<string, string>) => client.request('POST', path, { form: { _csrf: csrf, ...signup, ...form } });
const apiCard = async (cardId: string) => (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body.find((c: { cardId: string }) => c.cardId === cardId);
const birthdayQuestion = { 'questions[0].label': 'Birthday', 'questions[0].type': 'date' };

async function create(form: Record<string, string>): Promise<string> {
  const res = await post('/console/cards/new', form);
  assert.equal(res.status, 303, [...res.text.matchAll(/class="error"[^>]*>([^<]*)</g)].map((m) => m[1]).join('; ') || res.text.slice(0, 500));
  return /card_[A-Za-z0-9]+/.exec(res.headers.get('location') ?? '')![0];
}

/** The hidden reward ids of the editor page, by row. */
const rewardIds = (page: string) => [...page.matchAll(/<input type="hidden" name="rewards\[(\d+)\]\.id" value="(rw_[A-Za-z0-9]+)">/g)].map((m) => m[2]);

describe('rewards', () => {
  test('saved from the cheapest up, the cheapest the default; ids kept across edits, a removed row is gone, a new row gets an id', async () => {
    const cardId = await create({
      name: 'Bakery points', passType: 'point_card',
      'rewards[0].name': 'Lunch', 'rewards[0].cost': '250', 'rewards[0].description': 'Soup and bread',
      'rewards[1].name': '', 'rewards[1].cost': '', 'rewards[1].description': '',
      'rewards[2].name': 'Coffee', 'rewards[2].cost': '100',
    });
    const shown = await apiCard(cardId);
    assert.deepEqual(shown.rewards.map((r: { name: string; cost: number; description?: string }) => [r.name, r.cost, r.description]), [['Coffee', 100, undefined], ['Lunch', 250, 'Soup and bread']], 'sorted by cost, the blank row left out');
    assert.deepEqual(shown.reward, { name: 'Coffee', cost: 100 }, 'the cheapest is the default');
    const [coffee, lunch] = shown.rewards.map((r: { id: string }) => r.id);

    const page = (await client.request('GET', `/console/cards/${cardId}`)).text;
    assert.deepEqual(rewardIds(page), [coffee, lunch], 'the editor lists them as saved, each with its id');
    assert.equal(valueOf(page, 'rewards[1].description'), 'Soup and bread');

    // Lunch renamed and made cheaper than coffee, a cake added, coffee removed.
    const edited = await post(`/console/cards/${cardId}`, {
      name: 'Bakery points', passType: 'point_card',
      'rewards[0].id': lunch, 'rewards[0].name': 'Big lunch', 'rewards[0].cost': '90',
      'rewards[1].name': 'Cake', 'rewards[1].cost': '60',
    });
    assert.equal(edited.status, 303, edited.text.slice(0, 300));
    const after = (await apiCard(cardId)).rewards;
    assert.deepEqual(after.map((r: { name: string }) => r.name), ['Cake', 'Big lunch']);
    assert.equal(after[1].id, lunch, 'the edited reward keeps its id (an integration\'s rewardId stays valid)');
    assert.match(after[0].id, /^rw_/);
    assert.ok(!after.some((r: { id: string }) => r.id === coffee), 'the removed reward is gone');
  });

  test('"Add a reward" and "Remove reward" re-render the form as typed, nothing saved; the card page links its promotions', async () => {
    const typed = { name: 'Not saved', passType: 'stamp_card', 'rewards[0].name': 'Tea', 'rewards[0].cost': '5' };
    const added = await post('/console/cards/new', { ...typed, _action: 'add:rewards' });
    assert.equal(added.status, 200);
    assert.equal(valueOf(added.text, 'rewards[0].name'), 'Tea');
    assert.equal(valueOf(added.text, 'rewards[1].name'), '', 'one more, empty row');
    assert.match(added.text, /id="f-rewards-1--name"[^>]*autofocus/, 'the new row\'s first field takes the focus');
    const removed = await post('/console/cards/new', { ...typed, 'rewards[1].name': 'Cake', 'rewards[1].cost': '8', _action: 'remove:rewards:0' });
    assert.equal(valueOf(removed.text, 'rewards[0].name'), 'Cake');
    assert.equal(valueOf(removed.text, 'rewards[1].name'), undefined);
    assert.equal(cardsRepo(app.db).listForOrg(org.orgId).filter((c) => c.name === 'Not saved').length, 0);

    const page = (await client.request('GET', `/console/cards/${org.cards.stamps}`)).text;
    assert.match(page, new RegExp(`<a href="/console/cards/${org.cards.stamps}/promotions">Promotions</a>`));
    assert.doesNotMatch((await client.request('GET', `/console/cards/${org.cards.prepaid}`)).text, /\/promotions">Promotions</, 'a prepaid card has none');
  });

  test('every reward row removed: the card has no rewards left', async () => {
    const cardId = await create({ name: 'Emptied', passType: 'point_card', 'rewards[0].name': 'Coffee', 'rewards[0].cost': '100', 'rewards[1].name': 'Cake', 'rewards[1].cost': '60' });
    assert.equal((await apiCard(cardId)).rewards.length, 2);
    const res = await post(`/console/cards/${cardId}`, { name: 'Emptied', passType: 'point_card', 'rewards[0].name': '', 'rewards[0].cost': '' });
    assert.equal(res.status, 303);
    assert.deepEqual([(await apiCard(cardId)).rewards, (await apiCard(cardId)).reward], [[], null]);
  });

  test('a reward removed elsewhere since the page was opened: said at its row, nothing written', async () => {
    const cardId = await create({ name: 'Stale', passType: 'stamp_card', 'rewards[0].name': 'Coffee', 'rewards[0].cost': '10', 'rewards[1].name': 'Cake', 'rewards[1].cost': '6' });
    const [cake, coffee] = (await apiCard(cardId)).rewards.map((r: { id: string }) => r.id);
    const patched = await app.request('PATCH', `/api/v1/cards/${cardId}`, { key: org.keys.live, body: { rewards: [{ id: coffee, name: 'Coffee', cost: 10 }] } });
    assert.equal(patched.status, 200, patched.text);
    const stored = cardsRepo(app.db).findById(cardId);
    const res = await post(`/console/cards/${cardId}`, { name: 'Stale', passType: 'stamp_card', 'rewards[0].id': coffee, 'rewards[0].name': 'Coffee', 'rewards[0].cost': '10', 'rewards[1].id': cake, 'rewards[1].name': 'Cake', 'rewards[1].cost': '6' });
    assert.equal(res.status, 400);
    assert.match(groupErrorOf(res.text, 'rewards[1].id') ?? '', /^This reward is no longer on the card/);
    assert.deepEqual(cardsRepo(app.db).findById(cardId), stored);
  });
});

describe('expiry, birthday treat, watch list and unit value are saved as the API shows them', () => {
  const cases: { name: string; form: Record<string, string>; shows: Record<string, unknown> }[] = [
    {
      name: 'points expire 12 months after each award, reminded 7 days before',
      form: { passType: 'point_card', 'expiry.rule': 'months', 'expiry.months': '12', 'expiry.inactiveDays': '99', 'expiry.remindDays': '7' },
      shows: { expiry: { months: 12, remindDays: 7 } },
    },
    {
      name: 'stamps expire after 180 days without an award; no reminder days typed: 14',
      form: { passType: 'stamp_card', 'expiry.rule': 'inactiveDays', 'expiry.inactiveDays': ' 180 ', 'expiry.remindDays': '' },
      shows: { expiry: { inactiveDays: 180, remindDays: 14 } },
    },
    { name: 'never expire', form: { passType: 'level_card', 'expiry.rule': '', 'expiry.months': '3' }, shows: { expiry: null } },
    {
      name: 'a birthday treat on a date question written in the same form (its key made from its words)',
      form: { passType: 'stamp_card', ...birthdayQuestion, 'birthday.questionKey': 'birthday', 'birthday.units': '2' },
      shows: { birthday: { questionKey: 'birthday', units: 2 } },
    },
    { name: 'no birthday treat', form: { passType: 'stamp_card', ...birthdayQuestion, 'birthday.questionKey': '', 'birthday.units': '2' }, shows: { birthday: null } },
    { name: 'a watch-list threshold and a unit value with a decimal comma', form: { passType: 'stamp_card', flagAwardsPerDay: '3', unitValue: '0,25' }, shows: { flagAwardsPerDay: 3, unitValue: 0.25 } },
    { name: 'left empty: the default threshold, no unit value', form: { passType: 'point_card', flagAwardsPerDay: '', unitValue: '' }, shows: { flagAwardsPerDay: 6, unitValue: null } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const cardId = await create({ name: c.name.slice(0, 40), ...c.form });
      const shown = await apiCard(cardId);
      for (const [key, value] of Object.entries(c.shows)) assert.deepEqual(shown[key], value, key);
    });
  }

  test('the editor shows the stored settings back; saving them unchanged changes nothing', async () => {
    const cardId = await create({ name: 'Round trip', passType: 'point_card', ...birthdayQuestion, 'expiry.rule': 'months', 'expiry.months': '6', 'expiry.remindDays': '0', 'birthday.questionKey': 'birthday', 'birthday.units': '5', flagAwardsPerDay: '4', unitValue: '0.0125' });
    const page = (await client.request('GET', `/console/cards/${cardId}`)).text;
    assert.match(page, /<option value="months" selected>/);
    assert.equal(valueOf(page, 'expiry.months'), '6');
    assert.equal(valueOf(page, 'expiry.remindDays'), '0');
    assert.match(page, /<option value="birthday" selected>Birthday<\/option>/);
    assert.equal(valueOf(page, 'birthday.units'), '5');
    assert.equal(valueOf(page, 'flagAwardsPerDay'), '4');
    assert.equal(valueOf(page, 'unitValue'), '0.0125');
    const stored = cardsRepo(app.db).findById(cardId)!;
    const res = await post(`/console/cards/${cardId}`, {
      name: 'Round trip', passType: 'point_card', 'questions[0].label': 'Birthday', 'questions[0].key': 'birthday', 'questions[0].type': 'date',
      'expiry.rule': 'months', 'expiry.months': '6', 'expiry.remindDays': '0', 'birthday.questionKey': 'birthday', 'birthday.units': '5', flagAwardsPerDay: '4', unitValue: '0.0125',
    });
    assert.equal(res.status, 303);
    const saved = cardsRepo(app.db).findById(cardId)!;
    assert.deepEqual({ ...saved, updatedAt: 0 }, { ...stored, updatedAt: 0 });
  });
});

describe('each refused setting comes back with its message at its field, as typed, and nothing is written', () => {
  const rewards = (...rows: [string, string][]) => Object.fromEntries(rows.flatMap(([name, cost], i) => [[`rewards[${i}].name`, name], [`rewards[${i}].cost`, cost]]));
  const cases: { name: string; form: Record<string, string>; field: string; message: string | RegExp; group?: boolean; kept?: [string, string] }[] = [
    { name: 'a reward cost in words, on the row as typed (after a dearer one)', form: rewards(['Lunch', '250'], ['Coffee', 'ten']), field: 'rewards[1].cost', message: 'Must be a number', kept: ['rewards[1].cost', 'ten'] },
    { name: 'a reward without its cost, after a blank row', form: { ...rewards(['', ''], ['Coffee', '']) }, field: 'rewards[1].cost', message: 'Required' },
    { name: 'a reward without its name', form: rewards(['', '10']), field: 'rewards[0].name', message: 'Required' },
    { name: 'a reward cost of 0', form: rewards(['Coffee', '0']), field: 'rewards[0].cost', message: 'Must be at least 1' },
    { name: 'a reward description over 300 characters', form: { ...rewards(['Coffee', '10']), 'rewards[0].description': 'x'.repeat(301) }, field: 'rewards[0].description', message: /^Invalid length: Expected <=300/ },
    { name: 'two rewards of the same name', form: rewards(['Coffee', '10'], ['coffee', '12']), field: 'rewards', group: true, message: 'Reward names must be unique' },
    { name: '21 rewards', form: rewards(...Array.from({ length: 21 }, (_, i): [string, string] => [`Reward ${i}`, String(i + 1)])), field: 'rewards', group: true, message: 'At most 20 rewards' },
    { name: 'rewards on a level card', form: { passType: 'level_card', ...rewards(['Coffee', '10']) }, field: 'rewards', group: true, message: 'Only stamp and point cards have rewards: remove these, or choose a stamp or point card' },
    { name: 'months after each award on a stamp card', form: { 'expiry.rule': 'months', 'expiry.months': '12' }, field: 'expiry', group: true, message: /^Stamps expire only after days without an award/ },
    { name: 'expiry on a prepaid card', form: { passType: 'prepaid_card', 'expiry.rule': 'inactiveDays', 'expiry.inactiveDays': '30' }, field: 'expiry', group: true, message: 'Store credit is money and never expires: choose Never' },
    { name: 'months left empty', form: { passType: 'point_card', 'expiry.rule': 'months' }, field: 'expiry.months', message: 'Required' },
    { name: '61 months', form: { passType: 'point_card', 'expiry.rule': 'months', 'expiry.months': '61' }, field: 'expiry.months', message: 'A whole number of months from 1 to 60', kept: ['expiry.months', '61'] },
    { name: '3 days without an award', form: { 'expiry.rule': 'inactiveDays', 'expiry.inactiveDays': '3' }, field: 'expiry.inactiveDays', message: 'A whole number of days from 7 to 3650 (ten years)' },
    { name: 'reminded 400 days before', form: { 'expiry.rule': 'inactiveDays', 'expiry.inactiveDays': '30', 'expiry.remindDays': '400' }, field: 'expiry.remindDays', message: 'A whole number of days from 0 (no reminder) to 365' },
    { name: 'a birthday on a question that is not a date', form: { 'questions[0].label': 'Nickname', 'questions[0].type': 'text', 'birthday.questionKey': 'nickname', 'birthday.units': '1' }, field: 'birthday.questionKey', message: 'Nickname is a text question; the birthday needs a date question' },
    { name: 'a birthday without its units', form: { ...birthdayQuestion, 'birthday.questionKey': 'birthday' }, field: 'birthday.units', message: 'Required' },
    { name: 'a birthday of 1.5 stamps', form: { ...birthdayQuestion, 'birthday.questionKey': 'birthday', 'birthday.units': '1.5' }, field: 'birthday.units', message: 'A whole number, at least 1' },
    { name: 'a birthday treat on a prepaid card', form: { passType: 'prepaid_card', ...birthdayQuestion, 'birthday.questionKey': 'birthday', 'birthday.units': '5' }, field: 'birthday', group: true, message: 'Store credit has no birthday treat: choose No birthday treat' },
    { name: 'a watch-list threshold of 0', form: { flagAwardsPerDay: '0' }, field: 'flagAwardsPerDay', message: 'A whole number from 1 to 1000' },
    { name: 'a watch-list threshold in words', form: { flagAwardsPerDay: 'many' }, field: 'flagAwardsPerDay', message: 'A whole number from 1 to 1000', kept: ['flagAwardsPerDay', 'many'] },
    { name: 'a unit value with 5 decimals', form: { unitValue: '0.12345' }, field: 'unitValue', message: 'An amount above 0 with at most 4 decimals, such as 0.25' },
    { name: 'a unit value on a prepaid card', form: { passType: 'prepaid_card', unitValue: '1' }, field: 'unitValue', message: 'Store credit is money already: leave this empty on a prepaid card' },
  ];

  for (const c of cases) {
    test(`${c.name}: a new card`, async () => {
      const before = cardsRepo(app.db).listForOrg(org.orgId).length;
      const res = await post('/console/cards/new', { name: 'Refused', passType: 'stamp_card', ...c.form });
      assert.equal(res.status, 400);
      const message = c.group ? groupErrorOf(res.text, c.field) : errorOf(res.text, c.field);
      if (typeof c.message === 'string') assert.equal(message, c.message);
      else assert.match(message ?? '', c.message);
      assert.match(res.text, /Nothing was saved/);
      if (c.kept) assert.equal(valueOf(res.text, c.kept[0]), c.kept[1]);
      assert.equal(cardsRepo(app.db).listForOrg(org.orgId).length, before, 'no card written');
    });
  }

  test('the same refusals on a stored card leave it as it was', async () => {
    const cardId = await create({ name: 'Kept', passType: 'stamp_card', 'rewards[0].name': 'Coffee', 'rewards[0].cost': '10' });
    const stored = cardsRepo(app.db).findById(cardId);
    for (const c of cases.filter((c) => !c.form.passType)) {
      const res = await post(`/console/cards/${cardId}`, { name: 'Kept changed', passType: 'stamp_card', ...c.form });
      assert.equal(res.status, 400, c.name);
      assert.deepEqual(cardsRepo(app.db).findById(cardId), stored, c.name);
    }
  });
});
