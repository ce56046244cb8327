// One customer in the console, in a real browser: what the page shows (balance, level, details
// with the card's question labels, the install link and its QR, the ledger) and correcting the
// balance, which goes through the API's adjust with source `console`: the same refusals, a ledger
// row, and the same webhooks (checked with a real receiver) and API history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { cardsRepo } from '../../src/cards/repo';
import { customersRepo } from '../../src/customers/repo';
import { earn, redeem } from '../../src/loyalty/service';
import { staffRepo } from '../../src/staff/repo';
import { qrSvg } from '../../src/wallet/qr';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, signedInPage, STANDARD_SEED, type ConsoleOrg } from '../support/console';
import { ledgerOf, snapshot } from '../support/customers';
import { startReceiver, type Receiver } from '../support/receiver';
import { createEndpoint, startWebhookApp, type WebhookTestApp } from '../support/webhooks';
import { eventually } from '../support/receiver';

let app: WebhookTestApp;
let org: ConsoleOrg;
let browser: Browser;
let receiver: Receiver;
let limitedCard: string;

before(async () => {
  app = await startWebhookApp();
  org = await seedConsoleOrg(app, 'Page Café', undefined, {
    cards: [...STANDARD_SEED.orgs[0]!.cards, { ref: 'limited', name: 'Careful stamps', passType: 'stamp_card', earningLimits: { maxPerAward: 5 } }],
    staff: [{ name: 'Sam', pin: '2468' }],
  });
  limitedCard = cardsRepo(app.db).listForOrg(org.orgId).find((c) => c.name === 'Careful stamps')!.id;
  receiver = await startReceiver();
  await createEndpoint(app, org.keys.live, receiver.url, ['*']);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await receiver?.close();
  await app?.close();
});

async function enroll(body: Record<string, unknown>): Promise<string> {
  const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body });
  assert.equal(res.status, 201, res.text);
  return res.body.passUserId as string;
}

const customer = (id: string) => customersRepo(app.db).findByPassUserId(id)!;
const eventsFor = (id: string, type: string) =>
  receiver.requests.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, any> }).filter((e) => e.type === type && e.data.passUserId === id);

async function correct(page: Page, action: string, amount: string, note: string): Promise<void> {
  await page.getByLabel('Change').selectOption({ label: action });
  await page.getByLabel('Amount').fill(amount);
  await page.getByLabel('Note').fill(note);
  await page.getByRole('button', { name: 'Correct balance' }).click();
  await page.waitForLoadState('domcontentloaded');
}

