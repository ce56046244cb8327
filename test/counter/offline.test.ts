// The offline queue in real Chromium: the server stops (its port closes), awards
// are kept in IndexedDB with the "n waiting" badge, a reload brings the page back from the service
// worker with nothing lost, and when the server is back each award is applied exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { writeOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { apiCustomer, ledgerRows, restartableServer, seedCounterOrg, STAFF, unlock, unlockedCounter, type CounterOrg } from './support';

let app: TestApp;
let org: CounterOrg;
let browser: Browser;
let server: Awaited<ReturnType<typeof restartableServer>>;

before(async () => {
  app = await startTestApp();
  org = await seedCounterOrg(app, 'Offline Café');
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { counter: { lockAfterMinutes: 30, staffDailyAwardCap: null, customerDailyAwardCap: null } }))();
  server = await restartableServer(app.deps);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await app?.close();
});

const badge = (page: Page) => page.locator('#queue-badge');

/** The service worker controls the page and the page shell is in its cache. */
async function offlineReady(page: Page): Promise<void> {
  // Strings run in the page (this file is type-checked without the DOM's types).
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await page.waitForFunction("navigator.serviceWorker.controller && caches.open('counter-shell-v1').then((c) => c.match(location.pathname)).then(Boolean)");
}

describe('counter offline queue', () => {
  it('keeps awards while the server is down, survives a reload, and applies each exactly once when it is back', async () => {
    const olga = await apiCustomer(app, org, { name: 'Olga Offline', initial: 10 });
    const { context, page } = await unlockedCounter(browser, server.url, org);
    await offlineReady(page);
    await page.getByLabel('Pass code, name, phone or email').fill(olga.scanCode);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('heading', { name: 'Olga Offline', level: 2 }).waitFor();

    await server.stop();
    for (const n of [1, 2, 3]) {
      await page.getByRole('button', { name: '+1 stamp', exact: true }).click();
      await badge(page).filter({ hasText: `${n} waiting` }).waitFor();
    }
    await page.getByRole('status').filter({ hasText: 'Saved on this device: +1 stamp for Olga Offline' }).waitFor();
    // Queued awards are recorded, and get their promotions, when they reach the server: the banner says so.
    assert.match((await page.locator('#counter-offline').textContent())!, /^No connection to the server\. .*sent when it is back; they get the promotions running then\. Redeeming needs the connection\.$/);
    await page.getByRole('button', { name: 'Redeem Free coffee (10 stamps)' }).click();
    await page.getByRole('alert').filter({ hasText: 'Redeeming needs the server, so nothing can be spent twice: nothing was redeemed.' }).waitFor();
    assert.equal(ledgerRows(app, olga.passUserId).length, 1, 'nothing reached the server');

    // A reload while the server is down: the page comes from the service worker, the queue from IndexedDB.
    await page.reload();
    await page.getByRole('heading', { name: 'Find a customer' }).waitFor();
    await badge(page).filter({ hasText: '3 waiting' }).waitFor();

    // A second tab of the same counter sends the same queue at the same time: still once each.
    const second = await context.newPage();
    await server.start();
    await second.goto(org.counterUrl(server.url));
    // Whichever tab sends first says so; the other finds the queue empty (or its sends replayed).
    const sentSays = (p: Page) => p.locator('#counter-message').textContent().then((t) => /saved awards? (was|were) sent/.test(t ?? ''));
    await waitUntil(async () => (await sentSays(page)) || (await sentSays(second)));
    await waitUntil(async () => (await badge(page).isHidden()) && (await badge(second).isHidden()));

    const rows = ledgerRows(app, olga.passUserId);
    assert.deepEqual(rows.map((r) => [r.kind, r.change, r.source]), [['initial', 1000, 'api'], ['earn', 100, 'scan'], ['earn', 100, 'scan'], ['earn', 100, 'scan']]);
    assert.equal(new Set(rows.slice(1).map((r) => r.idempotencyKey)).size, 3, 'three taps, three keys');
    const api = await app.request('GET', `/api/v1/customers/pu_${olga.passUserId}`, { key: org.keys.live });
    assert.deepEqual(api.body.balance, { stamps: 13 });
    await context.close();
  });

  it('sends a member’s queued awards only under their own session', async () => {
    const otto = await apiCustomer(app, org, { name: 'Otto Offline' });
    const { context, page } = await unlockedCounter(browser, server.url, org);
    await offlineReady(page);
    await page.getByLabel('Pass code, name, phone or email').fill(otto.scanCode);
    await page.getByLabel('Pass code, name, phone or email').press('Enter');
    await page.getByRole('heading', { name: 'Otto Offline', level: 2 }).waitFor();
    await server.stop();
    await page.getByRole('button', { name: '+2 stamps', exact: true }).click();
    await badge(page).filter({ hasText: '1 waiting' }).waitFor();
    // Sam's tab is gone and nobody is signed in; the server is back; Alex unlocks: the award waits for Sam.
    await page.close();
    await context.clearCookies();
    await server.start();
    const next = await context.newPage();
    await next.goto(org.counterUrl(server.url));
    await next.getByRole('status').filter({ hasText: '1 award made on this device is waiting to be sent. It goes out when Sam unlocks the counter.' }).waitFor();
    await unlock(next, STAFF[1]!.pin);
    await badge(next).filter({ hasText: '1 waiting' }).waitFor();
    await next.waitForTimeout(6_000); // a retry round passes
    assert.equal(ledgerRows(app, otto.passUserId).length, 0);
    await next.getByRole('button', { name: 'Lock' }).click();
    await unlock(next, STAFF[0]!.pin);
    await next.getByRole('status').filter({ hasText: '1 saved award was sent.' }).waitFor({ timeout: 60_000 });
    assert.equal(await badge(next).isHidden(), true);
    const rows = ledgerRows(app, otto.passUserId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.change, 200);
    await context.close();
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
