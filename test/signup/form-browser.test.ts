// The sign-up form in real headless Chromium, controls found by role and
// label as a customer finds them: the standard stamps card asks all seven question types.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedStandardOrg, type StandardOrg } from '../support/app';
import { launchBrowser } from '../support/browser';
import { startReceiver, type Receiver } from '../support/receiver';
import { createEndpoint, startWebhookApp, type WebhookTestApp } from '../support/webhooks';
import { DEFAULT_CONSENT_TEXT } from '../../src/orgs/settings';
import { countCustomers, snapshot } from './support';

let app: WebhookTestApp;
let org: StandardOrg;
let receiver: Receiver;
let browser: Browser;

before(async () => {
  app = await startWebhookApp();
  receiver = await startReceiver();
  org = seedStandardOrg(app);
  await createEndpoint(app, org.keys.live, receiver.url, ['customer.enrolled']);
  // The member number is the card's identifier question: a second sign-up with it is "already a member".
  const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body: { identifierQuestionKey: 'memberNo' } });
  assert.equal(patched.status, 200, patched.text);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await receiver?.close();
  await app?.close();
});

const formUrl = () => `${app.url}/get-pass/${org.cards.stamps}`;

async function openForm(options: { javaScriptEnabled?: boolean; width?: number } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 390, height: 844 }, javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  await page.goto(formUrl());
  return page;
}

const send = (page: Page) => page.getByRole('button', { name: 'Get my card' }).click();
const consent = (page: Page) => page.getByRole('checkbox', { name: DEFAULT_CONSENT_TEXT });

/** Fills every field of the stamps card with good answers; `overrides` by label. */
async function fillGood(page: Page, who: { name: string; email: string; phone: string; memberNo: string }): Promise<void> {
  await page.getByLabel('Your name').fill(who.name);
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Phone (optional)', { exact: true }).fill(who.phone);
  await page.getByLabel('Member number').fill(who.memberNo);
  await page.getByLabel('Cup size').selectOption({ label: 'Large' });
  await page.getByLabel('Nickname').fill('  Countess  ');
  await page.getByLabel('Birthday').fill('1815-12-10');
  await page.getByRole('checkbox', { name: 'Newsletter' }).check();
  await page.getByLabel('Other email').fill('ada@analytical.example');
  await page.getByLabel('Other phone').fill('+49 170 1234567');
  await consent(page).check();
}

