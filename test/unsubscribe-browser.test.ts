// The unsubscribe link of a birthday email, followed in real headless Chromium as the customer
// follows it from their mail program: the page asks, the button (found by its role and name)
// stops the emails, and the page says so. Nothing but the browser decides the POST's headers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { mimeParts, startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from './support/mail';
import { api, enrollWithConsent, runSweepJob, setTimeZone } from './support/programme';

const at = (iso: string) => Date.parse(iso);

let smtp: TestSmtpServer;
let app: MailTestApp;
let org: StandardOrg;
let browser: Browser;
let link: string;
let customerId: string;

before(async () => {
  smtp = await startSmtpServer();
  app = await startMailApp(smtp);
  org = seedStandardOrg(app);
  setTimeZone(app, org.orgId, 'UTC');
  app.clock.set(at('2026-01-01T09:00:00Z'));
  await api(app, org.keys.live).patchCard(org.cards.stamps, { birthday: { questionKey: 'birthday', units: 3 } });
  await runSweepJob(app);
  customerId = enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.stamps, {
    name: 'Greta Baker',
    email: 'greta@example.org',
    customFields: { memberNo: 7, altEmail: 'g@example.org', birthday: '1990-03-01' },
  }).passUserId;
  app.clock.set(at('2026-03-01T08:00:00Z'));
  await runSweepJob(app);
  await app.worker.idle();
  const text = mimeParts(smtp.received.find((m) => m.to.includes('greta@example.org'))!.raw).find((p) => p.type === 'text/plain')!.body.toString('utf8');
  // The link names INSTALL_BASE_URL; the test server listens on a port of its own.
  link = `${app.url}${new URL(/Unsubscribe: (\S+)/.exec(text)![1]!).pathname}`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
  await smtp?.close();
});

async function pageAt(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  return context.newPage();
}

const unsubscribed = () => app.db.prepare('SELECT count(*) AS n FROM mail_unsubscribes WHERE customer_id = ?').get(customerId) as { n: number };
const fitsWidth = async (page: Page) => (await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')) === true;

describe('unsubscribing in a browser', () => {
  it('on a phone: the page asks under the card’s heading; the button stops the emails and the page says so', async () => {
    const page = await pageAt(390);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Stop reminder and birthday emails?' }).waitFor();
    assert.ok(await page.getByRole('heading', { name: 'Coffee stamps', level: 1 }).isVisible(), 'the card’s name heads the page');
    assert.ok(await fitsWidth(page), 'nothing wider than the phone');
    assert.equal(unsubscribed().n, 0, 'opening the link changes nothing');

    const [post] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST'), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
    assert.equal(await post.headerValue('origin'), app.url, 'the browser names this server as the form’s origin');
    await page.getByRole('status').filter({ hasText: 'You are unsubscribed' }).waitFor();
    assert.equal(new URL(page.url()).pathname, new URL(link).pathname, 'back on the link’s page');
    assert.equal(unsubscribed().n, 1);
    await page.context().close();
  });

  it('on a desktop: the link opened again says it is done, with no button', async () => {
    const page = await pageAt(1280);
    await page.goto(link);
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Unsubscribe' }).count(), 0);
    assert.ok(await fitsWidth(page));
    await page.context().close();
  });
});
