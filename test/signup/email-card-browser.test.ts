// "Email me my card" in real headless Chromium, as a customer presses it: after signing up through
// the form (the welcome page) and on the install page of their link. Nothing but the browser decides
// the request's headers — no helper adds an Origin — so the pages' Referrer-Policy is what lets the
// browser state where the form came from, which the server's origin check needs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, Request } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from '../support/mail';
import { DEFAULT_CONSENT_TEXT } from '../../src/orgs/settings';

let smtp: TestSmtpServer;
let app: MailTestApp;
let browser: Browser;
let cardId: string;
let liveKey: string;

before(async () => {
  smtp = await startSmtpServer();
  app = await startMailApp(smtp);
  const seeded = app.seed({
    orgs: [
      {
        name: 'Corner Bakery',
        cards: [{ ref: 'bread', name: 'Bread stamps', passType: 'stamp_card', reward: { name: 'Free loaf', cost: 8 }, dataCollectionEnabled: true }],
        keys: [{ deviceName: 'till', mode: 'live' }],
      },
    ],
  }).orgs[0]!;
  cardId = seeded.cards[0]!.cardId;
  liveKey = seeded.keys[0]!.key;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
  await smtp?.close();
});

/** A phone-sized page in a fresh context: no cookies, and no extra HTTP headers of any kind. */
async function phonePage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  return context.newPage();
}

/** Presses the button, and returns the POST the browser sent for it. */
async function pressEmailButton(page: Page): Promise<Request> {
  const [post] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === `/get-pass/${cardId}/email`),
    page.getByRole('button', { name: 'Email me my card' }).click(),
  ]);
  return post;
}

/** The mail worker has sent everything queued; the messages that reached the SMTP server for `to`. */
async function mailTo(to: string) {
  await app.worker.idle();
  return smtp.received.filter((m) => m.to.includes(to));
}

describe('"Email me my card" in a browser', () => {
  it('after signing up through the form: the welcome page sends the card, and says so', async () => {
    const page = await phonePage();
    await page.goto(`${app.url}/get-pass/${cardId}`);
    await page.getByLabel('Your name').fill('Greta Baker');
    await page.getByLabel('Email', { exact: true }).fill('greta@example.org');
    await page.getByRole('checkbox', { name: DEFAULT_CONSENT_TEXT }).check();
    await page.getByRole('button', { name: 'Get my card' }).click();
    await page.getByRole('heading', { name: 'Keep your card' }).waitFor();
    assert.match(new URL(page.url()).pathname, /\/welcome$/);

    const post = await pressEmailButton(page);
    // The browser's own statement of where the form was sent from: this server, never "null".
    assert.equal(await post.headerValue('origin'), app.url);
    await page.getByRole('status').filter({ hasText: 'Your card is on its way to g***a@example.org' }).waitFor();
    assert.match(new URL(page.url()).pathname, /\/welcome$/, 'back on the welcome page');

    const mails = await mailTo('greta@example.org');
    assert.equal(mails.length, 1, 'one mail reached the SMTP server');
    await page.context().close();
  });

  it('on the install page of the customer’s link: sends the card, and says so', async () => {
    const enrolled = await app.request('POST', '/api/v1/customers', { key: liveKey, body: { externalCustomerId: 'till-7', cardId, name: 'Hugo Crust', email: 'hugo@example.org' } });
    assert.equal(enrolled.status, 201, enrolled.text);
    // The link as the customer opens it, on this server (PUBLIC_URL is the default localhost:3000).
    const link = new URL(enrolled.body.installUrl);
    const page = await phonePage();
    await page.goto(`${app.url}${link.pathname}${link.search}`);

    const post = await pressEmailButton(page);
    assert.equal(await post.headerValue('origin'), app.url);
    await page.getByRole('status').filter({ hasText: 'Your card is on its way to h***o@example.org' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('code'), link.searchParams.get('code'), 'back on the install page');

    const mails = await mailTo('hugo@example.org');
    assert.equal(mails.length, 1, 'one mail reached the SMTP server');
    await page.context().close();
  });
});
