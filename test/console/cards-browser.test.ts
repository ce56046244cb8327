// The cards section in a real browser, as an owner uses it: the list, making a card of each type,
// a refused edit, rows without JavaScript, the preview following the typing, the type lock and the
// logo. Controls are found by role and label; what was made is checked through the API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { cardsRepo } from '../../src/cards/repo';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { ADMIN_PASSWORD, seedConsoleOrg, signedInPage, signIn, startTestApp, type ConsoleOrg } from '../support/console';
import { createCustomer } from '../support/wallet-app';
import { pngImage } from './cards-support';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Harbour Café');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const apiCards = async () => (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body as { cardId: string; name: string; [k: string]: unknown }[];
const apiCard = async (name: string) => (await apiCards()).find((c) => c.name === name);

async function saveNewCard(page: Page, fill: () => Promise<void>): Promise<void> {
  await page.goto(`${app.url}/console/cards`);
  await page.getByRole('link', { name: 'New card' }).click();
  await fill();
  await page.getByRole('button', { name: 'Create card' }).click();
  await page.getByRole('status').filter({ hasText: 'Card created.' }).waitFor();
}

describe('the cards list', () => {
  it('shows each card with its type, its customers live and test, and its sign-up form; an org without cards is shown how to start', async () => {
    createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps });
    createCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, livemode: false });
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/cards' });
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Coffee stamps' }) });
    assert.match((await row.textContent())!.replace(/\s+/g, ' '), /Stamp card 1 live 1 test On/);
    await page.getByRole('button', { name: 'Switch to test data' }).click();
    await page.locator('#mode-badge').filter({ hasText: 'TEST DATA' }).waitFor();
    assert.match((await page.getByRole('row').filter({ hasText: 'Coffee stamps' }).textContent())!.replace(/\s+/g, ' '), /1 test 1 live/, 'the switch\'s mode first');
    await context.close();

    const empty = await app.seedWithAdmins({ orgs: [{ name: 'Empty Café', admins: [{ email: 'empty@example.com', password: ADMIN_PASSWORD }] }] });
    assert.ok(empty.orgs[0]);
    const fresh = await browser.newContext();
    const owner = await fresh.newPage();
    await signIn(owner, app, { ...org, admin: { email: 'empty@example.com', password: ADMIN_PASSWORD } }, '/console/cards');
    await owner.getByRole('heading', { name: 'No cards yet' }).waitFor();
    await owner.getByRole('link', { name: 'Create your first card' }).click();
    await owner.getByRole('heading', { name: 'New card' }).waitFor();
    await fresh.close();
  });
});

