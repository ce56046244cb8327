import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/keys/service';
import { writeOrgSettings } from '../../src/orgs/settings';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { insertCustomer } from '../support/customers';
import { countRows, deliveryRows, givePasses } from '../support/messages';

// The two message endpoints and the read of a message, over HTTP: validation (nothing written on
// a refusal), who each audience reaches, the one-audience-message-a-day rule on the shop's
// calendar, recipients counting customers, scopes, and test and live data kept apart. No wallet is
// configured here: the Apple and Google rows wait for a worker (the wallet tests send them); web
// passes show the message at once.

const DAY = 24 * 3_600_000;
const T0 = Date.UTC(2026, 2, 1, 9);

interface Fixture {
  app: TestApp;
  org: StandardOrg;
  /** On the level card (Bronze 0, Silver 100, Gold 500). */
  ids: { bronzeVisitor: string; silverApple: string; goldLapsed: string; goldNoPass: string; testCustomer: string };
}

/**
 * Five customers of the level card, joined 60 days before "now": a Bronze customer who earned 2
 * days ago (web pass), a Silver one who earned 10 days ago (Apple and Google), a Gold one who never
 * earned (web and Google), a Gold one without any pass, and a test customer with a web pass.
 */
async function fixture(): Promise<Fixture> {
  const app = await startTestApp();
  app.clock.set(T0 - 60 * DAY);
  const org = seedStandardOrg(app);
  const on = (balance: number, livemode = true) => insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, balance, livemode, name: 'Kim' }).id;
  const ids = { bronzeVisitor: on(0), silverApple: on(10_000), goldLapsed: on(60_000), goldNoPass: on(60_000), testCustomer: on(0, false) };
  givePasses(app, ids.bronzeVisitor, { web: true });
  givePasses(app, ids.silverApple, { apple: ['push-1', 'push-2'], google: true });
  givePasses(app, ids.goldLapsed, { web: true, google: true });
  givePasses(app, ids.testCustomer, { web: true });
  const earn = async (id: string, at: number) => {
    app.clock.set(at);
    const res = await app.request('POST', `/api/v1/customers/pu_${id}/earn`, { key: org.keys.live, body: { type: 'points', amount: 50 } });
    assert.equal(res.status, 201, res.text);
  };
  await earn(ids.silverApple, T0 - 10 * DAY);
  await earn(ids.bronzeVisitor, T0 - 2 * DAY);
  app.clock.set(T0);
  return { app, org, ids };
}

const send = (f: Fixture, body: unknown, key = f.org.keys.live, cardId = f.org.cards.levels, headers: Record<string, string> = {}) =>
  f.app.request('POST', `/api/v1/cards/${cardId}/messages`, { key, body, headers });
const sendTo = (f: Fixture, ref: string, body: unknown, key = f.org.keys.live) => f.app.request('POST', `/api/v1/customers/${ref}/messages`, { key, body });
/** The error code an answer carries (its message starts with it). */
const code = (res: { body: { message?: string } }) => /^[A-Z_]+/.exec(res.body.message ?? '')?.[0];
const reached = (f: Fixture, messageId: string) => [...new Set(deliveryRows(f.app, messageId).map((r) => r.customer_id))].sort();

