// The counter in real headless Chromium, as staff use it: a PIN, a fake
// camera filming a real customer's pass QR, a keyboard-wedge scanner, stamps and a reward that
// reach the API, the ledger and a webhook receiver, undo, enroll with its QR, and the daily cap.
// Controls are found by role and label.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { writeOrgSettings } from '../../src/orgs/settings';
import { launchBrowser } from '../support/browser';
import { startReceiver, type Receiver } from '../support/receiver';
import { createEndpoint, startWebhookApp, type WebhookTestApp } from '../support/webhooks';
import { apiCustomer, ledgerRows, seedCounterOrg, staffId, STAFF, unlock, unlockedCounter, type CounterOrg } from './support';
import { writeQrY4m } from './y4m';

let app: WebhookTestApp;
let org: CounterOrg;
let receiver: Receiver;
let browser: Browser;
let filmed: Awaited<ReturnType<typeof apiCustomer>>;
const dir = mkdtempSync(path.join(tmpdir(), 'wl-counter-'));

before(async () => {
  app = await startWebhookApp();
  org = await seedCounterOrg(app);
  receiver = await startReceiver();
  await createEndpoint(app, org.keys.live, receiver.url, ['*']);
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { counter: { lockAfterMinutes: 5, staffDailyAwardCap: null, customerDailyAwardCap: null } }))();
  // The web pass's QR encodes the customer's scan code: film exactly that.
  filmed = await apiCustomer(app, org, { name: 'Fiona Filmed' });
  const film = path.join(dir, 'pass.y4m');
  writeQrY4m(film, filmed.scanCode);
  browser = await launchBrowser({ fakeCamera: film });
});
after(async () => {
  await browser?.close();
  await receiver?.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const customerHeading = (page: Page, name: string) => page.getByRole('heading', { name, level: 2 });
const confirmation = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

describe('counter in the browser', () => {
  it('unlocks with the number pad; a wrong PIN is said plainly', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(org.counterUrl(app.url));
    await page.getByLabel('PIN', { exact: true }).fill('9999');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('alert').filter({ hasText: 'That PIN is not right. Try again.' }).waitFor();
    for (const digit of STAFF[0]!.pin) await page.getByRole('group', { name: 'Number pad' }).getByRole('button', { name: digit, exact: true }).click();
    assert.equal(await page.getByLabel('PIN', { exact: true }).inputValue(), STAFF[0]!.pin);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Find a customer' }).waitFor();
    assert.equal(await page.locator('#counter-staff').textContent(), 'Staff: Sam');
    await context.close();
  });

  it('pauses unlocking on this device after 5 wrong PINs, in words, while another device still unlocks', async () => {
    const local = await seedCounterOrg(app, 'Lockout Café');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(local.counterUrl(app.url));
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('PIN', { exact: true }).fill(`000${i}`);
      await page.getByRole('button', { name: 'Unlock' }).click();
      await page.getByRole('alert').waitFor();
    }
    await page.getByRole('alert').filter({ hasText: 'Too many wrong PINs on this device. Unlocking is paused: try again in 15 minutes, or ask the owner to lift the pause on the Staff page' }).waitFor();
    await page.getByLabel('PIN', { exact: true }).fill(STAFF[0]!.pin);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('alert').filter({ hasText: 'Too many wrong PINs on this device' }).waitFor();
    await context.close();
    const other = await unlockedCounter(browser, app.url, local);
    await other.context.close();
  });

  it('a fake-camera scan of a real customer’s pass QR opens the customer', async () => {
    const { context, page } = await unlockedCounter(browser, app.url, org);
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await customerHeading(page, 'Fiona Filmed').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#camera').isHidden(), true, 'the camera closes after a read');
    await context.close();
  });

  it('a keyboard-wedge scan opens the customer wherever focus is, without pressing the focused button', async () => {
    const wedged = await apiCustomer(app, org, { name: 'Walter Wedge' });
    const { context, page } = await unlockedCounter(browser, app.url, org);
    await page.getByRole('button', { name: 'Find', exact: true }).focus();
    await wedgeScan(page, wedged.scanCode);
    await customerHeading(page, 'Walter Wedge').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0, 'the Find button was not pressed by the scanner’s Enter');

    // In the search field, half-typed: the scan takes back what it typed there.
    await page.getByLabel('Pass code, name, phone or email').fill('wal');
    await page.getByLabel('Pass code, name, phone or email').focus();
    await wedgeScan(page, filmed.scanCode);
    await customerHeading(page, 'Fiona Filmed').waitFor();
    assert.equal(await page.getByLabel('Pass code, name, phone or email').inputValue(), 'wal');
    await context.close();
  });

  it('three stamps and a reward reach the API balance, the ledger and the webhook receiver; undo reverses', async () => {
    const anna = await apiCustomer(app, org, { name: 'Anna Stamps', initial: 8 });
    const { context, page } = await unlockedCounter(browser, app.url, org);
    await page.getByLabel('Pass code, name, phone or email').fill('Anna Stamps');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await customerHeading(page, 'Anna Stamps').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Redeem Free coffee (10 stamps)' }).isDisabled(), true, 'the reward cannot be redeemed while it is out of reach');
    for (const after of [9, 10, 11]) {
      await page.getByRole('button', { name: '+1 stamp', exact: true }).click();
      await confirmation(page, `Anna Stamps now has ${after} stamps.`).waitFor();
    }
    await page.getByRole('button', { name: 'Redeem Free coffee (10 stamps)' }).click();
    await confirmation(page, 'Free coffee redeemed · Anna Stamps now has 1 stamp.').waitFor();

    const api = await app.request('GET', `/api/v1/customers/pu_${anna.passUserId}`, { key: org.keys.live });
    assert.deepEqual(api.body.balance, { stamps: 1 });
    const sam = { id: staffId(app, org.orgId, 'Sam'), name: 'Sam' };
    assert.deepEqual(ledgerRows(app, anna.passUserId).slice(1).map((r) => [r.kind, r.change, r.source, r.staffId]), [
      ['earn', 100, 'scan', sam.id],
      ['earn', 100, 'scan', sam.id],
      ['earn', 100, 'scan', sam.id],
      ['redeem', -1000, 'scan', sam.id],
    ]);
    await page.getByRole('button', { name: /^Undo Free coffee redeemed/ }).click();
    await confirmation(page, 'Undone: +10 stamps · Anna Stamps now has 11 stamps.').waitFor();

    await app.worker.idle();
    const events = () => receiver.requests.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }).filter((e) => e.data.passUserId === anna.passUserId && e.type !== 'customer.enrolled');
    await waitUntil(() => events().length >= 6);
    assert.deepEqual(events().map((e) => [e.type, e.data.change, e.data.balance]), [
      ['balance.updated', 1, 9],
      ['balance.updated', 1, 10],
      ['balance.updated', 1, 11],
      ['reward.redeemed', -10, 1],
      ['balance.updated', -10, 1],
      ['balance.updated', 10, 11],
    ]);
    assert.ok(events().every((e) => e.data.source === 'scan' && JSON.stringify(e.data.staff) === JSON.stringify(sam)));
    await context.close();
  });

  it('enrolls at the counter: the card’s fields, then the install link as a big QR; a known email shows the member', async () => {
    const { context, page } = await unlockedCounter(browser, app.url, org, { width: 390, height: 844 });
    await page.getByRole('button', { name: 'New customer' }).click();
    await page.getByRole('heading', { name: 'New customer' }).waitFor();
    await page.getByRole('button', { name: 'Enroll' }).click();
    await page.getByLabel('Name', { exact: true }).and(page.locator('[aria-invalid="true"]')).waitFor();
    assert.match((await page.locator('#f-email-error').textContent())!, /Enter the customer’s email/);
    assert.match((await page.locator('#f-q-memberNo-error').textContent())!, /This question must be answered/);

    await page.getByLabel('Name', { exact: true }).fill('Nina New');
    await page.getByLabel('Email', { exact: true }).fill('nina@example.com');
    await page.getByLabel('Member number').fill('4711');
    await page.getByLabel('Other email').fill('nina.other@example.com');
    await page.getByLabel('Cup size').selectOption('L');
    await page.getByLabel('Newsletter').check();
    await page.getByRole('button', { name: 'Enroll' }).click();
    await page.getByRole('heading', { name: 'Nina New is enrolled on Coffee stamps' }).waitFor();
    await page.getByRole('img', { name: /QR code of Nina New’s card/ }).waitFor();
    const row = app.db.prepare("SELECT id, source, custom_fields AS fields, install_code AS code FROM customers WHERE email = 'nina@example.com'").get() as { id: string; source: string; fields: string; code: string };
    assert.equal(row.source, 'scan');
    assert.deepEqual(JSON.parse(row.fields), { memberNo: 4711, altEmail: 'nina.other@example.com', size: 'L', newsletter: true });
    assert.match((await page.locator('.counter-link').textContent())!, new RegExp(`/get-pass/.+${row.code}`));

    await page.getByRole('button', { name: 'Open Nina New’s card' }).click();
    await customerHeading(page, 'Nina New').waitFor();
    await page.getByRole('button', { name: 'New customer' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Nina Again');
    await page.getByLabel('Email', { exact: true }).fill('NINA@example.com');
    await page.getByLabel('Member number').fill('4711');
    await page.getByLabel('Other email').fill('nina.other@example.com');
    await page.getByRole('button', { name: 'Enroll' }).click();
    await page.getByRole('heading', { name: 'Nina New is already a member of Coffee stamps' }).waitFor();
    assert.equal((app.db.prepare("SELECT count(*) AS n FROM customers WHERE email_norm = 'nina@example.com'").get() as { n: number }).n, 1);
    await context.close();
  });

  it('refuses an award past the owner’s daily cap with its reason', async () => {
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { counter: { lockAfterMinutes: 5, staffDailyAwardCap: null, customerDailyAwardCap: 1 } }))();
    try {
      const capped = await apiCustomer(app, org, { name: 'Cora Capped' });
      const { context, page } = await unlockedCounter(browser, app.url, org);
      await page.getByLabel('Pass code, name, phone or email').fill(capped.scanCode);
      await page.getByLabel('Pass code, name, phone or email').press('Enter');
      await page.getByRole('button', { name: '+1 stamp', exact: true }).click();
      await confirmation(page, 'Cora Capped now has 1 stamp.').waitFor();
      await page.getByRole('button', { name: '+2 stamps', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'Cora Capped has had 1 award at the counter today, the most the owner allows one customer in a day (1)' }).waitFor();
      assert.equal(ledgerRows(app, capped.passUserId).length, 1);
      await context.close();
    } finally {
      app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { counter: { lockAfterMinutes: 5, staffDailyAwardCap: null, customerDailyAwardCap: null } }))();
    }
  });

  it('locks after the idle time: the next action shows the PIN screen', async () => {
    const { context, page } = await unlockedCounter(browser, app.url, org);
    app.clock.advance(6 * 60_000);
    await page.getByLabel('Pass code, name, phone or email').fill(filmed.scanCode);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('heading', { name: 'Enter your PIN' }).waitFor();
    await unlock(page, STAFF[1]!.pin);
    assert.equal(await page.locator('#counter-staff').textContent(), 'Staff: Alex');
    await context.close();
  });
});

/**
 * A keyboard-wedge scanner: the code as real key events 10 ms apart, then Enter. Chromium takes
 * each event's time from the message (`timestamp`), so a busy test machine cannot stretch the
 * burst into a person's typing: the hardware's timing is what the page sees, as with a scanner.
 */
let wedgeClock = 0;
async function wedgeScan(page: Page, code: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  // Event times only move forward, as a real keyboard's do: a scan starts after the last one ended.
  let at = Math.max(Date.now() / 1000, wedgeClock + 1);
  const key = async (props: { key: string; text: string; unmodifiedText?: string; code?: string; windowsVirtualKeyCode?: number }) => {
    at += 0.01;
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...props, timestamp: at });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: props.key, code: props.code, windowsVirtualKeyCode: props.windowsVirtualKeyCode, timestamp: at + 0.003 });
  };
  for (const ch of code) await key({ key: ch, text: ch, unmodifiedText: ch });
  await key({ key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' });
  wedgeClock = at;
  await cdp.detach();
}

async function waitUntil(check: () => boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
