// The loyalty program in a real browser, as an owner sets it up: two more rewards, expiry and a
// birthday treat in the card editor (the preview following), then a promotion on the card's
// promotions page, each seen listed afterwards. Controls are found by role and label.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  // Tuesday 13 January 2026, 14:30 in Berlin.
  app.clock.set(Date.UTC(2026, 0, 13, 13, 30));
  org = await seedConsoleOrg(app, 'Harbour Café');
  writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const apiCard = async (cardId: string) => (await app.request('GET', '/api/v1/cards', { key: org.keys.live })).body.find((c: { cardId: string }) => c.cardId === cardId);

describe('setting up the program', () => {
  it('adds two rewards, expiry and a birthday treat; the preview follows; the editor lists them from the cheapest', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.stamps}` });
    const preview = page.frameLocator('iframe[title="Pass preview"]');
    await preview.getByRole('img', { name: /of 10 stamps/ }).waitFor();

    await page.getByRole('button', { name: 'Add a reward' }).click();
    const second = page.getByRole('group', { name: 'Reward 2' });
    await page.locator('#f-rewards-1--name:focus').waitFor(); // the new row takes the focus
    await second.getByLabel('Name').fill('Slice of cake');
    await second.getByLabel('Cost').fill('6');
    await second.getByLabel('Description').fill('Any cake on the counter');
    // The cheapest reward is the default: the preview counts towards it as soon as it is typed.
    await preview.getByRole('img', { name: /of 6 stamps/ }).waitFor();
    await page.getByRole('button', { name: 'Add a reward' }).click();
    const third = page.getByRole('group', { name: 'Reward 3' });
    await third.getByLabel('Name').fill('Lunch');
    await third.getByLabel('Cost').fill('25');

    // Expiry: only the chosen rule's number is shown.
    await page.getByText('Expiry optional').click();
    await page.getByLabel('Stamps and points expire').selectOption({ label: 'After a number of days without a new award' });
    assert.equal(await page.getByLabel('Months after each award').isVisible(), false);
    await page.getByLabel(/^Days without an award/).fill('365');
    await page.getByLabel(/^Remind this many days before/).fill('10');

    // The birthday question offers the card's date questions, and one typed just now.
    await page.getByText('Birthday treat optional').click();
    const birthday = page.getByLabel(/^Birthday question/);
    assert.deepEqual(await birthday.locator('option').allTextContents(), ['No birthday treat', 'Birthday']);
    await page.getByRole('button', { name: 'Add a question' }).click();
    const question = page.getByRole('group', { name: /^Question \d+$/ }).last();
    await question.getByLabel('Question', { exact: true }).fill('Date of the first visit');
    await question.getByLabel('Answer type').selectOption({ label: 'Date' });
    await birthday.locator('option', { hasText: 'Date of the first visit' }).waitFor({ state: 'attached' });
    await birthday.selectOption({ label: 'Birthday' });
    await page.getByLabel(/^Stamps or points given/).fill('2');
    await page.getByText('Watch list and report optional').click();
    await page.getByLabel(/^Value of one stamp or point/).fill('0.30');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const names = [];
    for (let i = 1; i <= 3; i++) names.push(await page.getByRole('group', { name: `Reward ${i}` }).getByLabel('Name').inputValue());
    assert.deepEqual(names, ['Slice of cake', 'Free coffee', 'Lunch'], 'listed from the cheapest');

    const card = await apiCard(org.cards.stamps);
    assert.deepEqual(card.rewards.map((r: { name: string; cost: number }) => [r.name, r.cost]), [['Slice of cake', 6], ['Free coffee', 10], ['Lunch', 25]]);
    assert.deepEqual([card.expiry, card.birthday, card.unitValue], [{ inactiveDays: 365, remindDays: 10 }, { questionKey: 'birthday', units: 2 }, 0.3]);
    await context.close();
  });

  it('adds a promotion on the card\'s promotions page and sees it running now and in the days ahead', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: `/console/cards/${org.cards.stamps}` });
    await page.getByRole('link', { name: 'Promotions' }).click();
    await page.getByRole('heading', { name: 'Promotions · Coffee stamps' }).waitFor();
    await page.getByText('No promotion is running now.').waitFor();

    // Multiplying is chosen: only its number shows.
    assert.equal(await page.getByLabel('Multiply by').isVisible(), true);
    assert.equal(await page.getByLabel(/^Extra stamps per award/).isVisible(), false);
    await page.getByLabel(/^Name/).fill('Double stamps on Tuesday afternoons');
    await page.getByLabel('Multiply by').fill('2');
    await page.getByLabel('First day').fill('2026-01-13');
    await page.getByLabel('Last day').fill('2026-01-31');
    await page.getByRole('group', { name: 'Days of the week' }).getByLabel('Tuesday').check();
    await page.getByLabel(/^From/).fill('14:00');
    await page.getByLabel(/^Until/).fill('17:00');
    await page.getByRole('button', { name: 'Add promotion' }).click();
    await page.getByRole('status').filter({ hasText: 'Promotion added.' }).waitFor();

    const now = page.getByRole('region', { name: /^Now/ });
    await now.getByText('Double stamps on Tuesday afternoons').waitFor();
    await now.getByText('until 17:00').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Double stamps on Tuesday afternoons' });
    assert.match((await row.textContent())!.replace(/\s+/g, ' '), /×2 13 Jan 2026 – 31 Jan 2026 Tuesday, 14:00–17:00 Running now/);
    const days = page.getByRole('region', { name: 'The next 14 days' }).locator('ol > li').filter({ hasText: 'Double stamps on Tuesday afternoons' });
    assert.deepEqual((await days.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()), [
      'Tue 13 Jan Today Double stamps on Tuesday afternoons ×2 14:00–17:00',
      'Tue 20 Jan Double stamps on Tuesday afternoons ×2 14:00–17:00',
    ]);

    // A bonus shows its own number instead.
    await page.getByLabel('Adds extra stamps to each award').check();
    assert.equal(await page.getByLabel('Multiply by').isVisible(), false);
    await page.getByLabel(/^Extra stamps per award/).waitFor();
    await context.close();

    const promotions = (await app.request('GET', `/api/v1/cards/${org.cards.stamps}/promotions`, { key: org.keys.live })).body;
    assert.deepEqual(promotions.map((p: { name: string; value: number; weekdays: number[] }) => [p.name, p.value, p.weekdays]), [['Double stamps on Tuesday afternoons', 2, [2]]]);
  });
});