describe('message requests that are refused write nothing', () => {
  let f: Fixture;
  before(async () => (f = await fixture()));
  after(() => f.app.close());

  const ok = { header: 'Pumpkin pie is back', body: 'From today until Sunday.' };
  const cases: { name: string; body: unknown; card?: keyof StandardOrg['cards']; path: string; message: RegExp }[] = [
    { name: 'no header', body: { body: ok.body, audience: 'all' }, path: 'header', message: /^required$/ },
    { name: 'an empty header', body: { ...ok, header: '   ', audience: 'all' }, path: 'header', message: /must not be empty/ },
    { name: 'a header of 41 characters', body: { ...ok, header: 'x'.repeat(41), audience: 'all' }, path: 'header', message: /at most 40 characters/ },
    { name: 'a header of two lines', body: { ...ok, header: 'Two\nlines', audience: 'all' }, path: 'header', message: /one line/ },
    { name: 'a body of 201 characters', body: { ...ok, body: 'y'.repeat(201), audience: 'all' }, path: 'body', message: /at most 200 characters/ },
    { name: 'no audience', body: ok, path: 'audience', message: /^required$/ },
    { name: 'an unknown audience word', body: { ...ok, audience: 'everyone' }, path: 'audience', message: /"all" or an object/ },
    { name: 'an unknown field', body: { ...ok, audience: 'all', sendAt: 'tomorrow' }, path: 'sendAt', message: /unknown field/ },
    { name: 'two audiences at once', body: { ...ok, audience: { level: 'Gold', minBalance: 5 } }, path: 'audience.minBalance', message: /unknown field/ },
    { name: 'a level on a stamp card', body: { ...ok, audience: { level: 'Gold' } }, card: 'stamps', path: 'audience.level', message: /no levels \(it is a stamp_card\)/ },
    { name: 'an unknown level', body: { ...ok, audience: { level: 'Platinum' } }, path: 'audience.level', message: /no level "Platinum".*Bronze, Silver, Gold/ },
    { name: 'zero days', body: { ...ok, audience: { visitedWithinDays: 0 } }, path: 'audience.visitedWithinDays', message: /from 1 to 3650/ },
    { name: 'a fraction of a day', body: { ...ok, audience: { notVisitedForDays: 2.5 } }, path: 'audience.notVisitedForDays', message: /whole number/ },
    { name: 'a fraction of a stamp', body: { ...ok, audience: { minBalance: 2.5 } }, card: 'stamps', path: 'audience.minBalance', message: /whole number on a stamp_card/ },
    { name: 'three decimals of credit', body: { ...ok, audience: { minBalance: 2.555 } }, card: 'prepaid', path: 'audience.minBalance', message: /at most 2 decimals/ },
    { name: 'a negative balance', body: { ...ok, audience: { minBalance: -1 } }, path: 'audience.minBalance', message: /negative/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await send(f, c.body, f.org.keys.live, f.org.cards[c.card ?? 'levels']);
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, /^VALIDATION_FAILED: /);
      const issue = res.body.issues.find((i: { path: string }) => i.path === c.path);
      assert.ok(issue, `an issue at ${c.path}: ${res.text}`);
      assert.match(issue.message, c.message);
      assert.equal(countRows(f.app, 'messages'), 0);
      assert.equal(countRows(f.app, 'message_deliveries'), 0);
      assert.equal(countRows(f.app, 'wallet_pass_messages'), 0);
    });
  }

  test('one customer: the same limits on header and body', async () => {
    const res = await sendTo(f, `pu_${f.ids.bronzeVisitor}`, { header: 'x'.repeat(41), body: '' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.issues.map((i: { path: string }) => i.path).sort(), ['body', 'header']);
    assert.equal(countRows(f.app, 'messages'), 0);
  });

  test('the scope each endpoint needs', async () => {
    const cardsOnly = createApiKey(f.app.deps, { orgId: f.org.orgId, deviceName: 'cards-only', scopes: ['cards:write', 'cards:read'] }).key;
    const customersOnly = createApiKey(f.app.deps, { orgId: f.org.orgId, deviceName: 'customers-only', scopes: ['customers:write'] }).key;
    assert.equal((await send(f, { ...ok, audience: 'all' }, customersOnly)).status, 403);
    assert.equal((await sendTo(f, `pu_${f.ids.bronzeVisitor}`, ok, cardsOnly)).status, 403);
    assert.equal((await send(f, { ...ok, audience: 'all' }, f.org.keys.reader)).status, 403);
    assert.equal(countRows(f.app, 'messages'), 0);
  });

  test('an unknown card or customer', async () => {
    assert.equal(code(await send(f, { ...ok, audience: 'all' }, f.org.keys.live, 'card_nope')), 'CARD_NOT_FOUND');
    assert.equal(code(await sendTo(f, 'pu_nobody', ok)), 'CUSTOMER_NOT_FOUND');
    assert.equal(countRows(f.app, 'messages'), 0);
  });
});

