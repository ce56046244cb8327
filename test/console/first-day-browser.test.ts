// The first day of a new shop in a real browser, found by role and label as the owner and the staff
// would: the start checklist ticking itself, deleting and archiving the demo cards, a card whose
// questions have only their words, a large award confirmed at the counter, a PIN pause lifted by
// the owner, and the same figures on the dashboard and the Staff page after an undo.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { cardsRepo } from '../../src/cards/repo';
import { readOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp } from '../support/console';
import { apiCustomer, seedCounterOrg, STAFF, unlockedCounter, type CounterOrg } from '../counter/support';
import { pngImage } from './cards-support';

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

const checklistItem = (page: Page, label: string) => page.getByRole('list', { name: /Getting started|Your shop is set up/ }).getByRole('link', { name: new RegExp(`^${label}`) });

async function doneState(page: Page, label: string): Promise<'done' | 'to do'> {
  const name = (await checklistItem(page, label).locator('xpath=..').textContent()) ?? '';
  return name.includes('(done)') ? 'done' : 'to do';
}

describe('the first day', () => {
  it('the start checklist ticks itself from what the owner does, each item leading to its page', async () => {
    const org = await seedConsoleOrg(app, 'Checklist Café');
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/dashboard' });
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    for (const label of ['Name your shop, set its time zone and country', 'Set the public address', 'Design your card', 'Add a staff member', 'Print the poster', 'Import your customers', 'Check your backups']) {
      assert.equal(await doneState(page, label), 'to do', label);
    }

    // The time zone by its old name: saved and shown by its current one.
    await checklistItem(page, 'Name your shop, set its time zone and country').click();
    await page.getByLabel('Business name').fill('Chai Corner');
    await page.getByLabel('Time zone').fill('Asia/Calcutta');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal(await page.getByLabel('Time zone').inputValue(), 'Asia/Kolkata');
    assert.equal(readOrgSettings(app.db, org.orgId).timeZone, 'Asia/Kolkata');

    await page.goto(`${app.url}/console/dashboard`);
    await checklistItem(page, 'Add a staff member').click();
    await page.getByLabel('Name', { exact: true }).fill('Priya');
    await page.getByLabel('PIN', { exact: true }).fill('8642');
    assert.equal(await page.getByLabel('PIN', { exact: true }).getAttribute('type'), 'password', 'the PIN is typed masked');
    await page.getByRole('button', { name: 'Show PIN' }).click();
    assert.equal(await page.getByLabel('PIN', { exact: true }).getAttribute('type'), 'text');
    await page.getByRole('button', { name: 'Add staff member' }).click();
    await page.getByRole('status').filter({ hasText: 'Priya is added.' }).waitFor();

    await page.goto(`${app.url}/console/dashboard`);
    // PUBLIC_URL is this computer's own address: a poster printed now leads phones nowhere, so
    // the page offers no "mark done" and the step stays to do.
    await checklistItem(page, 'Print the poster').click();
    await page.getByRole('heading', { name: /^Counter poster/ }).waitFor();
    await page.getByText('Once the public address is set, print the poster and mark it printed here').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Printed — mark done' }).count(), 0);

    await page.goto(`${app.url}/console/dashboard`);
    await checklistItem(page, 'Design your card').click();
    await page.getByRole('link', { name: 'Coffee stamps', exact: true }).first().click();
    await page.getByLabel('Card name').fill('Chai stamps');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await page.goto(`${app.url}/console/dashboard`);
    await checklistItem(page, 'Check your backups').click();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByRole('status').filter({ hasText: 'Backup written and checked.' }).waitFor();

    // Where the shop is: a link pasted from the map.
    await page.goto(`${app.url}/console/dashboard`);
    assert.equal(await doneState(page, 'Add your shop’s location'), 'to do');
    await checklistItem(page, 'Add your shop’s location').click();
    await page.getByLabel('Name').fill('Main Street');
    await page.getByLabel('Map link or coordinates').fill('https://www.google.com/maps/@52.5200066,13.404954,17z');
    await page.getByRole('button', { name: 'Add location' }).click();
    await page.getByRole('status').filter({ hasText: 'Location added.' }).waitFor();

    // The first real customer: nothing left to import.
    await page.goto(`${app.url}/console/dashboard`);
    assert.equal(await doneState(page, 'Import your customers'), 'to do');
    await checklistItem(page, 'Import your customers').click();
    await page.getByRole('heading', { name: 'Import customers' }).waitFor();
    await apiCustomer(app, org, { card: 'stamps', name: 'First Member' });

    await page.goto(`${app.url}/console/dashboard`);
    for (const label of ['Name your shop, set its time zone and country', 'Add your shop’s location', 'Design your card', 'Add a staff member', 'Import your customers', 'Check your backups']) {
      assert.equal(await doneState(page, label), 'done', label);
    }
    // PUBLIC_URL is this computer's own address in the test: still to do, so the list stays open.
    assert.equal(await doneState(page, 'Set the public address'), 'to do');
    assert.equal(await doneState(page, 'Print the poster'), 'to do', 'opening the poster is not printing it');
    assert.equal(await page.locator('details#start-checklist').getAttribute('open'), '');
    await checklistItem(page, 'Set the public address').click();
    await page.getByRole('heading', { name: 'Going live', exact: true }).waitFor();
    await context.close();
  });

  it('deletes a demo card without live customers, archives one with customers, and the counter offers the most used active card', async () => {
    const org = await seedCounterOrg(app, 'Demo Clean-up Café');
    await apiCustomer(app, org, { card: 'stamps', name: 'Stella Stamp' });
    await apiCustomer(app, org, { card: 'levels', name: 'Lev One' });
    await apiCustomer(app, org, { card: 'levels', name: 'Lev Two' });
    await apiCustomer(app, org, { card: 'points', name: 'Tessa Test', test: true });
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.points}` });

    // Delete: the card has a test customer only, who goes with it.
    await page.getByRole('link', { name: 'Delete Points…' }).click();
    await page.getByRole('heading', { name: 'Delete Points?' }).waitFor();
    await page.getByText('1 test customer').waitFor();
    await page.getByRole('button', { name: 'Delete Points for good' }).click();
    await page.getByRole('status').filter({ hasText: 'Points is deleted.' }).waitFor();
    assert.equal(cardsRepo(app.db).findById(org.cards.points), undefined);
    assert.equal((app.db.prepare('SELECT count(*) AS n FROM customers WHERE card_id = ?').get(org.cards.points) as { n: number }).n, 0);

    // A card with a live customer cannot be deleted: it is archived instead.
    await page.getByRole('row', { name: /Coffee stamps/ }).getByRole('link', { name: 'Coffee stamps', exact: true }).click();
    assert.equal(await page.getByRole('link', { name: /^Delete Coffee stamps/ }).count(), 0);
    await page.getByText('It cannot be deleted: 1 customer holds it.').waitFor();
    await page.getByRole('button', { name: 'Archive Coffee stamps' }).click();
    await page.getByRole('status').filter({ hasText: 'Archived.' }).waitFor();
    const cards = (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body as { cardId: string; archived: boolean }[];
    assert.deepEqual(cards.map((c) => [c.cardId, c.archived]), [[org.cards.stamps, true], [org.cards.levels, false], [org.cards.prepaid, false]]);
    const signup = await context.newPage();
    await signup.goto(`${app.url}/get-pass/${org.cards.stamps}`);
    await signup.getByText('This card no longer takes new members.').waitFor();
    assert.equal(await signup.getByRole('button', { name: 'Get my card' }).count(), 0);
    await signup.close();

    // The counter: the archived card is not offered; the card with the most customers comes first.
    const counter = await unlockedCounter(browser, app.url, org);
    await counter.page.getByRole('button', { name: 'New customer' }).click();
    const choice = counter.page.getByLabel('Card', { exact: true });
    assert.equal(await choice.locator('option:checked').textContent(), 'Club');
    assert.deepEqual(await choice.locator('option').allTextContents(), ['Club', 'Gift card']);
    await counter.context.close();

    await page.getByRole('button', { name: 'Restore Coffee stamps' }).click();
    await page.getByRole('status').filter({ hasText: 'Restored.' }).waitFor();
    assert.equal(cardsRepo(app.db).findById(org.cards.stamps)!.archivedAt, null);
    await context.close();
  });

  it('saves a card whose questions have only their words; rows come and go in place, the focus where the owner is', async () => {
    const org = await seedConsoleOrg(app, 'Label Café');
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/cards/new' });
    await page.getByLabel('Card name').fill('Drinks club');
    await page.getByText('Questions asked at sign-up').click();
    await page.getByRole('button', { name: 'Add a question' }).click();
    const question = page.getByRole('group', { name: 'Question 1' });
    await page.locator('#f-questions-0--label:focus').waitFor();
    await page.keyboard.type('Favourite drink');
    await question.getByLabel('Answer type').selectOption({ label: 'Choice from a list' });
    // Each new choice takes the focus once it is in place: the owner types straight on.
    for (const [i, answer] of ['Oat milk latte', 'Flat white', 'Mistake'].entries()) {
      await page.getByRole('button', { name: 'Add a choice to question 1' }).click();
      await page.locator(`#f-questions-0--options-${i}--label:focus`).waitFor();
      await page.keyboard.type(answer);
    }
    assert.equal(await page.getByLabel('Card name').inputValue(), 'Drinks club', 'the rest of the form stays as typed');
    await page.getByRole('button', { name: 'Remove choice 3 of question 1' }).click();
    await page.getByRole('group', { name: 'Choice 3' }).waitFor({ state: 'detached' });
    await page.locator('#add-option-0:focus').waitFor(); // after a removal: the button that adds one
    // Distinct names: a choice's button and the question's.
    assert.equal(await page.getByRole('button', { name: 'Remove question 1' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: /^Remove choice/ }).count(), 2);

    // White text on white: said, not refused.
    await page.getByRole('textbox', { name: 'Background (optional)' }).fill('#ffffff');
    await page.getByRole('textbox', { name: 'Text (optional)', exact: true }).fill('#fafafa');
    await page.getByRole('status').filter({ hasText: 'The text is hard to read on this background' }).waitFor();
    await page.getByRole('textbox', { name: 'Text (optional)', exact: true }).fill('#222222');
    await page.locator('#contrast-warning').waitFor({ state: 'hidden' });

    await page.getByLabel('Logo image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngImage(120, 120, [10, 120, 200]) });
    await page.getByRole('button', { name: 'Create card' }).click();
    await page.getByRole('status').filter({ hasText: 'Card created.' }).waitFor();
    await page.getByRole('img', { name: "The card's logo" }).waitFor();

    const card = cardsRepo(app.db).listForOrg(org.orgId).find((c) => c.name === 'Drinks club')!;
    assert.deepEqual(card.questions, [
      { key: 'favouriteDrink', label: 'Favourite drink', type: 'select', required: false, isIdentifier: false, options: [{ value: 'oatMilkLatte', label: 'Oat milk latte' }, { value: 'flatWhite', label: 'Flat white' }] },
    ]);
    assert.ok(cardsRepo(app.db).logoMeta(card.id), 'the logo came with the new card');
    await page.getByText('Advanced: names in the API').click();
    assert.equal(await page.getByRole('group', { name: 'Question 1' }).getByLabel('Key').inputValue(), 'favouriteDrink');
    await context.close();
  });

  it('confirms a large award with the name and amount; the dashboard and the Staff page count the same after an undo', async () => {
    const org = await seedCounterOrg(app, 'Figures Café');
    const anna = await apiCustomer(app, org, { card: 'stamps', name: 'Anna Example' });
    const { context, page } = await unlockedCounter(browser, app.url, org);
    await page.getByLabel('Pass code, name, phone or email').fill(anna.scanCode);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('heading', { name: 'Anna Example' }).waitFor();
    await page.getByRole('button', { name: '+1 stamp' }).click();
    await page.getByRole('status').filter({ hasText: '✓ +1 stamp' }).waitFor();

    // A slip: a message in a sentence, and the earlier confirmation goes.
    await page.getByLabel('Stamps to add').fill('abc');
    await page.getByRole('button', { name: 'Add stamps' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter a whole number greater than 0, such as 3.' }).waitFor();
    assert.equal(await page.getByText('✓ +1 stamp').count(), 0);

    // 500 stamps: asked first; "No" writes nothing.
    await page.getByLabel('Stamps to add').fill('500');
    await page.getByRole('button', { name: 'Add stamps' }).click();
    await page.getByRole('heading', { name: 'Add 500 stamps to Anna Example?' }).waitFor();
    await page.locator('button:focus', { hasText: 'Yes, add 500 stamps' }).waitFor();
    await page.getByRole('button', { name: 'No, go back' }).click();
    await page.getByRole('heading', { name: 'Anna Example' }).waitFor();
    assert.equal((app.db.prepare('SELECT balance FROM customers WHERE id = ?').get(anna.passUserId) as { balance: number }).balance, 100);

    await page.getByLabel('Stamps to add').fill('500');
    await page.getByRole('button', { name: 'Add stamps' }).click();
    await page.getByRole('button', { name: 'Yes, add 500 stamps' }).click();
    await page.getByRole('status').filter({ hasText: '✓ +500 stamps' }).waitFor();
    await page.getByRole('button', { name: /^Undo \+500 stamps/ }).click();
    await page.getByRole('status').filter({ hasText: 'Undone: −500 stamps' }).waitFor();

    await page.getByLabel('Stamps to add').fill('20');
    await page.getByRole('button', { name: 'Add stamps' }).click();
    await page.getByRole('button', { name: 'Yes, add 20 stamps' }).click();
    await page.getByRole('status').filter({ hasText: '✓ +20 stamps' }).waitFor();
    await context.close();

    const owner = await signedInPage(browser, app, org, { next: '/console/dashboard' });
    const stamps = await owner.page.locator('#today-stamps dd').textContent();
    assert.equal(stamps, '21', 'the 500 undone count nowhere');
    const staffRow = owner.page.getByRole('table', { name: 'By staff member' }).first().getByRole('row', { name: /Sam/ });
    assert.equal(await staffRow.getByRole('cell').first().locator('.n').textContent(), '21', "Sam's stamps today");
    const unusual = owner.page.getByRole('region', { name: 'Unusual days at the counter' });
    await unusual.getByText('One award of 20 stamps by Sam: more than 10 stamps').waitFor();
    assert.equal(await unusual.getByText(/500 stamps/).count(), 0, 'an undone award is not flagged');

    await owner.page.getByRole('link', { name: 'Staff', exact: true }).click();
    const activity = owner.page.getByRole('region', { name: /Counter activity, last 30 days/ }).getByRole('table');
    const cells = await activity.locator('tbody tr').first().evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(cells.slice(1), ['Sam', '2 awards 21 stamps', '—', '—']);
    await owner.context.close();
  });

  it('a device paused after wrong PINs is named on its PIN screen and unlocks again once the owner lifts the pause', async () => {
    const org: CounterOrg = await seedCounterOrg(app, 'Pause Café');
    const tablet = await browser.newContext();
    const pin = await tablet.newPage();
    await pin.goto(org.counterUrl(app.url));
    for (let i = 0; i < 5; i++) {
      await pin.getByLabel('PIN', { exact: true }).fill(`900${i}`);
      await pin.getByRole('button', { name: 'Unlock' }).click();
      await pin.getByRole('alert').waitFor();
    }
    const paused = (await pin.getByRole('alert').filter({ hasText: 'Unlocking is paused' }).textContent())!;
    const device = /this device: ([A-Za-z0-9_-]{6})/.exec(paused)?.[1];
    assert.ok(device, paused);

    const owner = await signedInPage(browser, app, org, { next: '/console/staff' });
    const panel = owner.page.getByRole('region', { name: 'Paused counters' });
    await panel.getByText(device, { exact: true }).waitFor();
    await panel.getByRole('button', { name: `Lift the pause on device ${device}` }).click();
    await owner.page.getByRole('status').filter({ hasText: 'The pause is lifted' }).waitFor();
    assert.equal(await owner.page.getByRole('region', { name: 'Paused counters' }).count(), 0);
    await owner.context.close();

    await pin.getByLabel('PIN', { exact: true }).fill(STAFF[0]!.pin);
    await pin.getByRole('button', { name: 'Show PIN' }).click();
    assert.equal(await pin.getByLabel('PIN', { exact: true }).getAttribute('type'), 'text');
    await pin.getByRole('button', { name: 'Unlock' }).click();
    await pin.getByRole('heading', { name: 'Find a customer' }).waitFor();
    await tablet.close();
  });
});
