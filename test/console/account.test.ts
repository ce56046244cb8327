// The console shell in a real browser, as an owner uses it: sign in, the settings, the live/test
// switch, changing the password, signing out. Controls are found by role and label.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, signIn, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Corner Café');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

describe('console shell', () => {
  it('signs in with email and password, keeping the typed email after a wrong password', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    assert.match(page.url(), /\/console\/sign-in$/);
    await page.getByLabel('Email').fill(org.admin.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or the password is not right' }).waitFor();
    assert.equal(await page.getByLabel('Email').inputValue(), org.admin.email);
    assert.equal(await page.getByLabel('Password').inputValue(), '', 'a refused password is not sent back');
    await page.getByLabel('Password').fill(org.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/dashboard$/);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'wl_console')!;
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
    await context.close();
  });

  it('settings: renames the business and shows the wallet setup; a bad value comes back with its message and writes nothing', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/settings' });
    assert.equal(await page.getByRole('link', { name: 'Settings' }).getAttribute('aria-current'), 'page');
    await page.getByLabel('Business name').fill('   ');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const nameField = page.getByLabel('Business name');
    assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#f-name-error').textContent())!, /Enter the name of your business/);
    assert.equal((app.db.prepare('SELECT name FROM orgs WHERE id = ?').get(org.orgId) as { name: string }).name, 'Corner Café');

    await nameField.fill('Corner Café & Bakery');
    await page.getByLabel('Brand colour').fill('#2e7d32');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Corner Café & Bakery' }).count(), 1, 'the top bar shows the new name');
    // The notice can show before the style sheet has loaded (seen once in a full run on a busy machine).
    await page.waitForLoadState('load');
    assert.equal(await page.evaluate("getComputedStyle(document.querySelector('.topbar')).backgroundColor"), 'rgb(46, 125, 50)');
    const wallet = page.getByRole('region', { name: 'Wallet passes' });
    assert.match((await wallet.textContent())!, /Apple Wallet passes are not set up\. Set APPLE_PASS_TYPE_ID/);
    assert.match((await wallet.textContent())!, /Google Wallet passes are not set up\. Set GOOGLE_ISSUER_ID, GOOGLE_SERVICE_ACCOUNT_FILE/);
    await context.close();
  });

  it('switches between live and test data with a visible switch', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/settings' });
    assert.equal(await page.locator('#mode-badge').textContent(), 'LIVE DATA');
    await page.getByRole('button', { name: 'Switch to test data' }).click();
    await page.waitForURL(/\/console\/settings$/);
    assert.equal(await page.locator('#mode-badge').textContent(), 'TEST DATA');
    assert.match((await page.getByRole('note').textContent())!, /You are looking at test data\..*at most 100.*30 days/s);
    await page.getByRole('button', { name: 'Switch to live data' }).click();
    assert.equal(await page.locator('#mode-badge').textContent(), 'LIVE DATA');
    assert.equal(await page.getByRole('note').count(), 0);
    await context.close();
  });

  it('changes the password: other browsers are signed out, the new password works', async () => {
    const local = await seedConsoleOrg(app, 'Password Café');
    const other = await signedInPage(browser, app, local, { next: '/console/settings' });
    const { context, page } = await signedInPage(browser, app, local, { next: '/console/settings' });
    await page.getByRole('link', { name: 'Change password' }).click();
    await page.waitForURL(/\/console\/password$/);
    await page.getByLabel('Current password').fill('not it');
    await page.getByLabel('New password', { exact: true }).fill('a much better passphrase');
    await page.getByLabel('New password again').fill('a much better passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    assert.match((await page.locator('#f-current-error').textContent())!, /This is not your current password/);

    await page.getByLabel('Current password').fill(local.admin.password);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    assert.match((await page.locator('#f-next-error').textContent())!, /at least 10 characters/);

    await page.getByLabel('Current password').fill(local.admin.password);
    await page.getByLabel('New password', { exact: true }).fill('a much better passphrase');
    await page.getByLabel('New password again').fill('a much better passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();

    await other.page.reload();
    assert.match(other.page.url(), /\/console\/sign-in/, 'the other browser is signed out');
    await other.context.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor();
    await signIn(page, app, { ...local, admin: { ...local.admin, password: 'a much better passphrase' } }, '/console/settings');
    assert.match(page.url(), /\/console\/settings$/);
    await context.close();
  });
});