describe('who an audience reaches', () => {
  const cases: { name: string; audience: unknown; reached: (keyof Fixture['ids'])[] }[] = [
    { name: 'all: every customer holding a pass, each once', audience: 'all', reached: ['bronzeVisitor', 'silverApple', 'goldLapsed'] },
    { name: 'the first level, below its next one', audience: { level: 'Bronze' }, reached: ['bronzeVisitor'] },
    { name: 'a level named in another case', audience: { level: 'silver' }, reached: ['silverApple'] },
    { name: 'the top level, customers without a pass left out', audience: { level: 'Gold' }, reached: ['goldLapsed'] },
    { name: 'visited in the last 7 days', audience: { visitedWithinDays: 7 }, reached: ['bronzeVisitor'] },
    { name: 'visited in the last 30 days', audience: { visitedWithinDays: 30 }, reached: ['bronzeVisitor', 'silverApple'] },
    { name: 'not visited for 7 days, the never-seen included', audience: { notVisitedForDays: 7 }, reached: ['silverApple', 'goldLapsed'] },
    { name: 'not visited for 30 days', audience: { notVisitedForDays: 30 }, reached: ['goldLapsed'] },
    { name: 'not visited for 90 days: nobody joined that long ago', audience: { notVisitedForDays: 90 }, reached: [] },
    { name: 'a balance of at least 150 points', audience: { minBalance: 150 }, reached: ['silverApple', 'goldLapsed'] },
    { name: 'a balance of at least 600 points', audience: { minBalance: 600 }, reached: ['goldLapsed'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const f = await fixture();
      try {
        const res = await send(f, { header: 'Hello', body: 'A message for you.', audience: c.audience });
        assert.equal(res.status, 202, res.text);
        assert.match(res.body.messageId, /^msg_/);
        assert.equal(res.body.recipients, c.reached.length);
        assert.deepEqual(reached(f, res.body.messageId), c.reached.map((k) => f.ids[k]).sort());
      } finally {
        await f.app.close();
      }
    });
  }

  test('a test key reaches test customers only; a live key cannot read its message', async () => {
    const f = await fixture();
    try {
      const res = await send(f, { header: 'Test', body: 'Sandbox.', audience: 'all' }, f.org.keys.test);
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(reached(f, res.body.messageId), [f.ids.testCustomer]);
      const path = `/api/v1/cards/${f.org.cards.levels}/messages/${res.body.messageId}`;
      assert.equal(code(await f.app.request('GET', path, { key: f.org.keys.live })), 'MESSAGE_NOT_FOUND');
      assert.equal((await f.app.request('GET', path, { key: f.org.keys.test })).status, 200);
      assert.equal(code(await sendTo(f, `pu_${f.ids.bronzeVisitor}`, { header: 'Hi', body: 'There.' }, f.org.keys.test)), 'CUSTOMER_NOT_FOUND');
    } finally {
      await f.app.close();
    }
  });
});

describe('one audience message per customer and shop day', () => {
  let f: Fixture;
  before(async () => {
    f = await fixture();
    f.app.db.transaction(() => writeOrgSettings(f.app.db, f.org.orgId, { timeZone: 'Europe/Berlin' }))();
  });
  after(() => f.app.close());

  test('a second audience message the same shop day leaves them out; a one-customer message is not held back; the next day counts afresh', async () => {
    const body = (header: string, audience: unknown = 'all') => ({ header, body: 'Details inside.', audience });
    // 22:30 in Berlin (UTC+1 in March before the change).
    f.app.clock.set(Date.UTC(2026, 2, 1, 21, 30));
    const first = await send(f, body('First'));
    assert.equal(first.body.recipients, 3);

    f.app.clock.advance(3_600_000); // 23:30, the same shop day
    const second = await send(f, body('Second', { minBalance: 0 }));
    assert.equal(second.status, 202);
    assert.equal(second.body.recipients, 0);
    assert.equal(deliveryRows(f.app, second.body.messageId).length, 0);

    const personal = await sendTo(f, `pu_${f.ids.bronzeVisitor}`, { header: 'Your order', body: 'It is ready.' });
    assert.equal(personal.body.recipients, 1);

    f.app.clock.advance(3_600_000); // 00:30, the next shop day (UTC still says the 1st)
    const third = await send(f, body('Third'));
    assert.equal(third.body.recipients, 3);
  });
});