describe('the customer page', () => {
  it('shows the balance, details with question labels, the install link with its QR, and the ledger with source and staff', async () => {
    const id = await enroll({
      externalCustomerId: 'crm-77',
      cardId: org.cards.stamps,
      name: 'Mona Lisa',
      email: 'mona@example.com',
      phone: '+39 06 1234 5678',
      customFields: { memberNo: 1503, size: 'L', newsletter: true, altEmail: 'mona.alt@example.com' },
    });
    const sam = staffRepo(app.db).list(org.orgId)[0]!;
    app.clock.advance(60_000);
    earn(app.deps, { customer: customer(id), source: 'scan', staff: { id: sam.id, name: sam.name }, type: 'stamps', basis: { from: 'items', items: [{ key: 'latte', quantity: 2 }, { key: 'cake', quantity: 4 }] } });
    app.clock.advance(60_000);
    redeem(app.deps, { customer: customer(id), source: 'api', type: 'reward', note: 'birthday' });

    const { context, page } = await signedInPage(browser, app, org, { next: `/console/customers/${id}` });
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Mona Lisa');
    assert.equal(await page.locator('#balance').textContent(), '0 stamps');
    const details = (await page.getByRole('region', { name: 'Details' }).innerText()).replace(/\s+/g, ' ');
    for (const expected of ['Card Coffee stamps (Stamp card)', 'Status Not installed yet', 'Joined via API', 'Email mona@example.com', 'Phone +39 06 1234 5678', 'External id crm-77', `Customer id pu_${id}`, 'Member number 1503', 'Cup size Large', 'Newsletter Yes', 'Other email mona.alt@example.com']) {
      assert.ok(details.includes(expected), `${expected} in: ${details}`);
    }

    const api = await app.request('GET', `/api/v1/customers/pu_${id}`, { key: org.keys.live });
    const installUrl = api.body.installUrl as string;
    const install = page.getByRole('region', { name: 'Install link' });
    assert.equal(await install.locator('#install-url').textContent(), installUrl);
    assert.equal(await install.getByRole('link', { name: 'Open the install page' }).getAttribute('href'), installUrl);
    const qr = install.getByRole('img', { name: 'QR code of the install link' });
    assert.equal(await qr.count(), 1);
    const expectedQr = (await qrSvg(installUrl)).replace(/aria-label="[^"]*"/, 'aria-label="QR code of the install link"');
    assert.equal(await qr.evaluate((el) => el.outerHTML), expectedQr.replace(/\s*\/>/g, '/>').replace(/<path([^>]*)\/>/g, '<path$1></path>'), 'the QR encodes the install link');

    const rows = await page.getByRole('table', { name: 'Balance history, newest first' }).locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, /Redeemed\s+−10 stamps\s+0 stamps\s+API\s+birthday\s+Reward: Free coffee/);
    assert.match(rows[1]!, /Earned\s+\+10 stamps\s+10 stamps\s+Counter\s+Sam\s+2 × latte, 4 × cake/);
    await context.close();
  });

  it('pages the history: 25 entries, then the older ones, then back to the newest', async () => {
    const id = await enroll({ externalCustomerId: 'crm-busy', cardId: org.cards.points });
    for (let i = 1; i <= 30; i++) {
      earn(app.deps, { customer: customer(id), source: 'api', type: 'points', basis: { from: 'amount', amount: i * 100 } });
      app.clock.advance(1000);
    }
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/customers/${id}` });
    const history = page.getByRole('table', { name: 'Balance history, newest first' }).locator('tbody tr');
    assert.equal(await history.count(), 25);
    assert.match(await history.first().innerText(), /\+30 points/);
    await page.getByRole('link', { name: 'Older entries →' }).click();
    await page.waitForURL(/history=/);
    assert.equal(await history.count(), 5);
    assert.match(await history.last().innerText(), /\+1 point\b/);
    assert.equal(await page.getByRole('link', { name: 'Older entries →' }).count(), 0);
    await page.getByRole('link', { name: '← Newest entries' }).click();
    assert.equal(await history.count(), 25);
    await context.close();
  });
});

describe('correcting the balance', () => {
  it('adds stamps with a note: a console ledger row, balance.updated to the webhook, and the API history says console', async () => {
    const id = await enroll({ externalCustomerId: 'crm-fix', cardId: org.cards.stamps, name: 'Fix Me' });
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/customers/${id}` });
    await correct(page, 'Add stamps', '3', 'Card was not scanned on Monday');
    await page.getByRole('status').filter({ hasText: 'Balance corrected' }).waitFor();
    assert.equal(await page.locator('#balance').textContent(), '3 stamps');
    assert.match(await page.getByRole('table', { name: 'Balance history, newest first' }).locator('tbody tr').first().innerText(), /Correction\s+\+3 stamps\s+3 stamps\s+Console\s+Card was not scanned on Monday/);

    assert.deepEqual(ledgerOf(app.db, id).map((r) => [r.kind, r.change, r.source, r.isAward]), [['adjust', 300, 'console', true]]);
    const api = await app.request('GET', `/api/v1/customers/pu_${id}/transactions`, { key: org.keys.live });
    assert.equal(api.body.data[0].source, 'console');
    assert.equal(api.body.data[0].note, 'Card was not scanned on Monday');
    assert.equal(api.body.data[0].change, 3);
    await eventually(() => eventsFor(id, 'balance.updated').length === 1, 'balance.updated at the receiver');
    const event = eventsFor(id, 'balance.updated')[0]!;
    assert.deepEqual({ source: event.data.source, change: event.data.change, balance: event.data.balance, staff: event.data.staff }, { source: 'console', change: 3, balance: 3, staff: undefined });

    // Removing again (a refund) is never limited.
    await correct(page, 'Remove stamps', '2', 'Counted twice');
    assert.equal(await page.locator('#balance').textContent(), '1 stamp');
    await context.close();
  });

  it('refuses without a note, a debit past the balance, and an award past the earning limit — with the message, writing nothing', async () => {
    const id = await enroll({ externalCustomerId: 'crm-careful', cardId: limitedCard, name: 'Careful Carl', initialPoints: 2 });
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/customers/${id}` });
    const before = snapshot(app.db);

    await correct(page, 'Add stamps', '1', '   ');
    assert.equal(await page.getByLabel('Note').getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#f-note-error').textContent())!, /Write down why you correct the balance/);
    assert.equal(await page.getByLabel('Amount').inputValue(), '1', 'what was typed comes back');

    await correct(page, 'Remove stamps', '5', 'Too many');
    assert.match((await page.getByRole('alert').textContent())!, /The balance is 2; this needs 5/);

    await correct(page, 'Add stamps', '6', 'Big goodwill');
    assert.match((await page.getByRole('alert').textContent())!, /This card awards at most 5 at a time; this award is 6/);

    await correct(page, 'Add stamps', '1.5', 'Half');
    assert.equal(await page.getByLabel('Amount').getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#f-amount-error').textContent())!, /must be a whole number on a stamp_card/i);

    await correct(page, 'Add stamps', 'lots', 'Typo');
    assert.match((await page.locator('#f-amount-error').textContent())!, /Enter an amount such as 5 or 2.50/);

    assert.deepEqual(snapshot(app.db), before, 'nothing written by a refused correction');
    assert.equal(await page.locator('#balance').textContent(), '2 stamps');
    await context.close();
  });
});

describe('correcting over HTTP', () => {
  let client: ConsoleClient;
  before(async () => {
    client = new ConsoleClient(app);
    await client.signIn(org.admin.email, org.admin.password);
  });
  const post = async (id: string, form: Record<string, string>) =>
    client.request('POST', `/console/customers/${id}/correct`, { form: { _csrf: await client.csrfFrom('/console/customers'), ...form } });

  it('sets a level card to a new tier: level.changed reaches the webhook with source console', async () => {
    const id = await enroll({ externalCustomerId: 'crm-level', cardId: org.cards.levels, initialPoints: 20 });
    const res = await post(id, { action: 'set', amount: '150', note: 'Moved from the old system' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/console/customers/${id}?corrected=1`);
    assert.equal(customer(id).balance, 15000);
    await eventually(() => eventsFor(id, 'level.changed').length === 1, 'level.changed at the receiver');
    const level = eventsFor(id, 'level.changed')[0]!;
    assert.deepEqual([level.data.level, level.data.previousLevel, level.data.source], ['Silver', 'Bronze', 'console']);
    const page = await client.request('GET', `/console/customers/${id}`);
    assert.match(page.text, /Level: <strong>Silver<\/strong>/);
  });

  it('takes store credit in cents, with a decimal point or comma', async () => {
    const id = await enroll({ externalCustomerId: 'crm-gift', cardId: org.cards.prepaid });
    assert.equal((await post(id, { action: 'add', amount: '2,50', note: 'Top-up by phone' })).status, 303);
    assert.equal((await post(id, { action: 'add', amount: '0.25', note: 'Rounding' })).status, 303);
    assert.equal(customer(id).balance, 275);
    const page = await client.request('GET', `/console/customers/${id}`);
    assert.match(page.text, /<p class="stat" id="balance">€2.75<\/p>/);
  });

  it('offers "set" only where the API allows setPoints, and refuses it elsewhere with the API message', async () => {
    const id = await enroll({ externalCustomerId: 'crm-stamp-set', cardId: org.cards.stamps });
    const page = await client.request('GET', `/console/customers/${id}`);
    assert.doesNotMatch(page.text, /Set the balance to/);
    const res = await post(id, { action: 'set', amount: '4', note: 'x' });
    assert.equal(res.status, 400);
    assert.match(res.text, /SetPoints does not apply to a stamp_card/);
    assert.equal(customer(id).balance, 0);
  });

  it('takes the customer id as the page shows it (pu_…) in the address as well as without the prefix', async () => {
    const id = await enroll({ externalCustomerId: 'crm-pasted', cardId: org.cards.stamps, name: 'Paula Paste' });
    for (const path of [`/console/customers/pu_${id}`, `/console/customers/${id}`, `/console/customers/pu_${id}/edit`, `/console/customers/pu_${id}/qr`]) {
      const page = await client.request('GET', path);
      assert.equal(page.status, 200, path);
      assert.match(page.text, /Paula Paste/, path);
    }
    const corrected = await post(`pu_${id}`, { action: 'add', amount: '2', note: 'Pasted id' });
    assert.equal(corrected.status, 303);
    assert.equal(corrected.headers.get('location'), `/console/customers/${id}?corrected=1`);
    assert.equal(customer(id).balance, 200);
    assert.equal((await client.request('GET', '/console/customers/pu_nope')).status, 404);
    assert.equal((await client.request('GET', '/console/customers/pu_')).status, 404);
  });

  it('a customer of another org or of the other mode is not found; a note over 500 characters is refused', async () => {
    const id = await enroll({ externalCustomerId: 'crm-long', cardId: org.cards.stamps });
    const long = await post(id, { action: 'add', amount: '1', note: 'x'.repeat(501) });
    assert.equal(long.status, 400);
    assert.match(long.text, /id="f-note-error"/);
    const testKeyCustomer = (await app.request('POST', '/api/v1/customers', { key: org.keys.test, body: { externalCustomerId: 'crm-t', cardId: org.cards.stamps } })).body.passUserId as string;
    const other = await client.request('GET', `/console/customers/${testKeyCustomer}`);
    assert.equal(other.status, 404);
    assert.match(other.text, /This customer is in your test data/);
    assert.equal((await client.request('GET', '/console/customers/nope')).status, 404);
    const wrong = await post(testKeyCustomer, { action: 'add', amount: '1', note: 'x' });
    assert.equal(wrong.status, 404);
    assert.equal(customer(testKeyCustomer).balance, 0);
  });
});
