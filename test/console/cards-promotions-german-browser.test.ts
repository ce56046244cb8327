// A German owner edits a card and adds a promotion in a real browser, finding every control by
// its German role and label; the editor's script speaks German too (the colour picker, the birthday
// list). Screenshots of both pages at phone and desktop width go to .tmp/screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';

const SHOTS = process.env.SHOTS_DIR ?? '.tmp/screenshots';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Café Elbe');
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { language: 'de', currency: 'EUR', timeZone: 'Europe/Berlin' }))();
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const apiCard = async (cardId: string) => ((await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body as Record<string, any>[]).find((c) => c.cardId === cardId)!;

describe('the card editor and promotions in German, in a browser', () => {
  it('the owner renames a card, adds a reward and a question, gives a birthday treat, and saves', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/cards' });
    await page.getByRole('link', { name: 'Coffee stamps bearbeiten' }).click();
    await page.getByRole('heading', { name: 'Coffee stamps bearbeiten' }).waitFor();
    // The script's picker is named in German, from the page's words.
    await page.getByRole('textbox', { name: 'Hintergrundfarbe wählen' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Hintergrund (optional)' }).count(), 1);

    await page.getByRole('textbox', { name: 'Name der Karte' }).fill('Kaffee-Stempel');
    await page.getByRole('button', { name: 'Prämie hinzufügen' }).click();
    const second = page.getByRole('group', { name: 'Prämie 2' });
    await second.getByRole('textbox', { name: 'Name' }).fill('Stück Kuchen');
    await second.getByRole('textbox', { name: 'Preis' }).fill('15');

    // The card asks seven questions already, so its Questions section is open.
    await page.getByRole('button', { name: 'Frage hinzufügen' }).click();
    const question = page.getByRole('group', { name: 'Frage 8' });
    await question.getByRole('textbox', { name: 'Frage', exact: true }).fill('Lieblingsgetränk');
    await question.getByRole('combobox', { name: 'Antwortart' }).selectOption({ label: 'Text' });
    await page.getByText('Geburtstagsgeschenk optional; nicht für Guthabenkarten').click();
    await page.getByRole('combobox', { name: 'Frage nach dem Geburtstag' }).selectOption({ label: 'Birthday' });
    await page.getByRole('textbox', { name: 'Stempel oder Punkte als Geschenk' }).fill('2');

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/card-editor-de-${width}.png`, fullPage: true });
    }
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByRole('status').filter({ hasText: 'Gespeichert.' }).waitFor();
    const card = await apiCard(org.cards.stamps);
    assert.equal(card.name, 'Kaffee-Stempel');
    assert.deepEqual(card.rewards.map((r: { name: string }) => r.name), ['Free coffee', 'Stück Kuchen']);
    assert.deepEqual(card.birthday, { questionKey: 'birthday', units: 2 });
    assert.ok(card.questions.some((q: { label: string }) => q.label === 'Lieblingsgetränk'));
    await context.close();
  });

  it('the owner adds a promotion for Tuesday afternoons', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.points}/promotions` });
    await page.getByRole('heading', { name: 'Aktion hinzufügen' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Doppelte Punkte am Dienstag');
    await page.getByRole('radio', { name: /Vervielfacht die Punkte/ }).check();
    await page.getByRole('textbox', { name: 'Multiplizieren mit' }).fill('2');
    await page.getByLabel('Erster Tag').fill('2026-01-01');
    await page.getByLabel('Letzter Tag').fill('2026-12-31');
    await page.getByRole('checkbox', { name: 'Dienstag' }).check();
    await page.getByRole('textbox', { name: 'Von' }).fill('14:00');
    await page.getByRole('textbox', { name: 'Bis' }).fill('17:00');
    await page.getByRole('button', { name: 'Aktion hinzufügen' }).click();
    await page.getByRole('status').filter({ hasText: 'Aktion angelegt.' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Doppelte Punkte am Dienstag' });
    assert.match((await row.textContent())!.replace(/\s+/g, ' '), /×2 .*Dienstag, 14:00–17:00/);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/promotions-de-${width}.png`, fullPage: true });
    }
    await context.close();
  });
});