describe('a message and its figures', () => {
  let f: Fixture;
  before(async () => (f = await fixture()));
  after(() => f.app.close());

  test('recipients counts customers; one delivery row per pass; the read gives the figures', async () => {
    const res = await send(f, { header: '  Happy hour  ', body: 'Two for one, 4 to 6 pm.', audience: 'all' });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.recipients, 3);
    const rows = deliveryRows(f.app, res.body.messageId);
    assert.deepEqual(
      rows.map((r) => [r.customer_id, r.channel, r.status]).sort(),
      [
        [f.ids.bronzeVisitor, 'web', 'shown'],
        [f.ids.goldLapsed, 'google', 'pending'],
        [f.ids.goldLapsed, 'web', 'shown'],
        [f.ids.silverApple, 'apple', 'pending'],
        [f.ids.silverApple, 'google', 'pending'],
      ].sort(),
    );
    const read = await f.app.request('GET', `/api/v1/cards/${f.org.cards.levels}/messages/${res.body.messageId}`, { key: f.org.keys.live });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, {
      id: res.body.messageId,
      cardId: f.org.cards.levels,
      customerId: null,
      audience: 'all',
      header: 'Happy hour',
      body: 'Two for one, 4 to 6 pm.',
      recipients: 3,
      createdAt: new Date(T0).toISOString(),
      deliveries: { passes: 5, pending: 3, delivered: 0, shownWithoutNotification: 2, failed: 0 },
    });
    // Under another card it is not found; the reader key lacks cards:read.
    assert.equal(code(await f.app.request('GET', `/api/v1/cards/${f.org.cards.stamps}/messages/${res.body.messageId}`, { key: f.org.keys.live })), 'MESSAGE_NOT_FOUND');
    assert.equal((await f.app.request('GET', `/api/v1/cards/${f.org.cards.levels}/messages/${res.body.messageId}`, { key: f.org.keys.reader })).status, 403);
  });

  test('a one-customer message is filed under their card; a customer without a pass is no recipient', async () => {
    const res = await sendTo(f, `pu_${f.ids.goldNoPass}`, { header: 'Hello', body: 'Nobody sees this yet.' });
    assert.equal(res.status, 202);
    assert.equal(res.body.recipients, 0);
    const read = await f.app.request('GET', `/api/v1/cards/${f.org.cards.levels}/messages/${res.body.messageId}`, { key: f.org.keys.live });
    assert.equal(read.body.customerId, `pu_${f.ids.goldNoPass}`);
    assert.equal(read.body.audience, null);
    assert.deepEqual(read.body.deliveries, { passes: 0, pending: 0, delivered: 0, shownWithoutNotification: 0, failed: 0 });
  });

  test('on a server without Apple or Google Wallet set up, their rows fail at once, saying why', async () => {
    const { createMessageWorker } = await import('../../src/messages/worker');
    const { createWalletSenders } = await import('../../src/wallet/updates/senders');
    const { loadWalletServices } = await import('../../src/wallet/services');
    const deps = { db: f.app.db, clock: f.app.clock, log: f.app.deps.log, config: f.app.config, wallet: loadWalletServices(f.app.config, f.app.clock) };
    const senders = createWalletSenders(deps);
    const worker = createMessageWorker(deps, senders);
    const res = await sendTo(f, `pu_${f.ids.silverApple}`, { header: 'Nobody', body: 'No wallet here.' });
    await worker.drain();
    await worker.stop();
    await senders.close();
    assert.deepEqual(deliveryRows(f.app, res.body.messageId).map((r) => [r.channel, r.status, r.error, r.next_attempt_at]), [
      ['apple', 'failed', 'Apple Wallet is not set up on this server', null],
      ['google', 'failed', 'Google Wallet is not set up on this server', null],
    ]);
  });

  test('an Idempotency-Key sends once and replays the answer', async () => {
    const before = countRows(f.app, 'messages');
    const headers = { 'Idempotency-Key': 'msg-once-1' };
    const body = { header: 'Once', body: 'Only once.', audience: { level: 'Gold' } };
    const first = await send(f, body, f.org.keys.live, f.org.cards.levels, headers);
    const again = await send(f, body, f.org.keys.live, f.org.cards.levels, headers);
    assert.equal(first.status, 202);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.equal(countRows(f.app, 'messages'), before + 1);
  });
});

