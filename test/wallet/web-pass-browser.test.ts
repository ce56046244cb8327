// The web pass in a real headless browser (see test/support/browser.ts): the page renders under its
// Content-Security-Policy, shows the QR code, and its script refreshes the balance from the server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { seedStandardOrg, startTestApp, type TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { changeBalance, createCustomer } from '../support/wallet-app';

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

test('the web pass shows card, balance and QR code, and refreshes the balance without a reload', async () => {
  const org = seedStandardOrg(app);
  const customer = createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 400 });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') violations.push(msg.text());
  });

  // Through the install page, as a customer without a wallet app would come.
  await page.goto(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`);
  await page.click('text=Show my card in the browser');
  await page.waitForURL(`**/pass/${customer.installCode}`);

  assert.equal(await page.textContent('h1'), 'Coffee stamps');
  assert.equal(await page.textContent('#balance'), '4');
  const qr = await page.locator('.qr svg').boundingBox();
  assert.ok(qr && qr.width >= 150 && Math.abs(qr.width - qr.height) < 1, `QR code drawn square and large enough: ${JSON.stringify(qr)}`);
  // The style sheet applied (CSP allowed it): the balance is large type.
  // (Browser-side code is passed as strings: this project type-checks without DOM typings.)
  assert.equal(await page.evaluate("getComputedStyle(document.getElementById('balance')).fontSize"), '41.6px');

  changeBalance(app, customer.id, 1000);
  // The page refreshes every 15 s and whenever it becomes visible again; trigger the latter.
  await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
  // A locator wait (not waitForFunction, whose string predicate the page's CSP rightly blocks as eval).
  await page.locator('#balance').filter({ hasText: /^10$/ }).waitFor({ timeout: 60_000 });
  assert.equal(await page.textContent('[data-key="reward"]'), 'Ready to redeem');
  assert.deepEqual(violations, [], 'no CSP violations or script errors');
  await page.close();
});
