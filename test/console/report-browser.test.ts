// The Report and Watch list pages in real headless Chromium, found by role and label as the owner
// finds them: the menu, the month and card pickers, the table, the chart (an image with its name),
// the CSV download (the file the browser saves), and both pages on a phone without sideways scrolling.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { booksCsv } from '../../src/console/report/csv';
import { customersRepo } from '../../src/customers/repo';
import { earn } from '../../src/loyalty/service';
import { monthlyBooks } from '../../src/report/service';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { generateActivity, seedBooksOrg, type BooksOrg } from '../support/books-year';
import { signedInPage, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: BooksOrg;
let browser: Browser;
let busy: string;

before(async () => {
  app = await startTestApp();
  app.clock.set(Date.UTC(2025, 11, 20));
  org = await seedBooksOrg(app);
  await generateActivity(app, org, { start: '2026-01', months: 2, perDay: 3 });
  // Today, 2 March: one customer of the points card is awarded 8 times (more than 6).
  busy = (app.db.prepare("SELECT id FROM customers WHERE card_id = ? AND livemode = 1 AND erased_at IS NULL AND name IS NOT NULL ORDER BY created_at LIMIT 1").get(org.cards.points) as { id: string }).id;
  for (let i = 0; i < 8; i++) {
    app.clock.set(Date.UTC(2026, 2, 2, 8 + i));
    earn(app.deps, { customer: customersRepo(app.db).findByPassUserId(busy)!, source: 'api', type: 'points', basis: { from: 'amount', amount: 500 } });
  }
  app.clock.set(Date.UTC(2026, 2, 2, 17));
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const asConsoleOrg = (o: BooksOrg) => o as unknown as ConsoleOrg;

describe('the Report page in a browser', () => {
  it('picks a month and a card, shows the books and the chart, and downloads their CSV', async () => {
    const { context, page } = await signedInPage(browser, app, asConsoleOrg(org), { width: 1280 });
    try {
      await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Report', exact: true }).click();
      await page.getByRole('heading', { name: 'Report', level: 1 }).waitFor();
      await page.getByLabel('Month').fill('2026-02');
      await page.getByLabel('Card').selectOption({ label: 'Coffee points' });
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByRole('heading', { name: 'Coffee points · February 2026', level: 2 }).waitFor();

      const expected = monthlyBooks(app.deps, org.orgId, '2026-02', { cardId: org.cards.points }).cards[0]!;
      const table = page.getByRole('table', { name: 'The books of Coffee points in February 2026' });
      const cells = async (line: string) => (await table.getByRole('row', { name: new RegExp(`^${line}`) }).getByRole('cell').allTextContents()).map((t) => t.trim());
      assert.equal((await cells('Closing balance'))[0], new Intl.NumberFormat('en-GB').format(expected.units.closing / 100));
      assert.equal((await cells('Customers with a balance'))[0], String(expected.customersWithBalance));
      assert.match((await cells('Closing balance'))[1]!, /^€[\d,]+\.\d\d$/);

      const chart = page.getByRole('img', { name: 'Movements of Coffee points in February 2026, in points' });
      await chart.waitFor();
      assert.ok((await chart.boundingBox())!.width > 300, 'the chart is drawn at its size');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
      assert.equal(download.suggestedFilename(), `books-2026-02-${org.cards.points}.csv`);
      const saved = readFileSync((await download.path())!, 'utf8');
      assert.equal(saved, booksCsv(monthlyBooks(app.deps, org.orgId, '2026-02', { cardId: org.cards.points })));
    } finally {
      await context.close();
    }
  });

  it('a month that has not begun comes back on its field', async () => {
    const { context, page } = await signedInPage(browser, app, asConsoleOrg(org), { width: 1280, next: '/console/report' });
    try {
      // The month picker offers no later month (max); a typed address is the way to send one.
      assert.equal(await page.getByLabel('Month').getAttribute('max'), '2026-03');
      await page.goto(`${app.url}/console/report?month=2026-09&card=${org.cards.points}`);
      const month = page.getByLabel('Month');
      assert.equal(await month.getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('#f-month-error').textContent(), '2026-09 has not begun yet.');
      assert.equal(await page.getByRole('table').count(), 0);
    } finally {
      await context.close();
    }
  });

  it('in German: the pickers, the table, the chart and the watch list as a German admin finds them', async () => {
    const { context, page } = await signedInPage(browser, app, asConsoleOrg(org), { width: 1280, next: '/console/settings/account' });
    const setLanguage = async (label: string, language: 'Deutsch' | 'English', save: string) => {
      await page.goto(`${app.url}/console/settings/account`);
      await page.getByLabel(label).selectOption({ label: language });
      await page.getByRole('button', { name: save }).click();
      await page.waitForURL(/saved=1/);
    };
    try {
      await setLanguage('Console language', 'Deutsch', 'Save');
      await page.goto(`${app.url}/console/report`);
      await page.getByRole('heading', { name: 'Bericht', level: 1 }).waitFor();
      await page.getByLabel('Monat').fill('2026-02');
      await page.getByLabel('Karte', { exact: true }).selectOption({ label: 'Coffee points' });
      await page.getByRole('button', { name: 'Anzeigen' }).click();
      await page.getByRole('heading', { name: 'Coffee points · Februar 2026', level: 2 }).waitFor();
      const expected = monthlyBooks(app.deps, org.orgId, '2026-02', { cardId: org.cards.points }).cards[0]!;
      const table = page.getByRole('table', { name: 'Die Bücher von Coffee points im Februar 2026' });
      const closing = (await table.getByRole('row', { name: /^Endbestand/ }).getByRole('cell').allTextContents()).map((t) => t.trim());
      assert.equal(closing[0], new Intl.NumberFormat('de-DE').format(expected.units.closing / 100));
      assert.match(closing[1]!, /^[\d.]+,\d\d\u00a0€$/);
      await page.getByRole('img', { name: 'Bewegungen von Coffee points im Februar 2026, in Punkten' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'CSV herunterladen' }).count(), 1);

      await page.goto(`${app.url}/console/watch-list`);
      await page.getByRole('heading', { name: 'Beobachtungsliste', level: 1 }).waitFor();
      const day = page.getByRole('region', { name: /· Mo\., 2\. März/ });
      assert.equal(await day.getByRole('row').count(), 1 + 8);
      assert.deepEqual(await day.getByRole('columnheader').allTextContents(), ['Uhrzeit', 'Kanal', 'Mitarbeiter', 'Gutschrift']);
    } finally {
      await setLanguage('Sprache der Verwaltung', 'English', 'Speichern').catch(() => undefined);
      await context.close();
    }
  });

  it('the report and the watch list fit a phone: nothing scrolls sideways', async () => {
    const { context, page } = await signedInPage(browser, app, asConsoleOrg(org), { width: 390 });
    try {
      for (const path of [`/console/report?month=2026-02&card=${org.cards.points}`, `/console/report?month=2026-01&card=${org.cards.prepaid}`, '/console/watch-list']) {
        await page.goto(`${app.url}${path}`);
        const width = (await page.evaluate('document.scrollingElement.scrollWidth')) as number;
        assert.ok(width <= 390, `${path}: the page is ${width} px wide`);
      }
      const day = page.getByRole('region', { name: /· Mon 2 Mar/ });
      assert.equal(await day.getByRole('row').count(), 1 + 8, 'the 8 awards of the busy customer');
    } finally {
      await context.close();
    }
  });
});
