import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { writeOrgSettings } from '../../src/orgs/settings';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import type { TestApp } from '../support/app';
import { errorOf } from './cards-support';

// A card's promotions page over HTTP, as a browser without JavaScript uses it: what runs now and
// next on the shop's calendar, and the form that adds, changes and deletes a promotion with the
// API's rules (each refusal at its input, nothing written). Promotions belong to the card, so the
// sandbox lists them and cannot change them, as a test API key cannot.

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;

// Tuesday 13 January 2026, 14:30 in Berlin (13:30 UTC).
const TUESDAY_AFTERNOON = Date.UTC(2026, 0, 13, 13, 30);

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app);
  writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' });
  app.clock.set(TUESDAY_AFTERNOON);
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, ADMIN_PASSWORD);
});
after(() => app.close());
beforeEach(() => {
  app.clock.set(TUESDAY_AFTERNOON);
  app.db.prepare('DELETE FROM promotions').run();
});

const page = (cardId = org.cards.stamps) => `/console/cards/${cardId}/promotions`;
const stored = () => app.db.prepare('SELECT * FROM promotions ORDER BY rowid').all();
const apiList = async (cardId = org.cards.stamps) => (await app.request('GET', `/api/v1/cards/${cardId}/promotions`, { key: org.keys.live })).body as Record<string, unknown>[];
const addByApi = async (body: Record<string, unknown>, cardId = org.cards.stamps) => {
  const res = await app.request('POST', `/api/v1/cards/${cardId}/promotions`, { key: org.keys.live, body });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
};