describe('sign-up form in a browser', () => {
  it('shows each question with the right input, the consent and no script', async () => {
    const page = await openForm();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Coffee stamps');
    const attr = (label: string, name: string, exact = false) => page.getByLabel(label, { exact }).getAttribute(name);
    assert.equal(await attr('Your name', 'autocomplete'), 'name');
    assert.equal(await attr('Email', 'type', true), 'email');
    assert.equal(await attr('Phone (optional)', 'type', true), 'tel');
    // number: a text field with the decimal keyboard (the server judges the digits)
    assert.equal(await attr('Member number', 'type'), 'text');
    assert.equal(await attr('Member number', 'inputmode'), 'decimal');
    assert.equal(await page.getByRole('combobox', { name: 'Cup size' }).count(), 1);
    assert.deepEqual(await page.getByLabel('Cup size').locator('option').allTextContents(), ['Choose…', 'Small', 'Large']);
    assert.equal(await attr('Nickname', 'type'), 'text');
    assert.equal(await attr('Birthday', 'type'), 'date');
    assert.equal(await page.getByRole('checkbox', { name: 'Newsletter' }).count(), 1);
    assert.equal(await attr('Other email', 'type'), 'email');
    assert.equal(await attr('Other phone', 'type'), 'tel');
    assert.equal(await consent(page).isChecked(), false, 'consent is given actively, never pre-ticked');
    assert.equal(await page.getByRole('textbox', { name: 'Leave this field empty' }).count(), 0, 'the honeypot is hidden from assistive technology');
    const trap = page.locator('#f-website');
    assert.ok(((await trap.boundingBox())?.x ?? 0) < -1000, 'the honeypot is off the screen');
    assert.equal(await trap.getAttribute('tabindex'), '-1', 'and out of the tab order');
    assert.equal(await page.evaluate('document.scripts.length'), 0);
    await page.context().close();
  });

  it('bad answers come back inline under their inputs, typed text kept, nothing written', async () => {
    const before = snapshot(app);
    const page = await openForm();
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Email', { exact: true }).fill('ada@example');
    await page.getByLabel('Member number').fill('12a');
    await page.getByLabel('Other email').fill('not an email');
    await send(page);
    await page.getByRole('alert').filter({ hasText: 'Please check 4 answers' }).waitFor();

    const email = page.getByLabel('Email', { exact: true });
    assert.equal(await email.inputValue(), 'ada@example');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#f-email-error').textContent(), 'Enter an email address such as name@example.com.');
    const member = page.getByLabel('Member number');
    assert.equal(await member.inputValue(), '12a');
    assert.equal(await member.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#f-q-memberNo-error').textContent(), 'Enter a number, such as 42.');
    assert.equal(await page.getByLabel('Other email').getAttribute('aria-invalid'), 'true');
    assert.equal(await consent(page).getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#f-consent-error').textContent())!, /Tick the box to agree/);
    assert.equal(await page.getByLabel('Your name').getAttribute('aria-invalid'), null, 'a good answer is not marked');

    // A missing required answer, the rest corrected.
    await email.fill('ada@example.com');
    await member.fill('');
    await page.getByLabel('Other email').fill('ada@analytical.example');
    await consent(page).check();
    await send(page);
    await page.getByRole('alert').filter({ hasText: 'Please check one answer' }).waitFor();
    assert.equal(await page.locator('#f-q-memberNo-error').textContent(), 'Enter a number.');
    assert.equal(await consent(page).isChecked(), true, 'the tick is kept too');
    assert.equal(snapshot(app), before);
    await page.context().close();
  });

  it('a good sign-up makes one customer, canonical through the API, emits customer.enrolled and shows the pass', async () => {
    const before = countCustomers(app);
    const page = await openForm();
    await fillGood(page, { name: 'Ada Lovelace', email: 'Ada@Example.com', phone: '+44 20 7946 0958', memberNo: '0042' });
    await send(page);
    await page.waitForURL(/\/get-pass\/card_[A-Za-z0-9]+\/welcome\?code=[A-Za-z0-9]{32}$/);
    await page.getByText('Welcome, Ada!').waitFor();
    await page.getByRole('heading', { name: 'Keep your card' }).waitFor();
    assert.equal(countCustomers(app), before + 1);

    const customer = app.db.prepare("SELECT id, install_code FROM customers WHERE email = 'Ada@Example.com'").get() as { id: string; install_code: string };
    assert.equal(new URL(page.url()).searchParams.get('code'), customer.install_code);
    const res = await app.request('GET', `/api/v1/customers/pu_${customer.id}`, { key: org.keys.live });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.externalCustomerId, null);
    assert.equal(res.body.livemode, true);
    assert.equal(res.body.name, 'Ada Lovelace');
    assert.equal(res.body.email, 'Ada@Example.com');
    assert.deepEqual(res.body.customFields, {
      memberNo: 42,
      size: 'L',
      nickname: 'Countess',
      birthday: '1815-12-10',
      newsletter: true,
      altEmail: 'ada@analytical.example',
      altPhone: '+491701234567',
    });

    await app.worker.idle();
    await receiver.waitFor(1);
    const event = JSON.parse(receiver.requests.at(-1)!.body) as { type: string; livemode: boolean; data: Record<string, unknown> };
    assert.equal(event.type, 'customer.enrolled');
    assert.equal(event.livemode, true);
    assert.deepEqual(event.data, { externalCustomerId: null, passUserId: customer.id, cardId: org.cards.stamps, source: 'signup' });

    // The welcome page of the new customer: the web pass (no wallet is configured here).
    await page.getByRole('link', { name: 'Open my card' }).click();
    await page.waitForURL(/\/pass\//);
    assert.equal(await page.getByRole('img', { name: 'QR code to scan at the counter' }).count(), 1);
    assert.equal(await page.locator('#balance').textContent(), '0');
    await page.context().close();
  });

  it('signing up again (same email, same phone, same member number) makes no second customer and shows nothing of the first', async () => {
    const first = app.db.prepare("SELECT * FROM customers WHERE email = 'Ada@Example.com'").get() as Record<string, string>;
    assert.ok(first, 'the previous test made the member');
    const before = snapshot(app);
    const eventsBefore = receiver.requests.length;
    const texts: string[] = [];
    for (const who of [
      { name: 'Someone', email: 'ada@example.com', phone: '+1 415 555 0100', memberNo: '7' },
      { name: 'Someone', email: 'someone@example.com', phone: '+442079460958', memberNo: '8' },
      { name: 'Someone', email: 'else@example.com', phone: '+1 415 555 0101', memberNo: '42' },
    ]) {
      const page = await openForm();
      await fillGood(page, who);
      await send(page);
      await page.getByRole('status').filter({ hasText: 'You are already a member' }).waitFor();
      assert.equal(new URL(page.url()).search, '', 'no install code in the address');
      assert.equal(await page.getByRole('link').filter({ hasText: /wallet|card in the browser/i }).count(), 0);
      const hrefs = await page.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      assert.ok(hrefs.every((href) => !href?.includes('code=') && !href?.includes('/pass/')), String(hrefs));
      const html = await page.content();
      for (const secret of [first.install_code, first.scan_code, first.id, first.name]) assert.ok(!html.includes(secret!), `the page shows ${secret}`);
      texts.push((await page.locator('main').innerText()).trim());
      await page.context().close();
    }
    assert.equal(texts[1], texts[0]);
    assert.equal(texts[2], texts[0]);
    assert.equal(snapshot(app), before);
    await app.worker.idle();
    assert.equal(receiver.requests.length, eventsBefore, 'no event');
  });

  it('works with JavaScript disabled: errors inline, then the pass', async () => {
    const page = await openForm({ javaScriptEnabled: false });
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await page.getByLabel('Member number').fill('1906');
    await page.getByLabel('Other email').fill('grace@navy.example');
    await send(page);
    await page.getByRole('alert').filter({ hasText: 'Please check one answer' }).waitFor();
    assert.equal(await consent(page).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Your name').inputValue(), 'Grace Hopper');
    await consent(page).check();
    await send(page);
    await page.waitForURL(/\/welcome\?code=/);
    assert.equal(await page.getByRole('link', { name: 'Open my card' }).count(), 1);
    const row = app.db.prepare("SELECT source, livemode, external_id FROM customers WHERE email = 'grace@example.com'").get();
    assert.deepEqual(row, { source: 'signup', livemode: 1, external_id: null });
    await page.context().close();
  });
});