describe('making and editing cards', () => {
  it('makes a card of each type; each works through the API with the values typed', async () => {
    const { context, page } = await signedInPage(browser, app, org);
    await saveNewCard(page, async () => {
      await page.getByLabel('Card name').fill('Harbour stamps');
      await page.getByLabel('Card type').selectOption({ label: 'Stamp card' });
      await page.getByRole('group', { name: 'Reward 1' }).getByLabel('Name').fill('Free flat white');
      await page.getByRole('group', { name: 'Reward 1' }).getByLabel('Cost').fill('9');
    });
    await saveNewCard(page, async () => {
      await page.getByLabel('Card name').fill('Harbour points');
      await page.getByLabel('Card type').selectOption({ label: 'Point card' });
      await page.getByRole('group', { name: 'Reward 1' }).getByLabel('Name').fill('Lunch');
      await page.getByRole('group', { name: 'Reward 1' }).getByLabel('Cost').fill('250');
      await page.getByText('Earning by amount spent or by item').click();
      await page.getByLabel('Currency').fill('GBP');
      await page.getByLabel(/^Earned per 1 spent/).fill('1.5');
    });
    await saveNewCard(page, async () => {
      await page.getByLabel('Card name').fill('Harbour club');
      // Picking the type opens its levels.
      await page.getByLabel('Card type').selectOption({ label: 'Level card' });
      await page.getByRole('button', { name: 'Add a level' }).click();
      await page.getByRole('group', { name: 'Level 1' }).getByLabel('Name').fill('Deckhand');
      await page.getByRole('button', { name: 'Add a level' }).click();
      await page.getByRole('group', { name: 'Level 2' }).getByLabel('Name').fill('Captain');
      await page.getByRole('group', { name: 'Level 2' }).getByLabel('Starts at (points)').fill('300');
    });
    await saveNewCard(page, async () => {
      await page.getByLabel('Card name').fill('Harbour gift');
      await page.getByLabel('Card type').selectOption({ label: 'Prepaid card' });
    });
    await context.close();

    assert.deepEqual((await apiCard('Harbour stamps'))?.reward, { name: 'Free flat white', cost: 9 });
    assert.deepEqual((await apiCard('Harbour points'))?.accrual, { spend: { currency: 'GBP', rate: 1.5 } });
    assert.deepEqual((await apiCard('Harbour club'))?.levels, [{ name: 'Deckhand', minPoints: 0 }, { name: 'Captain', minPoints: 300 }]);
    assert.equal((await apiCard('Harbour gift'))?.passType, 'prepaid_card');
    const club = (await apiCard('Harbour club'))!;
    await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId: club.cardId, externalCustomerId: 'sailor-1' } });
    const earned = await app.request('POST', '/api/v1/customers/sailor-1/earn', { key: org.keys.live, body: { type: 'points', amount: 320 } });
    assert.deepEqual(earned.body.balance, { points: 320, level: 'Captain' });
  });

  it('a refused edit shows each field\'s message, keeps what was typed, and saves nothing', async () => {
    const stored = cardsRepo(app.db).findById(org.cards.points)!;
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.points}` });
    const cost = page.getByRole('group', { name: 'Reward 1' }).getByLabel('Cost');
    await page.getByLabel('Card name').fill('Points deluxe');
    await cost.fill('a hundred');
    await page.getByLabel(/^Background/).fill('rgb(300, 0, 0)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor();
    assert.equal(await cost.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#f-rewards-0--cost-error').textContent(), 'Must be a number');
    assert.equal(await page.locator('#f-design-backgroundColor-error').textContent(), 'Must be #rgb, #rrggbb or rgb(r, g, b) with r, g and b from 0 to 255');
    assert.equal(await page.getByLabel('Card name').inputValue(), 'Points deluxe');
    assert.equal(await cost.inputValue(), 'a hundred');
    assert.deepEqual(cardsRepo(app.db).findById(org.cards.points), stored);
    await context.close();
  });

  it('adds and removes rows without JavaScript, keeping everything typed', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, app, org, '/console/cards/new');
    await page.getByLabel('Card name').fill('No-script club');
    await page.getByLabel('Card type').selectOption({ label: 'Level card' });
    await page.getByText('Levels level cards').click();
    await page.getByRole('button', { name: 'Add a level' }).click();
    await page.getByRole('button', { name: 'Add a level' }).click();
    await page.getByRole('button', { name: 'Add a level' }).click();
    await page.getByRole('group', { name: 'Level 1' }).getByLabel('Name').fill('Wrong');
    await page.getByRole('group', { name: 'Level 2' }).getByLabel('Name').fill('Base');
    await page.getByRole('group', { name: 'Level 2' }).getByLabel('Starts at (points)').fill('0');
    await page.getByRole('group', { name: 'Level 3' }).getByLabel('Name').fill('High');
    await page.getByRole('group', { name: 'Level 3' }).getByLabel('Starts at (points)').fill('50');
    await page.getByRole('button', { name: 'Remove level 1' }).click();
    assert.equal(await page.getByRole('group', { name: 'Level 1' }).getByLabel('Name').inputValue(), 'Base');
    assert.equal(await page.getByRole('group', { name: /^Level \d$/ }).count(), 2);
    assert.equal(await page.getByLabel('Card name').inputValue(), 'No-script club');

    await page.getByText('Questions asked at sign-up').click();
    await page.getByRole('button', { name: 'Add a question' }).click();
    const question = page.getByRole('group', { name: 'Question 1' });
    await question.getByLabel('Question', { exact: true }).fill('Boat size');
    await page.getByRole('button', { name: 'Add a choice to question 1' }).click();
    await page.getByRole('button', { name: 'Add a choice to question 1' }).click();
    assert.equal(await page.getByRole('group', { name: 'Question 1' }).getByLabel('Answer type').inputValue(), 'select');
    // Only the words customers read: the key and the stored values are made from them.
    await page.getByRole('group', { name: 'Choice 1' }).getByLabel('Answer').fill('Dinghy');
    await page.getByRole('group', { name: 'Choice 2' }).getByLabel('Answer').fill('Yacht');
    await page.getByRole('button', { name: 'Create card' }).click();
    await page.getByRole('status').filter({ hasText: 'Card created.' }).waitFor();
    await context.close();

    const card = (await apiCard('No-script club'))!;
    assert.deepEqual(card.levels, [{ name: 'Base', minPoints: 0 }, { name: 'High', minPoints: 50 }]);
    assert.deepEqual(card.questions, [{ key: 'boatSize', label: 'Boat size', type: 'select', required: false, isIdentifier: false, options: [{ value: 'dinghy', label: 'Dinghy' }, { value: 'yacht', label: 'Yacht' }] }]);
  });

  it('offers "Add a choice" only on a question whose answer is a choice from a list', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.stamps}` });
    const member = page.getByRole('group', { name: 'Question 1' });
    const size = page.getByRole('group', { name: 'Question 2' });
    assert.equal(await member.getByLabel('Answer type').inputValue(), 'number');
    assert.equal(await page.getByRole('button', { name: 'Add a choice to question 1' }).isVisible(), false);
    assert.equal(await size.getByLabel('Answer type').inputValue(), 'select');
    assert.equal(await page.getByRole('button', { name: 'Add a choice to question 2' }).isVisible(), true);
    await member.getByLabel('Answer type').selectOption('select');
    assert.equal(await page.getByRole('button', { name: 'Add a choice to question 1' }).isVisible(), true);
    await context.close();
  });

  it('the preview follows the typing, name and colours, before anything is saved', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.levels}` });
    const preview = page.frameLocator('iframe[title="Pass preview"]');
    await preview.getByRole('heading', { name: 'Club' }).waitFor();
    const historyBefore = await page.evaluate('history.length');
    await page.getByLabel('Card name').fill('Harbour lights');
    await preview.getByRole('heading', { name: 'Harbour lights' }).waitFor();
    await page.getByLabel(/^Background/).fill('#ff8800');
    await page.getByLabel('Logo text').fill('Lights');
    await preview.getByText('Lights', { exact: true }).waitFor();
    const background = await preview.locator('.card').evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
    assert.equal(background, 'rgb(255, 136, 0)');
    assert.equal(await page.evaluate('history.length'), historyBefore, 'following the typing adds no history');
    assert.equal(cardsRepo(app.db).findById(org.cards.levels)!.name, 'Club', 'nothing saved');
    await context.close();
  });

  it('shows the card id for integrators, the one the API names, and copies it in one click', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.points}` });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const field = page.getByLabel('Card id (for integrators)');
    assert.equal(await field.inputValue(), org.cards.points);
    assert.equal(await field.getAttribute('readonly'), '');
    assert.ok((await apiCards()).some((c) => c.cardId === org.cards.points && c.name === 'Points'), 'the API lists it under that id');
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), org.cards.points);
    await context.close();
  });

  it('a card with customers shows its type locked and why', async () => {
    createCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid });
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.prepaid}` });
    const type = page.getByLabel('Card type');
    assert.equal(await type.isDisabled(), true);
    await page.getByText('This card has 1 customer (live and test), so its type stays prepaid card').waitFor();
    await page.getByLabel('Card name').fill('Gift card plus');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal(cardsRepo(app.db).findById(org.cards.prepaid)!.passType, 'prepaid_card');
    await context.close();
  });

  it('uploads a logo that the editor and the preview show, and removes it', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.stamps}` });
    await page.getByLabel('Logo image').setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: pngImage(200, 200, [0, 90, 160]) });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByRole('status').filter({ hasText: 'Logo uploaded.' }).waitFor();
    await page.getByRole('img', { name: "The card's logo" }).waitFor();
    const previewLogo = page.frameLocator('iframe[title="Pass preview"]').locator('.pass-top img');
    await previewLogo.waitFor();
    assert.ok(await previewLogo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0), 'the preview loads the logo');

    await page.getByLabel('Logo image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    assert.equal(await page.locator('#f-logo-error').textContent(), 'The file is not a PNG or JPEG image');

    await page.getByRole('button', { name: 'Remove the logo' }).click();
    await page.getByRole('status').filter({ hasText: 'Logo removed.' }).waitFor();
    assert.equal(cardsRepo(app.db).logoOf(org.cards.stamps), undefined);
    await context.close();
  });
});
