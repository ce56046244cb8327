// The customer list in a real browser, as an owner uses it: typing in the one search box updates
// the results, the card filter narrows them, pages go forward and back, a name opens the
// customer, and the live/test switch shows the other namespace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';
import { insertCustomer } from '../support/customers';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'List Café');
  for (let i = 0; i < 55; i++) {
    insertCustomer(app, { orgId: org.orgId, cardId: i % 5 ? org.cards.points : org.cards.stamps, name: `Regular ${String(i).padStart(2, '0')}`, email: `regular${i}@example.com` });
    app.clock.advance(1000);
  }
  insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, name: 'Hedwig Brandt', phone: '+49 170 1234567', balance: 400 });
  insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, name: 'Sandbox Sally', livemode: false });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const names = (page: import('playwright-core').Page) => page.locator('#results tbody td[data-label="Name"] a').allInnerTexts();

describe('the customer list in a browser', () => {
  it('searches as the owner types, by a phone typed the local way, and opens the customer', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/customers' });
    assert.equal(await page.getByRole('link', { name: 'Customers' }).getAttribute('aria-current'), 'page');
    assert.match((await page.locator('#results').innerText())!, /56 customers/);
    await page.getByLabel('Search').pressSequentially('0170 1234567');
    await page.waitForURL(/q=0170/);
    await page.locator('#results').getByText('Hedwig Brandt').waitFor();
    assert.deepEqual(await names(page), ['Hedwig Brandt']);
    assert.match(await page.locator('#results tbody tr').innerText(), /4 stamps/);
    await page.getByRole('link', { name: 'Hedwig Brandt' }).click();
    await page.waitForURL(/\/console\/customers\/[A-Za-z0-9]{24}$/);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Hedwig Brandt');
    await context.close();
  });

  it('narrows to one card with the filter, and pages forward and back', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/customers' });
    const first = await names(page);
    assert.equal(first.length, 50);
    assert.equal(first[0], 'Hedwig Brandt');
    await page.getByRole('link', { name: 'Next page →' }).click();
    await page.waitForURL(/older=/);
    assert.deepEqual(await names(page), ['Regular 05', 'Regular 04', 'Regular 03', 'Regular 02', 'Regular 01', 'Regular 00']);
    assert.equal(await page.getByRole('link', { name: 'Next page →' }).count(), 0);
    await page.getByRole('link', { name: '← Previous page' }).click();
    await page.waitForURL(/newer=/);
    assert.deepEqual(await names(page), first);
    assert.equal(await page.getByRole('link', { name: '← Previous page' }).count(), 0);

    await page.getByLabel('Card').selectOption({ label: 'Coffee stamps' });
    await page.waitForURL(/card=/);
    await page.locator('#results').getByText('12 customers on this card').waitFor();
    assert.equal((await names(page)).length, 12);
    await context.close();
  });

  it('the download link carries the search and the filter, also after searching as you type', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/customers?q=regular&card=${org.cards.stamps}` });
    assert.equal(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'), `/console/customers/export.csv?q=regular&card=${org.cards.stamps}`);
    await page.getByLabel('Search').fill('hedwig');
    await page.locator('#results').getByText('Hedwig Brandt').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'), `/console/customers/export.csv?q=hedwig&card=${org.cards.stamps}`);
    const download = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]).then(([d]) => d);
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    assert.deepEqual(text.trim().split('\r\n').slice(1).map((line) => line.split(',')[0]), ['Hedwig Brandt']);
    await context.close();
  });

  it('the switch to test data shows the test customers, the sandbox limit and the removal dates', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/customers' });
    await page.getByRole('button', { name: 'Switch to test data' }).click();
    await page.waitForURL(/\/console\/customers$/);
    assert.deepEqual(await names(page), ['Sandbox Sally']);
    assert.match((await page.getByRole('status').innerText())!, /1 of 100 test customers used \(99 left\)/);
    assert.equal(await page.getByRole('columnheader', { name: 'Removed on' }).count(), 1);
    await page.getByRole('button', { name: 'Switch to live data' }).click();
    assert.equal((await names(page)).length, 50);
    await context.close();
  });
});
