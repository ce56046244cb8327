// The going-live pieces of the console in real Chromium, found by role and label as an owner
// finds them: the address banner, Settings → Admins (a password shown once) and Settings →
// Backups (Back up now, then Download).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Browser Café');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

describe('going live, in the browser', () => {
  it('the banner says phones cannot open localhost links and leads to the going-live help', async () => {
    const { context, page } = await signedInPage(browser, app, org, { width: 390 });
    const banner = page.getByRole('complementary', { name: 'Public address' });
    assert.match((await banner.textContent())!, /Customers' phones can't open links to this computer/);
    await banner.getByRole('link', { name: 'how to go live' }).click();
    await page.getByRole('heading', { name: 'Going live' }).waitFor();
    await context.close();
  });

  it('Settings → Admins: adds an admin and shows the password once', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/settings' });
    await page.getByRole('navigation', { name: 'Settings pages' }).getByRole('link', { name: 'Admins' }).click();
    await page.getByLabel('Email of the new admin').fill('barista@browser.example');
    await page.getByRole('button', { name: 'Add admin' }).click();
    const password = await page.getByLabel('Password for barista@browser.example').inputValue();
    assert.equal(password.length, 20);
    assert.equal(await page.getByRole('button', { name: 'Remove barista@browser.example' }).count(), 1);
    await context.close();
  });

  it('Settings → Backups: Back up now, then Download the file', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/settings' });
    await page.getByRole('navigation', { name: 'Settings pages' }).getByRole('link', { name: 'Backups' }).click();
    await page.getByText('No backup has been made yet.').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByRole('status').filter({ hasText: 'Backup written and checked.' }).waitFor();
    const link = page.getByRole('link', { name: /^Download wallet-loyalty-\d{8}T\d{6}Z\.db$/ });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const saved = await download.path();
    assert.ok(statSync(saved).size > 4096);
    assert.match(download.suggestedFilename(), /^wallet-loyalty-\d{8}T\d{6}Z\.db$/);
    await context.close();
  });
});