describe('a customer’s messages in their data', () => {
  let f: Fixture;
  before(async () => (f = await fixture()));
  after(() => f.app.close());

  test('the export lists the messages that reached them; erasure removes those written to them alone, and the pass shows none', async () => {
    const audience = (await send(f, { header: 'For everyone', body: 'Open late on Friday.', audience: 'all' })).body.messageId;
    const personal = (await sendTo(f, `pu_${f.ids.bronzeVisitor}`, { header: 'Hi Kim', body: 'Your birthday cake is ready.' })).body.messageId;
    const { customerExport } = await import('../../src/privacy/export');
    const { customersRepo } = await import('../../src/customers/repo');
    const data = customerExport(f.app.deps, customersRepo(f.app.db).findByPassUserId(f.ids.bronzeVisitor)!) as { messages: unknown };
    assert.deepEqual(data.messages, [
      { messageId: audience, header: 'For everyone', body: 'Open late on Friday.', toThemAlone: false, sentAt: new Date(T0).toISOString(), passes: [{ wallet: 'web', status: 'shown' }] },
      { messageId: personal, header: 'Hi Kim', body: 'Your birthday cake is ready.', toThemAlone: true, sentAt: new Date(T0).toISOString(), passes: [{ wallet: 'web', status: 'shown' }] },
    ]);

    const erased = await f.app.request('DELETE', `/api/v1/customers/pu_${f.ids.bronzeVisitor}`, { key: f.org.keys.live });
    assert.equal(erased.status, 200, erased.text);
    const left = (sql: string, ...params: unknown[]) => (f.app.db.prepare(sql).get(...params) as { n: number }).n;
    assert.equal(left('SELECT count(*) AS n FROM messages WHERE id = ?', personal), 0);
    assert.equal(left('SELECT count(*) AS n FROM message_deliveries WHERE message_id = ?', personal), 0);
    assert.equal(left('SELECT count(*) AS n FROM wallet_pass_messages WHERE customer_id = ?', f.ids.bronzeVisitor), 0);
    assert.equal(left('SELECT count(*) AS n FROM messages WHERE id = ?', audience), 1, 'the audience message names nobody and stays');
  });
});

describe('the web pass in the customer’s language', () => {
  let f: Fixture;
  before(async () => (f = await fixture()));
  after(() => f.app.close());

  test('the message on top as written, the locations under the card in the pass’s language', async () => {
    const { saveShopLocations } = await import('../../src/orgs/service');
    const { setCustomerLanguage } = await import('../../src/customers/language');
    const { customersRepo } = await import('../../src/customers/repo');
    saveShopLocations(f.app.deps, f.org.orgId, [{ name: 'Rue Haute', latitude: 50.8357, longitude: 4.3467 }]);
    assert.equal((await sendTo(f, `pu_${f.ids.bronzeVisitor}`, { header: 'Tarte aux pommes', body: 'Ce week-end seulement.' })).status, 202);
    const customer = customersRepo(f.app.db).findByPassUserId(f.ids.bronzeVisitor)!;
    const pass = () => f.app.request('GET', `/pass/${customer.installCode}`).then((r) => r.text);
    const map = 'href="https://www.openstreetmap.org/?mlat=50.8357&amp;mlon=4.3467#map=18/50.8357/4.3467"';

    const english = await pass();
    assert.match(english, /<h2 id="message-header">Tarte aux pommes<\/h2><p id="message-body">Ce week-end seulement\.<\/p>/);
    assert.ok(english.indexOf('id="pass-message"') < english.indexOf('id="pass-card"'), 'the message is above the card');
    assert.match(english, /<h2 id="locations-heading">Find us<\/h2>/);
    assert.ok(english.includes(`<a ${map} target="_blank" rel="noopener noreferrer">Rue Haute (map)</a>`));

    for (const [lang, heading, link] of [
      ['fr', 'Où nous trouver', 'Rue Haute (plan)'],
      ['de', 'So finden Sie uns', 'Rue Haute (Stadtplan)'],
      ['nl', 'Hier vind je ons', 'Rue Haute (plattegrond)'],
    ] as const) {
      setCustomerLanguage(f.app.deps, customer, lang);
      const text = await pass();
      assert.match(text, new RegExp(`<h2 id="locations-heading">${heading}</h2>`), lang);
      assert.ok(text.includes(`>${link}</a>`), lang);
      assert.match(text, /<h2 id="message-header">Tarte aux pommes<\/h2>/, `${lang}: the shop’s own words, as written`);
    }
  });
});
