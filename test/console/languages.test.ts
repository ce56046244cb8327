// The shop's language and currency in Settings, and each admin's console language under Settings →
// Account: in a real browser as the owner uses them, and over HTTP for what a browser cannot send.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { orgsRepo } from '../../src/orgs/repo';
import { readOrgSettings, writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';

const SHOTS = '.tmp/screenshots';

let app: TestApp;
let browser: Browser;
before(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const adminLanguage = (email: string) => orgsRepo(app.db).findAdminByEmail(email)!.language;

describe('languages in the console', () => {
  it('the owner sets the shop to German and euros; the Account page then speaks German until they choose English', async () => {
    const org = await seedConsoleOrg(app, 'Café Elbe');
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/settings' });
    assert.equal(await page.getByLabel('Language', { exact: true }).inputValue(), 'en');
    assert.equal(await page.getByLabel('Currency').inputValue(), '', 'no currency until the owner picks one');
    await page.getByLabel('Language', { exact: true }).selectOption({ label: 'Deutsch' });
    await page.getByLabel('Currency').selectOption({ label: 'Euro (EUR)' });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.deepEqual([readOrgSettings(app.db, org.orgId).language, readOrgSettings(app.db, org.orgId).currency], ['de', 'EUR']);

    await page.getByRole('navigation', { name: 'Settings pages' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Konto' }).waitFor();
    assert.equal(await page.getByLabel('Sprache der Verwaltung').inputValue(), 'de', 'an admin who chose nothing: German in a German shop');
    assert.equal(adminLanguage(org.admin.email), null);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${SHOTS}/console-account-de-${width}.png`, fullPage: true });
    }
    await page.getByLabel('Sprache der Verwaltung').selectOption({ label: 'English' });
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal(await page.getByLabel('Console language').inputValue(), 'en');
    assert.equal(adminLanguage(org.admin.email), 'en');
    await context.close();
  });

  it('refuses a language or currency the lists do not have, writing nothing; a form without them keeps them', async () => {
    const org: ConsoleOrg = await seedConsoleOrg(app, 'Café Isar');
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, org.admin.password);
    const csrf = await client.csrfFrom('/console/settings');
    const form = { _csrf: csrf, name: 'Café Isar', brandColor: '#225588', timeZone: 'Europe/Berlin', country: '' };
    const table = [
      { name: 'a language we do not speak', fields: { language: 'pt', currency: 'EUR' }, message: /Pick a language from the list\./ },
      { name: 'a currency that does not exist', fields: { language: 'de', currency: 'EURO' }, message: /Pick a currency from the list\./ },
      { name: 'a currency in lower case', fields: { language: 'de', currency: 'eur' }, message: /Pick a currency from the list\./ },
    ];
    for (const row of table) {
      const res = await client.request('POST', '/console/settings', { form: { ...form, ...row.fields } });
      assert.equal(res.status, 400, row.name);
      assert.match(res.text, row.message, row.name);
      assert.deepEqual([readOrgSettings(app.db, org.orgId).language, readOrgSettings(app.db, org.orgId).currency], ['en', null], row.name);
    }
    assert.equal((await client.request('POST', '/console/settings', { form: { ...form, language: 'nl', currency: 'EUR' } })).status, 303);
    assert.equal((await client.request('POST', '/console/settings', { form })).status, 303);
    assert.deepEqual([readOrgSettings(app.db, org.orgId).language, readOrgSettings(app.db, org.orgId).currency], ['nl', 'EUR'], 'an older form leaves them as they are');
    assert.equal((await client.request('POST', '/console/settings', { form: { ...form, language: 'nl', currency: '' } })).status, 303);
    assert.equal(readOrgSettings(app.db, org.orgId).currency, null, 'the empty choice: no currency');

    const accountCsrf = await client.csrfFrom('/console/settings/account');
    const bad = await client.request('POST', '/console/settings/account', { form: { _csrf: accountCsrf, language: 'fr' } });
    assert.equal(bad.status, 400, 'the console is in English or German only');
    assert.match(bad.text, /Pick a language from the list\./);
    assert.equal(adminLanguage(org.admin.email), null);
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { language: 'de' }))();
    const good = await client.request('POST', '/console/settings/account', { form: { _csrf: accountCsrf, language: 'de' } });
    assert.equal(good.status, 303);
    assert.equal(adminLanguage(org.admin.email), 'de');
    assert.match((await client.request('GET', '/console/settings/account?saved=1')).text, /<div lang="de">[\s\S]*Gespeichert\./);
  });
});
