// The console's staff section as an owner uses it: add with a PIN,
// refusals on the PIN field, re-PIN, rename, disable; the counter's link and QR; and each member's
// counter activity per day of the shop, read from the ledger.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { earn, redeem, adjust } from '../../src/loyalty/service';
import { writeOrgSettings } from '../../src/orgs/settings';
import { listStaff, staffByPin } from '../../src/staff/service';
import { staffActivity } from '../../src/staff/activity';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, signedInPage, startTestApp } from '../support/console';
import { addCustomer } from '../support/ledger-fixtures';

let app: TestApp;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const HOUR = 3_600_000;
const staffCount = (orgId: string) => listStaff(app.deps, orgId).length;

describe('staff in the console', () => {
  it('adds a member; a taken PIN and a PIN with letters come back on the PIN field, writing nothing', async () => {
    const org = await seedConsoleOrg(app, 'Staff Café', undefined, { staff: [{ name: 'Sam', pin: '2468' }] });
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/staff' });

    const refusals: { name: string; pin: string; field: string; message: RegExp }[] = [
      { name: 'Robin', pin: '2468', field: 'pin', message: /^Another staff member of this organisation has this PIN; choose another$/ },
      { name: 'Robin', pin: '12ab', field: 'pin', message: /^A PIN is 4 to 8 digits$/ },
      { name: 'Robin', pin: '123', field: 'pin', message: /^A PIN is 4 to 8 digits$/ },
      { name: '  ', pin: '1357', field: 'name', message: /^Enter a name$/ },
    ];
    for (const r of refusals) {
      await page.getByLabel('Name').fill(r.name);
      await page.getByLabel('PIN', { exact: true }).fill(r.pin);
      await page.getByRole('button', { name: 'Add staff member' }).click();
      assert.match((await page.locator(`#f-${r.field}-error`).textContent())!.trim(), r.message, `${r.name}/${r.pin}`);
      assert.equal(await page.locator(`#f-${r.field}`).getAttribute('aria-invalid'), 'true');
      assert.equal(staffCount(org.orgId), 1, 'nothing written');
    }

    await page.getByLabel('Name').fill('Robin');
    await page.getByLabel('PIN', { exact: true }).fill('13579');
    await page.getByRole('button', { name: 'Add staff member' }).click();
    await page.getByRole('status').filter({ hasText: 'Robin is added' }).waitFor();
    assert.ok(!page.url().includes('13579'), 'the PIN never travels in a URL');
    assert.equal(staffByPin(app.deps, org.orgId, '13579')?.name, 'Robin', 'the PIN unlocks as Robin');
    assert.deepEqual(await page.getByRole('row').filter({ hasText: 'Robin' }).getByRole('cell').first().textContent(), 'Robin');
    await context.close();
  });

  it('changes a PIN, renames, disables and enables a member', async () => {
    const org = await seedConsoleOrg(app, 'Manage Café', undefined, { staff: [{ name: 'Sam', pin: '2468' }, { name: 'Kim', pin: '1111' }] });
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/staff' });
    await page.getByRole('link', { name: 'Manage Sam' }).click();

    await page.getByLabel('New PIN').fill('1111');
    await page.getByRole('button', { name: 'Change PIN' }).click();
    assert.match((await page.locator('#f-pin-error').textContent())!, /Another staff member of this organisation has this PIN/);
    assert.equal(staffByPin(app.deps, org.orgId, '2468')?.name, 'Sam', 'the old PIN still works after a refusal');
    await page.getByLabel('New PIN').fill('97531');
    await page.getByRole('button', { name: 'Change PIN' }).click();
    await page.getByRole('status').filter({ hasText: "Sam's PIN is changed" }).waitFor();
    assert.equal(staffByPin(app.deps, org.orgId, '2468'), undefined, 'the old PIN no longer works');
    assert.equal(staffByPin(app.deps, org.orgId, '97531')?.name, 'Sam');

    await page.getByLabel('Name', { exact: true }).fill('Samantha');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('status').filter({ hasText: 'Renamed to Samantha.' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Samantha Active');

    await page.getByRole('button', { name: 'Disable Samantha' }).click();
    await page.getByRole('status').filter({ hasText: 'Samantha is disabled' }).waitFor();
    assert.equal(staffByPin(app.deps, org.orgId, '97531'), undefined, 'a disabled member cannot unlock the counter');
    await page.getByRole('link', { name: '← Staff' }).click();
    assert.match((await page.getByRole('row').filter({ hasText: 'Samantha' }).textContent())!, /Disabled/);
    await page.getByRole('link', { name: 'Manage Samantha' }).click();
    await page.getByRole('button', { name: 'Enable Samantha' }).click();
    await page.getByRole('status').filter({ hasText: 'Samantha is enabled' }).waitFor();
    assert.equal(staffByPin(app.deps, org.orgId, '97531')?.name, 'Samantha');
    await context.close();
  });

  it('shows the counter link and its QR code', async () => {
    const org = await seedConsoleOrg(app, 'Counter Café');
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/staff' });
    const counter = page.getByRole('region', { name: 'The counter' });
    const link = `${app.config.publicUrl}/counter/${org.orgId}`;
    assert.equal(await counter.getByRole('link', { name: link }).getAttribute('href'), link);
    assert.match((await counter.textContent())!, /Open this on the shop's tablet; staff unlock it with their PIN\./);
    assert.equal(await counter.locator('svg[role="img"]').count(), 1, 'the QR code is drawn inline');
    await context.close();
  });

  it("shows what each member awarded and redeemed per day of the shop, units apart, from the counter's ledger rows", async () => {
    const org = await seedConsoleOrg(app, 'Activity Café', undefined, { staff: [{ name: 'Sam', pin: '2468' }, { name: 'Kim', pin: '1357' }] });
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' }))();
    const [kim, sam] = listStaff(app.deps, org.orgId).map((s) => ({ id: s.id, name: s.name }));
    const stamps = addCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 12 });
    const points = addCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance: 300 });
    const credit = addCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, balance: 0 });
    const testStamps = addCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, livemode: false });
    const at = (iso: string) => app.clock.set(Date.parse(iso));
    const scan = (who: typeof sam) => ({ source: 'scan' as const, staff: who });

    // Day one in Berlin (UTC+1): 2026-03-10, 22:30 UTC is already 2026-03-10 23:30 local.
    at('2026-03-10T09:00:00Z');
    earn(app.deps, { ...scan(sam!), customer: stamps, type: 'stamps', basis: { from: 'amount', amount: 200 } });
    earn(app.deps, { ...scan(sam!), customer: points, type: 'points', basis: { from: 'amount', amount: 2500 } });
    at('2026-03-10T22:30:00Z');
    earn(app.deps, { ...scan(sam!), customer: credit, type: 'points', basis: { from: 'amount', amount: 1050 } });
    // 23:30 UTC is 00:30 on the 11th in Berlin: the next day of the shop.
    at('2026-03-10T23:30:00Z');
    redeem(app.deps, { ...scan(sam!), customer: stamps, type: 'reward' });
    earn(app.deps, { ...scan(kim!), customer: stamps, type: 'stamps', basis: { from: 'amount', amount: 100 } });
    at('2026-03-11T12:00:00Z');
    adjust(app.deps, { ...scan(kim!), customer: stamps, balanceCorrection: -100, note: 'undo' });
    redeem(app.deps, { ...scan(kim!), customer: points, type: 'points', amount: 10000 });
    // Not counter rows, or not this mode, or too old: none of them may show.
    earn(app.deps, { source: 'api', customer: stamps, type: 'stamps', basis: { from: 'amount', amount: 300 } });
    earn(app.deps, { ...scan(kim!), customer: testStamps, type: 'stamps', basis: { from: 'amount', amount: 700 } });
    at('2026-02-08T12:00:00Z');
    earn(app.deps, { ...scan(sam!), customer: points, type: 'points', basis: { from: 'amount', amount: 900 } });
    at('2026-03-11T18:00:00Z');

    const { context, page } = await signedInPage(browser, app, org, { next: '/console/staff' });
    const table = page.getByRole('region', { name: /Counter activity, last 30 days/ }).getByRole('table');
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim())));
    assert.deepEqual(rows, [
      ['2026-03-11', 'Kim', '1 award 1 stamp', '1 redemption 100 points', '1 correction −1 stamp'],
      ['2026-03-11', 'Sam', '—', '1 redemption 10 stamps', '—'],
      ['2026-03-10', 'Sam', '3 awards 2 stamps · 25 points · 10.50 credit', '—', '—'],
    ]);
    assert.match((await page.locator('main').textContent())!, /per day of your shop \(Europe\/Berlin\)/);

    await page.getByRole('link', { name: 'Manage Kim' }).click();
    const own = await page.getByRole('table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelector('td')!.textContent!.trim()));
    assert.deepEqual(own, ['2026-03-11'], "a member's page shows their days only");

    // The test side shows the test sandbox's counter rows, and says so.
    await page.getByRole('button', { name: 'Switch to test data' }).click();
    await page.goto(`${app.url}/console/staff`);
    const testRegion = page.getByRole('region', { name: /Test data: Counter activity/ });
    const testRows = await testRegion.getByRole('table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim())));
    assert.deepEqual(testRows, [['2026-03-11', 'Kim', '1 award 7 stamps', '—', '—']]);
    await context.close();
  });
});

