// The counter of a German shop in real headless Chromium, at a phone's width: staff unlock with
// the German number pad, find a customer, award with a promotion running, redeem a reward in one
// tap, and the script's own notices (the offline queue, its badge, the service worker's offline
// page) are German too. Controls are found by their German role and label.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { writeOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { apiCustomer, ledgerRows, restartableServer, seedCounterOrg, STAFF, type CounterOrg } from './support';

let app: TestApp;
let org: CounterOrg;
let browser: Browser;
let server: Awaited<ReturnType<typeof restartableServer>>;

before(async () => {
  app = await startTestApp();
  app.clock.set(Date.parse('2026-03-03T14:10:00Z')); // a Tuesday, 15:10 in Berlin
  org = await seedCounterOrg(app, 'Café Sonne');
  app.db.transaction(() =>
    writeOrgSettings(app.db, org.orgId, { language: 'de', currency: 'EUR', timeZone: 'Europe/Berlin', counter: { lockAfterMinutes: 30, staffDailyAwardCap: null, customerDailyAwardCap: null } }),
  )();
  const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, {
    key: org.keys.live,
    body: { rewards: [{ name: 'Kuchen', cost: 6, description: 'Ein Stück nach Wahl' }, { name: 'Kaffee', cost: 10 }, { name: 'Mittagessen', cost: 15 }] },
  });
  assert.equal(patched.status, 200, patched.text);
  const promotion = await app.request('POST', `/api/v1/cards/${org.cards.stamps}/promotions`, {
    key: org.keys.live,
    body: { name: 'Doppel-Dienstag', kind: 'multiplier', value: 2, startsAt: '2026-03-01', endsAt: '2026-03-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } },
  });
  assert.equal(promotion.status, 201, promotion.text);
  server = await restartableServer(app.deps);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await app?.close();
});

describe('counter in German in the browser', () => {
  it('unlocks, finds, awards and redeems in German; its offline notices are German too', async () => {
    const anna = await apiCustomer(app, org, { name: 'Anna Becker', initial: 7 });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(org.counterUrl(server.url));
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');

    await page.getByRole('button', { name: 'PIN anzeigen' }).click();
    await page.getByRole('button', { name: 'PIN verbergen', pressed: true }).waitFor();
    await page.getByLabel('PIN', { exact: true }).fill('9999');
    await page.getByRole('button', { name: 'Entsperren' }).click();
    await page.getByRole('alert').filter({ hasText: 'Diese PIN stimmt nicht. Bitte noch einmal.' }).waitFor();
    for (const digit of STAFF[0]!.pin) await page.getByRole('group', { name: 'Ziffernblock' }).getByRole('button', { name: digit, exact: true }).click();
    await page.getByRole('button', { name: 'Entsperren' }).click();
    await page.getByRole('heading', { name: 'Kunden finden' }).waitFor();
    assert.equal(await page.locator('#counter-staff').textContent(), 'Personal: Sam');

    await page.getByLabel('Kartencode, Name, Telefon, E-Mail').fill('Anna');
    await page.getByRole('button', { name: 'Suchen', exact: true }).click();
    await page.getByRole('heading', { name: 'Anna Becker', level: 2 }).waitFor();
    const promos = page.getByRole('region', { name: 'Aktion läuft gerade' });
    assert.equal((await promos.innerText()).replace(/\s+/g, ' ').trim(), 'Aktion läuft gerade Doppel-Dienstag · doppelte Stempel · bis 17:00 Uhr');
    const rewards = page.getByRole('region', { name: 'Prämien' });
    assert.equal(await rewards.getByRole('button', { name: 'Kaffee einlösen (10 Stempel)' }).isDisabled(), true);

    // An award: the promotion doubles it; the confirmation says so, in German.
    await page.getByRole('button', { name: '+1 Stempel', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '+2 Stempel (+1 Stempel durch Doppel-Dienstag) · Anna Becker hat jetzt 9 Stempel.' }).waitFor();
    await page.locator('#counter-panel[aria-busy="false"]').waitFor();
    // A reward in one tap.
    await rewards.getByRole('button', { name: 'Kuchen einlösen (6 Stempel)' }).click();
    await page.getByRole('status').filter({ hasText: 'Kuchen eingelöst · Anna Becker hat jetzt 3 Stempel.' }).waitFor();
    await page.locator('#counter-panel[aria-busy="false"]').waitFor();
    const kinds = ledgerRows(app, anna.passUserId).map((r) => `${r.kind} ${r.change} ${r.source}`);
    assert.deepEqual(kinds, ['initial 700 api', 'earn 200 scan', 'redeem -600 scan']);

    // The server goes away: the script's notices and its badge, from the page's German texts.
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.waitForFunction("caches.open('counter-offline-v1').then((c) => c.match(location.pathname + '/offline')).then(Boolean)");
    await server.stop();
    await page.getByRole('button', { name: '+1 Stempel', exact: true }).click();
    await page.locator('#queue-badge').filter({ hasText: '1 wartet' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Auf diesem Gerät gespeichert: +1 Stempel für Anna Becker. Wird gesendet, sobald der Server wieder erreichbar ist.' }).waitFor();
    assert.match((await page.locator('#counter-offline').textContent())!, /^Keine Verbindung zum Server\./);
    await server.start();
    await page.getByRole('status').filter({ hasText: '1 gespeicherte Buchung wurde gesendet.' }).waitFor({ timeout: 60_000 });
    assert.equal(ledgerRows(app, anna.passUserId).length, 4);

    // With no copy of the counter on the device (as after a lock), the worker shows the shop's offline page.
    await server.stop();
    await page.evaluate("caches.delete('counter-shell-v1')");
    await page.reload();
    await page.getByRole('heading', { name: 'Die Kasse erreicht den Server nicht' }).waitFor();
    // Nor the shop's offline page (it was never stored on this device): the worker's own page, in German too.
    await page.evaluate("caches.delete('counter-offline-v1')");
    await page.reload();
    await page.getByRole('heading', { name: 'Die Kasse erreicht den Server nicht' }).waitFor();
    assert.equal(await page.title(), 'Kasse offline');
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    await page.getByRole('link', { name: 'Noch einmal versuchen' }).waitFor();
    assert.equal(await page.evaluate("caches.has('counter-offline-v1')"), false, 'the page came from the worker itself');
    await server.start();
    await context.close();
  });
});
