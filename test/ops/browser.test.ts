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
    await page.getByText('There is no backup in the backup folder yet.').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByRole('status').filter({ hasText: 'Backup written and checked.' }).waitFor();
    const link = page.getByRole('link', { name: /^Download wallet-loyalty-\d{8}T\d{6}Z\.db$/ });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const saved = await download.path();
    assert.ok(statSync(saved).size > 4096);
    assert.match(download.suggestedFilename(), /^wallet-loyalty-\d{8}T\d{6}Z\.db$/);
    await context.close();
  });

  it('the dashboard warns about backups at phone width: none in 48 hours (with Back up now), no copy off this computer', async () => {
    const fresh = await startTestApp();
    try {
      const owner = await seedConsoleOrg(fresh, 'Warned Café');
      const { context, page } = await signedInPage(browser, fresh, owner, { width: 390, next: '/console/dashboard' });
      const stale = page.getByRole('alert').filter({ hasText: 'No backup in the last 48 hours.' });
      assert.match((await stale.textContent())!, /There is no backup in the backup folder\./);
      assert.match((await page.getByRole('note').filter({ hasText: 'No copy off this computer.' }).textContent())!, /REPLICATION=litestream/);
      await stale.getByRole('link', { name: 'Back up now' }).click();
      await page.getByRole('button', { name: 'Back up now' }).click();
      await page.getByRole('status').filter({ hasText: 'Backup written and checked.' }).waitFor();
      await page.goto(`${fresh.url}/console/dashboard`);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      assert.equal(await page.getByRole('alert').filter({ hasText: 'No backup in the last 48 hours.' }).count(), 0);
      await context.close();
    } finally {
      await fresh.close();
    }
  });

  it('Settings → Email warns while SMTP_URL says ?tls=off', async () => {
    const relay = await startTestApp({ env: { SMTP_URL: 'smtp://relay.local:25?tls=off', MAIL_FROM: 'shop@example.com' } });
    try {
      const owner = await seedConsoleOrg(relay, 'Relay Café');
      const { context, page } = await signedInPage(browser, relay, owner, { width: 390, next: '/console/settings/email' });
      const warning = page.getByRole('alert').filter({ hasText: 'Email may travel unencrypted.' });
      assert.match((await warning.textContent())!, /remove \?tls=off/);
      await context.close();
    } finally {
      await relay.close();
    }
  });
});
