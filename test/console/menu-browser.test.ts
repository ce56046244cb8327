// The console's section menu on a phone (390 px wide), and the longer German one on a laptop, in
// real headless Chromium: every section in sight at once, nothing scrolling sideways, neither the
// page nor the menu itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Narrow Café');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const SECTIONS = ['Dashboard', 'Cards', 'Customers', 'Messages', 'Report', 'Watch list', 'API keys', 'Webhooks', 'Staff', 'Settings', 'Help'];
const PHONE = 390;

describe('the console menu on a phone', () => {
  it('shows every section within 390 px on every section’s page, and nothing scrolls sideways', async () => {
    const { context, page } = await signedInPage(browser, app, org, { width: PHONE, next: '/console/dashboard' });
    for (const path of ['/console/dashboard', '/console/cards', '/console/customers', '/console/messages', '/console/report', '/console/watch-list', '/console/keys', '/console/webhooks', '/console/staff', '/console/settings', '/console/help/dashboard']) {
      await page.goto(`${app.url}${path}`);
      const menu = page.getByRole('navigation', { name: 'Console sections' });
      assert.deepEqual(await menu.getByRole('link').allTextContents(), SECTIONS, path);
      for (const name of SECTIONS) {
        const link = menu.getByRole('link', { name, exact: true });
        const box = (await link.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= PHONE, `${path}: ${name} lies within the screen (${box.x}..${box.x + box.width})`);
        assert.ok(box.height >= 40, `${path}: ${name} is a tap target of ${box.height} px`);
      }
      const widths = (await page.evaluate(`({
        page: document.scrollingElement.scrollWidth,
        menu: document.querySelector('nav.nav ul').scrollWidth,
        menuBox: document.querySelector('nav.nav ul').clientWidth,
      })`)) as { page: number; menu: number; menuBox: number };
      assert.ok(widths.page <= PHONE, `${path}: the page is ${widths.page} px wide`);
      assert.ok(widths.menu <= widths.menuBox, `${path}: the menu's list is ${widths.menu} px in a box of ${widths.menuBox}`);
    }
    await context.close();
  });
});

describe('the German console menu on a laptop', () => {
  it('wraps instead of scrolling at 1024 and 1280 px: every section, Hilfe included, within the window', async () => {
    const german = await seedConsoleOrg(app, 'Breites Café');
    app.db.prepare('UPDATE admins SET language = ? WHERE email = ?').run('de', german.admin.email);
    for (const width of [1024, 1280]) {
      const { context, page } = await signedInPage(browser, app, german, { width, next: '/console/webhooks' });
      const menu = page.getByRole('navigation', { name: 'Bereiche der Verwaltung' });
      const names = await menu.getByRole('link').allTextContents();
      assert.equal(names.length, SECTIONS.length);
      assert.ok(names.includes('Hilfe'), names.join(', '));
      for (const name of names) {
        const box = (await menu.getByRole('link', { name, exact: true }).boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= width, `${width} px: ${name} lies within the window (${box.x}..${box.x + box.width})`);
      }
      const widths = (await page.evaluate(`({ menu: document.querySelector('nav.nav ul').scrollWidth, menuBox: document.querySelector('nav.nav ul').clientWidth })`)) as { menu: number; menuBox: number };
      assert.ok(widths.menu <= widths.menuBox, `${width} px: the menu's list is ${widths.menu} px in a box of ${widths.menuBox}`);
      await context.close();
    }
  });
});
