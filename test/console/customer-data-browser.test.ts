// A customer's own data in real headless Chromium, found by role and label as staff find it: the
// console's card QR, edit, "Send card by email" and "Delete personal data" with its confirmation;
// the counter's "Show card QR" and "Send card by email" on an open customer. Mail goes to a real
// SMTP server on a local port.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { customersRepo } from '../../src/customers/repo';
import { installUrl } from '../../src/customers/install-url';
import { qrSvg } from '../../src/wallet/qr';
import { launchBrowser } from '../support/browser';
import { signedInPage } from '../support/console';
import { startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from '../support/mail';
import { apiCustomer, seedCounterOrg, unlockedCounter, type CounterOrg } from '../counter/support';

let app: MailTestApp;
let smtp: TestSmtpServer;
let org: CounterOrg;
let browser: Browser;
let page: Page;

before(async () => {
  smtp = await startSmtpServer();
  app = await startMailApp(smtp);
  org = await seedCounterOrg(app, 'Browser Data Café');
  browser = await launchBrowser();
  ({ page } = await signedInPage(browser, app, org));
});
after(async () => {
  await browser?.close();
  await app?.close();
  await smtp?.close();
});

/** The QR's dark modules: the path the SVG draws them with (the browser writes the markup its own way). */
const modules = (svg: unknown) => (svg as { querySelector(s: string): { getAttribute(n: string): string } }).querySelector('path[stroke]').getAttribute('d');
const modulesOf = (svg: string) => /<path stroke="#000000" d="([^"]+)"/.exec(svg)![1];
const open = (passUserId: string) => page.goto(`${app.url}/console/customers/${passUserId}`);

describe('console: the customer’s card and data', () => {
  it('Show card QR: the install link’s QR, large, then back', async () => {
    const c = await apiCustomer(app, org, { name: 'Quinn QR', email: 'quinn@example.org' });
    await open(c.passUserId);
    await page.getByRole('link', { name: 'Show card QR' }).click();
    await page.getByRole('heading', { name: 'Coffee stamps', level: 1 }).waitFor();
    const url = installUrl(app.config, customersRepo(app.db).findByPassUserId(c.passUserId)!);
    const label = 'QR code of Quinn QR’s card: scan it with the phone’s camera';
    assert.equal(await page.getByRole('img', { name: label }).evaluate(modules), modulesOf(await qrSvg(url, label)), 'the QR of the install link');
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Quinn QR', level: 1 }).waitFor();
  });

  it('Edit details: a taken email is refused on its field; a good edit shows under Changes with who', async () => {
    await apiCustomer(app, org, { name: 'Taken Tom', email: 'tom@example.org' });
    const c = await apiCustomer(app, org, { name: 'Edna Edit', email: 'edna@example.org' });
    await open(c.passUserId);
    await page.getByRole('link', { name: 'Edit details' }).click();
    await page.getByLabel('Email').fill('tom@example.org');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByText('Another customer of this card (Taken Tom) has this email address').waitFor();
    assert.equal(await page.getByLabel('Email').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Name').fill('Edna Edited');
    await page.getByLabel('Email').fill('edna.new@example.org');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('status').filter({ hasText: 'Details saved' }).waitFor();
    const changes = page.getByRole('region', { name: 'Changes to the details' });
    await changes.getByText('Edna Edit → Edna Edited').waitFor();
    await changes.getByText(org.admin.email).waitFor();
  });

  it('Send card by email: the notice, then the email under Emails once the worker sent it', async () => {
    const c = await apiCustomer(app, org, { name: 'Mia Mail', email: 'mia@example.org' });
    await open(c.passUserId);
    const before = smtp.received.length;
    await page.getByRole('button', { name: 'Send card by email' }).click();
    await page.getByRole('status').filter({ hasText: 'The card is on its way by email' }).waitFor();
    await app.worker.idle();
    assert.equal(smtp.received.length, before + 1);
    assert.deepEqual(smtp.received.at(-1)!.to, ['mia@example.org']);
    await page.reload();
    const emails = page.getByRole('region', { name: 'Emails' });
    await emails.getByText('mia@example.org').waitFor();
    await emails.getByText('Sent', { exact: true }).waitFor();
  });

  it('Delete personal data: a confirmation step, then the customer is gone', async () => {
    const c = await apiCustomer(app, org, { name: 'Dora Delete', email: 'dora@example.org' });
    await open(c.passUserId);
    await page.getByRole('link', { name: 'Delete personal data' }).click();
    await page.getByRole('heading', { name: 'Delete the personal data of Dora Delete?' }).waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Dora Delete', level: 1 }).waitFor();
    assert.equal(customersRepo(app.db).findByPassUserId(c.passUserId)!.erasedAt, null, 'cancelled: nothing happened');

    await page.getByRole('link', { name: 'Delete personal data' }).click();
    await page.getByRole('button', { name: 'Delete personal data' }).click();
    await page.getByRole('heading', { name: 'Personal data deleted', level: 1 }).waitFor();
    const res = await open(c.passUserId);
    assert.equal(res!.status(), 404);
  });
});

describe('counter: an open customer’s card', () => {
  it('Show card QR for the member to scan, back to the customer, and Send card by email', async () => {
    const c = await apiCustomer(app, org, { name: 'Carl Counter', email: 'carl@example.org' });
    const { context, page: counter } = await unlockedCounter(browser, app.url, org, { width: 390, height: 844 });
    await counter.getByLabel('Pass code, name, phone or email').fill('carl@example.org');
    await counter.getByRole('button', { name: 'Find' }).click();
    await counter.getByRole('heading', { name: 'Carl Counter', level: 2 }).waitFor();

    await counter.getByRole('button', { name: 'Show card QR' }).click();
    await counter.getByRole('heading', { name: 'Carl Counter’s card' }).waitFor();
    const url = installUrl(app.config, customersRepo(app.db).findByPassUserId(c.passUserId)!);
    const label = 'QR code of Carl Counter’s card: scan it with the phone’s camera';
    assert.equal(await counter.getByRole('img', { name: label }).evaluate(modules), modulesOf(await qrSvg(url, label)), 'the QR of the install link');
    await counter.getByRole('button', { name: 'Back to Carl Counter' }).click();
    await counter.getByRole('heading', { name: 'Carl Counter', level: 2 }).waitFor();

    const before = smtp.received.length;
    await counter.getByRole('button', { name: 'Send card by email' }).click();
    await counter.getByRole('status').filter({ hasText: 'Card emailed to c***l@example.org' }).waitFor();
    await app.worker.idle();
    assert.equal(smtp.received.length, before + 1);
    assert.deepEqual(smtp.received.at(-1)!.to, ['carl@example.org']);
    const [row] = app.db.prepare("SELECT requested_via, status FROM mail_sends WHERE customer_id = ?").all(c.passUserId) as { requested_via: string; status: string }[];
    assert.deepEqual(row, { requested_via: 'scan', status: 'sent' });
    await context.close();
  });
});