async function post(path: string, form: Record<string, string | string[]>) {
  const csrf = await client.csrfFrom(page());
  const body = new URLSearchParams({ _csrf: csrf });
  for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v);
  const res = await fetch(app.url + path, { method: 'POST', headers: { Cookie: client.cookieHeader(), Origin: app.url, 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

const DOUBLE = { name: 'Double stamps on Tuesday afternoons', kind: 'multiplier', value: 2, startsAt: '2026-01-01', endsAt: '2026-01-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } };
const WEEKEND = { name: 'Two more this weekend', kind: 'bonus', value: 2, startsAt: '2026-01-17', endsAt: '2026-01-18' };
const OVER = { name: 'Christmas', kind: 'bonus', value: 1, startsAt: '2025-12-20', endsAt: '2025-12-26' };

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/\s+/g, ' ');
/** The text of the calendar's row for a day ("Tue 13 Jan"). */
const dayRow = (html: string, day: string) => text(/<ol class="promo-days">([\s\S]*?)<\/ol>/.exec(html)![1]!).split(/(?=(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d)/).find((row) => row.startsWith(day))?.trim();
/** The message of a group of choices (kind, weekdays). */
const groupMessage = (html: string, name: string) => [...html.matchAll(/<p class="error" id="f-([a-zA-Z]+)-error">([^<]*)<\/p>/g)].find((m) => m[1] === name)?.[2]?.replace(/&lt;/g, '<').replace(/&gt;/g, '>');

describe('what runs now and next, on the shop\'s calendar', () => {
  test('now (14:30 in Berlin, 13:30 UTC) the Tuesday promotion runs; the next 14 days list each day\'s promotions; each has its state', async () => {
    await addByApi(DOUBLE);
    await addByApi(WEEKEND);
    await addByApi(OVER);
    const res = await client.request('GET', page());
    assert.equal(res.status, 200);
    const now = text(/<section class="panel promo-now"[\s\S]*?<\/section>/.exec(res.text)![0]);
    assert.match(now, /Now Tue 13 Jan, 14:30/);
    assert.match(now, /Double stamps on Tuesday afternoons ×2 \(double stamps\) until 17:00/);
    assert.equal(dayRow(res.text, 'Tue 13 Jan'), 'Tue 13 Jan Today Double stamps on Tuesday afternoons ×2 14:00–17:00');
    assert.equal(dayRow(res.text, 'Wed 14 Jan'), 'Wed 14 Jan No promotion');
    assert.equal(dayRow(res.text, 'Sat 17 Jan'), 'Sat 17 Jan Two more this weekend +2 stamps per award all day');
    assert.equal(dayRow(res.text, 'Tue 20 Jan'), 'Tue 20 Jan Double stamps on Tuesday afternoons ×2 14:00–17:00');
    assert.equal(dayRow(res.text, 'Mon 26 Jan'), 'Mon 26 Jan No promotion');
    assert.equal(dayRow(res.text, 'Tue 27 Jan'), undefined, '14 days, today included');
    const all = text(/<table class="stack-narrow promo-table">[\s\S]*?<\/table>/.exec(res.text)![0]);
    assert.match(all, /Double stamps on Tuesday afternoons ×2 1 Jan 2026 – 31 Jan 2026 Tuesday, 14:00–17:00 Running now/);
    assert.match(all, /Two more this weekend \+2 stamps per award 17 Jan 2026 – 18 Jan 2026 Every day, all day Starts Sat 17 Jan/);
    assert.match(all, /Christmas \+1 stamp per award 20 Dec 2025 – 26 Dec 2025 Every day, all day Ended/);
    assert.match(text(res.text), /All promotions 2 of 10 not ended/);

    app.clock.set(TUESDAY_AFTERNOON - 3_600_000); // 13:30 in Berlin: before the window
    assert.match(text((await client.request('GET', page())).text), /Now Tue 13 Jan, 13:30 No promotion is running now\./);
  });

  test('the card page links here; a prepaid card has no promotions and no form', async () => {
    assert.match((await client.request('GET', `/console/cards/${org.cards.points}`)).text, new RegExp(`href="${page(org.cards.points)}"`));
    const prepaid = await client.request('GET', page(org.cards.prepaid));
    assert.equal(prepaid.status, 200);
    assert.match(text(prepaid.text), /A prepaid card has no promotions: store credit is money/);
    assert.doesNotMatch(prepaid.text, /data-promotion-form/);
    const refused = await post(page(org.cards.prepaid), { name: 'X', kind: 'bonus', bonus: '1', startsAt: '2026-01-13', endsAt: '2026-01-14' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Store credit is money: a prepaid card has no promotions/);
    assert.deepEqual(stored(), []);
  });
});

describe('adding, changing and deleting', () => {
  test('a multiplier with a decimal comma, two weekdays and short times: the API shows it, and an earn in its window gets it', async () => {
    const res = await post(page(), { name: ' Happy mornings ', kind: 'multiplier', multiplier: '1,5', bonus: '9', startsAt: '2026-01-13', endsAt: '2026-02-28', weekdays: ['4', '2'], hoursFrom: '9', hoursTo: '15.30' });
    assert.equal(res.status, 303, res.text.slice(0, 500));
    assert.equal(res.location, `${page()}?done=created`);
    const [shown] = await apiList();
    assert.deepEqual({ ...shown, id: undefined, createdAt: undefined, updatedAt: undefined }, {
      id: undefined, cardId: org.cards.stamps, name: 'Happy mornings', kind: 'multiplier', value: 1.5, startsAt: '2026-01-13', endsAt: '2026-02-28', weekdays: [2, 4], hours: { from: '09:00', to: '15:30' }, ended: false, createdAt: undefined, updatedAt: undefined,
    });
    assert.match(text((await client.request('GET', `${page()}?done=created`)).text), /Promotion added\./);

    const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId: org.cards.stamps, externalCustomerId: 'promo-1', customFields: { memberNo: 1, altEmail: 'promo-1@example.com' } } });
    assert.equal(enrolled.status, 201, enrolled.text);
    const earned = await app.request('POST', '/api/v1/customers/promo-1/earn', { key: org.keys.live, body: { type: 'stamps', amount: 2 } });
    assert.deepEqual([earned.body.change, earned.body.extra, earned.body.promotionIds], [3, 1, [shown!.id]], 'a Tuesday 14:30 in Berlin is in the window');
  });

  test('a bonus: the multiplier field is not read', async () => {
    const res = await post(page(), { name: 'Plus two', kind: 'bonus', multiplier: 'nonsense', bonus: '2', startsAt: '2026-01-20', endsAt: '2026-01-20' });
    assert.equal(res.status, 303, res.text.slice(0, 500));
    const [shown] = await apiList();
    assert.deepEqual([shown!.kind, shown!.value, shown!.weekdays, shown!.hours], ['bonus', 2, null, null]);
  });

  test('the edit form shows it as stored; saved with days and hours emptied it runs every day, all day; deleting asks first', async () => {
    const id = await addByApi(DOUBLE);
    const edit = await client.request('GET', `${page()}/${id}`);
    assert.equal(edit.status, 200);
    assert.match(edit.text, /<input id="f-kind-0" type="radio" name="kind" value="multiplier" checked>/);
    assert.match(edit.text, /<input id="f-multiplier" name="multiplier" type="text" value="2"/);
    assert.match(edit.text, /<input id="f-weekdays-2" type="checkbox" name="weekdays" value="2" checked>/);
    assert.match(edit.text, /<input id="f-hoursTo" name="hoursTo" type="text" value="17:00"/);

    const saved = await post(`${page()}/${id}`, { name: 'Double all month', kind: 'multiplier', multiplier: '2', startsAt: '2026-01-01', endsAt: '2026-01-31', hoursFrom: '', hoursTo: '' });
    assert.equal(saved.status, 303, saved.text.slice(0, 500));
    assert.equal(saved.location, `${page()}?done=saved`);
    const [shown] = await apiList();
    assert.deepEqual([shown!.id, shown!.name, shown!.weekdays, shown!.hours], [id, 'Double all month', null, null]);

    const ask = await client.request('GET', `${page()}/${id}/delete`);
    assert.match(text(ask.text), /Delete the promotion Double all month \(×2, Every day, all day\)\?/);
    assert.equal((await apiList()).length, 1, 'asking deletes nothing');
    const deleted = await post(`${page()}/${id}/delete`, {});
    assert.equal(deleted.status, 303);
    assert.equal(deleted.location, `${page()}?done=deleted`);
    assert.deepEqual(await apiList(), []);
  });

  test('the 11th promotion that has not ended is refused with the reason; an ended one does not count', async () => {
    await addByApi(OVER);
    for (let i = 0; i < 10; i++) await addByApi({ ...WEEKEND, name: `Weekend ${i}` });
    const full = await client.request('GET', page());
    assert.match(text(full.text), /This card has 10 promotions that have not ended, the most it can have/);
    assert.doesNotMatch(full.text, /data-promotion-form/);
    const before = stored();
    const refused = await post(page(), { name: 'Eleventh', kind: 'bonus', bonus: '1', startsAt: '2026-01-20', endsAt: '2026-01-21' });
    assert.equal(refused.status, 400);
    assert.match(text(refused.text), /This card already has 10 promotions that have not ended; delete one, or let one end, before adding another/);
    assert.deepEqual(stored(), before);
  });
});

describe('each refused field comes back with its message, as typed, and nothing is written', () => {
  const valid = { name: 'Happy hour', kind: 'multiplier', multiplier: '2', bonus: '', startsAt: '2026-01-13', endsAt: '2026-01-31', hoursFrom: '14:00', hoursTo: '17:00' };
  const cases: { name: string; form: Record<string, string | string[]>; field: string; message: string; group?: boolean }[] = [
    { name: 'no name', form: { name: '  ' }, field: 'name', message: 'Give the promotion a name' },
    { name: 'a name over 100 characters', form: { name: 'x'.repeat(101) }, field: 'name', message: 'Invalid length: Expected <=100 but received 101' },
    { name: 'neither kind chosen', form: { kind: '' }, field: 'kind', message: 'Choose whether it multiplies or adds', group: true },
    { name: 'a multiplier of 1', form: { multiplier: '1' }, field: 'multiplier', message: 'From 1.1 to 10, with at most one decimal (2 is double)' },
    { name: 'a multiplier of 10.5', form: { multiplier: '10.5' }, field: 'multiplier', message: 'From 1.1 to 10, with at most one decimal (2 is double)' },
    { name: 'a multiplier with two decimals', form: { multiplier: '1.25' }, field: 'multiplier', message: 'From 1.1 to 10, with at most one decimal (2 is double)' },
    { name: 'a multiplier in words', form: { multiplier: 'double' }, field: 'multiplier', message: 'From 1.1 to 10, with at most one decimal (2 is double)' },
    { name: 'no multiplier', form: { multiplier: '' }, field: 'multiplier', message: 'Required' },
    { name: 'a bonus of half a stamp', form: { kind: 'bonus', bonus: '0.5' }, field: 'bonus', message: 'A whole number of stamps, at least 1' },
    { name: 'a bonus of 0', form: { kind: 'bonus', bonus: '0' }, field: 'bonus', message: 'A whole number of stamps, at least 1' },
    { name: 'no first day', form: { startsAt: '' }, field: 'startsAt', message: 'Choose the first day' },
    { name: 'no last day', form: { endsAt: '' }, field: 'endsAt', message: 'Choose the last day' },
    { name: 'a date that does not exist', form: { endsAt: '2026-02-30' }, field: 'endsAt', message: 'Must be a date YYYY-MM-DD (2000–2099)' },
    { name: 'the last day before the first', form: { startsAt: '2026-02-01', endsAt: '2026-01-31' }, field: 'endsAt', message: 'The last day cannot be before the first day' },
    { name: 'a weekday that does not exist', form: { weekdays: ['2', '8'] }, field: 'weekdays', message: 'Invalid value: Expected <=7 but received 8', group: true },
    { name: 'a start time without an end', form: { hoursTo: '' }, field: 'hoursTo', message: 'Give both times, or neither for all day' },
    { name: 'an end before the start (past midnight)', form: { hoursFrom: '22:00', hoursTo: '02:00' }, field: 'hoursTo', message: 'Must be after the start time: a window does not run past midnight' },
    { name: 'an hour that does not exist', form: { hoursFrom: '25:00' }, field: 'hoursFrom', message: 'Must be a time HH:MM from 00:00 to 23:59' },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      const id = await addByApi(DOUBLE);
      const before = stored();
      for (const path of [page(), `${page()}/${id}`]) {
        const res = await post(path, { ...valid, ...c.form });
        assert.equal(res.status, 400, path);
        assert.equal(c.group ? groupMessage(res.text, c.field) : errorOf(res.text, c.field), c.message, path);
        if (typeof c.form.name === 'string' && c.form.name.trim()) assert.match(res.text, new RegExp(`name="name" type="text" value="${c.form.name}"`), 'kept as typed');
        assert.deepEqual(stored(), before, `${path}: nothing written`);
      }
    });
  }
});

