// Messages and locations in real headless Chromium: the console's Messages page (the count before
// sending follows the audience, a refused title comes back on its field, the send and the figures
// after), Settings → Locations from a pasted link, and the web pass showing the shop's message on
// top, replaced live when a new one is sent. With SCREENSHOT_DIR set, each page is also saved at
// phone (390 px) and desktop (1280 px) width.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { saveShopLocations } from '../../src/orgs/service';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';
import { insertCustomer } from '../support/customers';
import { givePasses } from '../support/messages';

let app: TestApp;
let browser: Browser;
before(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const shotsDir = process.env.SCREENSHOT_DIR;

/** Saves the page at phone and desktop width when SCREENSHOT_DIR is set. */
async function screenshots(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
  }
}

describe('the Messages page', () => {
  let org: ConsoleOrg;
  before(async () => {
    org = await seedConsoleOrg(app, 'Browser Café');
    const on = (balance: number, name: string) => insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance, name }).id;
    givePasses(app, on(800, 'Ana'), { web: true, apple: ['push-ana'] });
    givePasses(app, on(200, 'Ben'), { web: true });
    givePasses(app, on(900, 'Cleo'), { google: true });
  });

  it('shows the count before sending, follows the audience, refuses a long title on its field, sends, and shows the figures after', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/messages?card=${org.cards.stamps}` });
    const errors: string[] = [];
    // A refused form is answered 400, which the browser logs too: only script and CSP errors count.
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.text().includes('status of 400')) errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor();
    await page.getByLabel('Card').selectOption({ label: 'Coffee stamps' });
    await page.getByRole('button', { name: 'Choose card' }).click();
    const count = page.locator('#reach-count');
    assert.equal(await count.textContent(), 'Reaches 3 customers (4 passes: 1 Apple Wallet, 1 Google Wallet and 2 web pass).');

    await page.getByLabel('Customers with enough stamps').check();
    await page.getByLabel('Balance at least (stamps)').fill('5');
    await page.locator('#reach-count').filter({ hasText: 'Reaches 2 customers' }).waitFor();
    assert.equal(await page.locator('#reach-count').textContent(), 'Reaches 2 customers (3 passes: 1 Apple Wallet, 1 Google Wallet and 1 web pass).');

    await page.getByLabel('Title').fill('A title much longer than forty characters fits');
    await page.getByLabel('Message', { exact: true }).fill('Show this at the counter for a free refill.');
    await page.getByRole('button', { name: 'Send message' }).click();
    assert.equal((await page.locator('#f-header-error').textContent())?.trim(), 'At most 40 characters.');
    assert.equal(await page.getByLabel('Title').getAttribute('aria-invalid'), 'true');
    // The audience stayed as it was chosen.
    assert.equal(await page.getByLabel('Balance at least (stamps)').inputValue(), '5');

    await page.getByLabel('Title').fill('Free refill this week');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('status').filter({ hasText: 'Message sent to 2 customers.' }).waitFor();
    const row = page.locator('#sent-messages tbody tr').first();
    assert.match((await row.locator('[data-label="To"]').textContent())!, /Coffee stamps: Balance at least 5 stamps/);
    assert.equal(await row.locator('[data-label="Customers"]').textContent(), '2');
    assert.equal(await row.locator('[data-label="Shown without notification"]').textContent(), '1');
    assert.equal(await row.locator('[data-label="Waiting"]').textContent(), '2');
    assert.deepEqual(errors, []);
    await screenshots(page, 'messages');
    await context.close();
  });

  it('in German: the count follows the audience, a long title is refused on its field, the send and its figures', async () => {
    const shop = await seedConsoleOrg(app, 'Café Browser', undefined, { settings: { language: 'de' } });
    const on = (balance: number, name: string) => insertCustomer(app, { orgId: shop.orgId, cardId: shop.cards.stamps, balance, name }).id;
    givePasses(app, on(800, 'Anke'), { web: true, apple: ['push-anke'] });
    givePasses(app, on(200, 'Bernd'), { web: true });
    givePasses(app, on(900, 'Clara'), { google: true });
    const { context, page } = await signedInPage(browser, app, shop, { next: `/console/messages?card=${shop.cards.stamps}` });
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.text().includes('status of 400')) errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await page.getByRole('heading', { name: 'Nachrichten', level: 1 }).waitFor();
    assert.equal(await page.locator('#reach-count').textContent(), 'Erreicht 3 Personen (4 Pässe: 1 Apple Wallet, 1 Google Wallet und 2 Web-Pass).');

    await page.getByLabel('Kundschaft mit genug Stempeln').check();
    await page.getByLabel('Stand mindestens (Stempel)').fill('5');
    await page.locator('#reach-count').filter({ hasText: 'Erreicht 2 Personen' }).waitFor();
    assert.equal(await page.locator('#reach-count').textContent(), 'Erreicht 2 Personen (3 Pässe: 1 Apple Wallet, 1 Google Wallet und 1 Web-Pass).');

    await page.getByLabel('Überschrift').fill('Eine Überschrift, die viel länger als vierzig Zeichen ist');
    await page.getByLabel('Nachricht', { exact: true }).fill('Zeigen Sie das an der Theke: Nachfüllen gratis.');
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    assert.equal((await page.locator('#f-header-error').textContent())?.trim(), 'Höchstens 40 Zeichen.');
    assert.equal(await page.getByLabel('Stand mindestens (Stempel)').inputValue(), '5');

    await page.getByLabel('Überschrift').fill('Nachfüllen gratis');
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await page.getByRole('status').filter({ hasText: 'Nachricht an 2 Personen gesendet.' }).waitFor();
    const row = page.locator('#sent-messages tbody tr').first();
    assert.equal(await row.locator('[data-label="An"]').textContent(), 'Coffee stamps: Stand mindestens 5 Stempel');
    assert.equal(await row.locator('[data-label="Empfänger"]').textContent(), '2');
    assert.equal(await row.locator('[data-label="Ohne Benachrichtigung angezeigt"]').textContent(), '1');
    assert.equal(await row.locator('[data-label="Ausstehend"]').textContent(), '2');
    assert.deepEqual(errors, []);
    await screenshots(page, 'messages-de');
    await context.close();
  });

  it('Settings → Locations reads a pasted map link', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/settings/locations' });
    await page.getByLabel('Name').fill('Main Street');
    await page.getByLabel('Map link or coordinates').fill('https://www.openstreetmap.org/?mlat=52.5163&mlon=13.3777#map=17/52.5163/13.3777');
    await page.getByRole('button', { name: 'Add location' }).click();
    await page.getByRole('status').filter({ hasText: 'Location added.' }).waitFor();
    await page.getByLabel('Name').fill('Station kiosk');
    await page.getByLabel('Map link or coordinates').fill('52.525084, 13.369402');
    await page.getByLabel('Lock-screen text').fill('Coffee to go: 2 stamps to your free one');
    await page.getByRole('button', { name: 'Add location' }).click();
    await page.getByRole('status').filter({ hasText: 'Location added.' }).waitFor();
    assert.deepEqual(await page.locator('#locations tbody [data-label="Name"]').allTextContents(), ['Main Street', 'Station kiosk']);
    assert.equal(await page.getByRole('link', { name: '52.5163, 13.3777' }).getAttribute('href'), 'https://www.openstreetmap.org/?mlat=52.5163&mlon=13.3777#map=18/52.5163/13.3777');
    await screenshots(page, 'settings-locations');
    await context.close();
  });
});

describe('the web pass', () => {
  it('shows the latest message on top, replaced live by a new one, and the shop’s locations with map links', async () => {
    const org = await seedConsoleOrg(app, 'Pass Café');
    saveShopLocations(app.deps, org.orgId, [{ name: 'Main Street', latitude: 52.5163, longitude: 13.3777 }]);
    const customer = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 700, name: 'Dana' });
    givePasses(app, customer.id, { web: true });
    const send = async (header: string, body: string) => {
      const res = await app.request('POST', `/api/v1/customers/pu_${customer.id}/messages`, { key: org.keys.live, body: { header, body } });
      assert.equal(res.status, 202, res.text);
    };
    await send('Pumpkin pie is back', 'Until Sunday: a slice with every large coffee.');

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await page.goto(`${app.url}/pass/${customer.installCode}`);
    const message = page.getByRole('region', { name: 'Pumpkin pie is back' });
    assert.equal(await message.locator('p').textContent(), 'Until Sunday: a slice with every large coffee.');
    // On top: above the card.
    const [messageBox, cardBox] = [await message.boundingBox(), await page.locator('#pass-card').boundingBox()];
    assert.ok(messageBox && cardBox && messageBox.y + messageBox.height <= cardBox.y, 'the message is above the card');
    assert.equal(await page.getByRole('link', { name: 'Main Street (map)' }).getAttribute('href'), 'https://www.openstreetmap.org/?mlat=52.5163&mlon=13.3777#map=18/52.5163/13.3777');
    await screenshots(page, 'web-pass-message');

    await send('Closed on Monday', 'We are closed on Monday for a family celebration.');
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    await page.locator('#message-header').filter({ hasText: 'Closed on Monday' }).waitFor();
    assert.equal(await page.locator('#message-body').textContent(), 'We are closed on Monday for a family celebration.');
    assert.deepEqual(errors, [], 'no CSP violations or script errors');
    await page.close();
  });
});
