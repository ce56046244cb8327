// Signing up in German in real headless Chromium, controls found by their German roles and labels
// as a German customer finds them: the browser's language (de-DE) picks the page's, a refusal
// comes back in German, the new customer keeps German, and the language switcher on the welcome
// page changes it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { inTransaction } from '../../src/db/transaction';
import { DEFAULT_CONSENT_TEXT, writeOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';

let app: TestApp;
let browser: Browser;
let cardId: string;

before(async () => {
  app = await startTestApp();
  const [org] = app.seed({
    orgs: [{
      name: 'Café Hafen',
      cards: [{
        name: 'Kaffeekarte',
        passType: 'stamp_card',
        reward: { name: 'Gratis Cappuccino', cost: 8 },
        dataCollectionEnabled: true,
        questions: [{ key: 'milk', label: 'Milchsorte', type: 'select', options: [{ value: 'oat', label: 'Hafer' }, { value: 'cow', label: 'Kuhmilch' }] }],
      }],
    }],
  }).orgs;
  inTransaction(app.db, () => writeOrgSettings(app.db, org!.orgId, { timeZone: 'Europe/Berlin', country: 'DE' }));
  cardId = org!.cards[0]!.cardId;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const languageOf = (email: string) => (app.db.prepare('SELECT language FROM customers WHERE email = ?').get(email) as { language: string | null } | undefined)?.language;

describe('signing up in German', () => {
  it('finds every control by its German name, is refused in German, and keeps German for the customer', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`${app.url}/get-pass/${cardId}`);
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    assert.equal(await page.title(), 'Mitmachen · Kaffeekarte');
    const switcher = page.getByRole('navigation', { name: 'Sprache' });
    assert.equal(await switcher.getByRole('link', { name: 'Deutsch' }).getAttribute('aria-current'), 'true');
    assert.equal(await switcher.getByRole('link', { name: 'Français' }).getAttribute('aria-current'), null);

    await page.getByRole('button', { name: 'Karte holen' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Bitte prüfen Sie 3 Angaben:' });
    await alert.waitFor();
    assert.equal(await page.locator('#f-name-error').textContent(), 'Geben Sie Ihren Namen ein.');
    assert.match((await page.locator('#f-consent-error').textContent())!, /^Bitte setzen Sie das Häkchen/);
    assert.equal(await alert.getByRole('link', { name: 'Ihr Name: Geben Sie Ihren Namen ein.' }).count(), 1);

    await page.getByRole('textbox', { name: 'Ihr Name' }).fill('Jonas Weber');
    await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill('jonas@example.de');
    const phone = page.getByRole('textbox', { name: 'Telefon (optional)' });
    assert.match((await page.locator(`#${await phone.getAttribute('aria-describedby')}`).textContent())!, /^Zum Beispiel 01512\u00a03456789 oder mit Ländervorwahl: \+49\u00a01512\u00a03456789\.$/);
    await phone.fill('0151 2345678');
    const milk = page.getByRole('combobox', { name: 'Milchsorte (optional)' });
    assert.deepEqual(await milk.locator('option').allTextContents(), ['Bitte wählen …', 'Hafer', 'Kuhmilch']);
    await milk.selectOption({ label: 'Hafer' });
    await page.getByRole('checkbox', { name: DEFAULT_CONSENT_TEXT }).check();
    await page.getByRole('button', { name: 'Karte holen' }).click();

    await page.waitForURL(/\/welcome\?code=/);
    await page.getByText('Willkommen, Jonas!').waitFor();
    await page.getByRole('heading', { name: 'Karte griffbereit halten' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Meine Karte öffnen' }).count(), 1);
    assert.equal(languageOf('jonas@example.de'), 'de');

    // The welcome's switcher stores the choice: the page comes back in French, and so will the pass.
    await page.getByRole('navigation', { name: 'Sprache' }).getByRole('button', { name: 'Français' }).click();
    await page.getByRole('status').filter({ hasText: 'Votre carte est désormais en français.' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    assert.equal(await page.getByRole('navigation', { name: 'Langue' }).getByRole('button', { name: 'Français' }).getAttribute('aria-current'), 'true');
    await page.getByRole('heading', { name: 'Gardez votre carte à portée de main' }).waitFor();
    assert.equal(languageOf('jonas@example.de'), 'fr');
    await context.close();
  });
});