describe('test data', () => {
  test('lists the card\'s promotions, offers no form and no edit links, and refuses every change with nothing written', async () => {
    const id = await addByApi(DOUBLE);
    const csrf = await client.csrfFrom('/console/dashboard');
    await client.request('POST', '/console/mode', { form: { _csrf: csrf, mode: 'test', returnTo: '/console' } });
    try {
      const res = await client.request('GET', page());
      assert.equal(res.status, 200);
      assert.match(text(res.text), /Double stamps on Tuesday afternoons/);
      assert.match(text(res.text), /promotions run for your real customers too\. Switch to live data to add, change or delete one\./);
      assert.doesNotMatch(res.text, /data-promotion-form/);
      assert.doesNotMatch(res.text, new RegExp(`${page()}/${id}`));
      const before = stored();
      for (const [path, form] of [
        [page(), { name: 'Sandbox', kind: 'bonus', bonus: '1', startsAt: '2026-01-13', endsAt: '2026-01-14' }],
        [`${page()}/${id}`, { name: 'Sandbox', kind: 'bonus', bonus: '1', startsAt: '2026-01-13', endsAt: '2026-01-14' }],
        [`${page()}/${id}/delete`, {}],
      ] as const) {
        const refused = await post(path, form);
        assert.equal(refused.status, 400, path);
        assert.match(refused.text, /Promotions run for your real customers too: switch to live data to change them/);
      }
      assert.deepEqual(stored(), before);
    } finally {
      const back = await client.csrfFrom('/console/dashboard');
      await client.request('POST', '/console/mode', { form: { _csrf: back, mode: 'live', returnTo: '/console' } });
    }
  });
});