describe('staff over HTTP', () => {
  it("another org's staff member cannot be seen or changed", async () => {
    const mine = await seedConsoleOrg(app, 'Own Café');
    const theirs = await seedConsoleOrg(app, 'Their Café', undefined, { staff: [{ name: 'Jo', pin: '4321' }] });
    const [jo] = listStaff(app.deps, theirs.orgId);
    const client = new ConsoleClient(app);
    await client.signIn(mine.admin.email, mine.admin.password);
    const csrf = await client.csrfFrom('/console/staff');
    assert.equal((await client.request('GET', `/console/staff/${jo!.id}`)).status, 404);
    for (const [path, form] of [
      ['pin', { pin: '9999' }],
      ['name', { name: 'Mallory' }],
      ['status', { status: 'disabled' }],
    ] as const) {
      const res = await client.request('POST', `/console/staff/${jo!.id}/${path}`, { form: { _csrf: csrf, ...form } });
      assert.equal(res.status, 404, path);
    }
    assert.deepEqual(listStaff(app.deps, theirs.orgId).map((s) => [s.name, s.status]), [['Jo', 'active']]);
    assert.equal(staffByPin(app.deps, theirs.orgId, '4321')?.name, 'Jo');
  });

  it('activity counts days of the shop across a daylight-saving change', () => {
    const org = app.seed({ orgs: [{ name: 'DST Café', cards: [{ ref: 's', name: 'S', passType: 'stamp_card', reward: { name: 'R', cost: 10 } }], staff: [{ name: 'Lee', pin: '8642' }] }] }).orgs[0]!;
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' }))();
    const [lee] = listStaff(app.deps, org.orgId);
    const customer = addCustomer(app, { orgId: org.orgId, cardId: org.cards[0]!.cardId });
    // Berlin springs forward on 2026-03-29: that day has 23 hours. 21:59 UTC is 23:59 local (CEST), 22:00 UTC is the 30th.
    for (const iso of ['2026-03-28T23:00:00Z', '2026-03-29T21:59:00Z', '2026-03-29T22:00:00Z']) {
      app.clock.set(Date.parse(iso));
      earn(app.deps, { source: 'scan', staff: { id: lee!.id, name: lee!.name }, customer, type: 'stamps', basis: { from: 'amount', amount: 100 } });
    }
    app.clock.set(Date.parse('2026-03-30T10:00:00Z') + 2 * HOUR);
    const days = staffActivity(app.deps, { orgId: org.orgId, livemode: true }, 'Europe/Berlin').map((d) => [d.date, d.awarded.count]);
    assert.deepEqual(days, [
      ['2026-03-30', 1],
      ['2026-03-29', 2],
    ]);
  });
});
