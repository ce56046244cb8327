// The card's programme at the counter in real headless Chromium, on a phone's width: a customer
// on a card with three rewards while a promotion runs sees the affordable reward enabled and the
// others disabled with what is missing, what a tap gives before making it, redeems in one tap, and
// the buttons stay as the balance allows after the tap. Controls are found by role and label.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { writeOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { apiCustomer, ledgerRows, seedCounterOrg, unlockedCounter, type CounterOrg } from './support';

let app: TestApp;
let org: CounterOrg;
let browser: Browser;
const ids: Record<string, string> = {};

before(async () => {
  app = await startTestApp();
  app.clock.set(Date.parse('2026-03-03T14:10:00Z')); // a Tuesday, 15:10 in Berlin
  org = await seedCounterOrg(app, 'Corner Café');
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin', counter: { lockAfterMinutes: 30, staffDailyAwardCap: null, customerDailyAwardCap: null } }))();
  const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, {
    key: org.keys.live,
    body: { rewards: [{ name: 'Free coffee', cost: 10 }, { name: 'Cake', cost: 6, description: 'Any slice' }, { name: 'Lunch', cost: 15 }] },
  });
  assert.equal(patched.status, 200, patched.text);
  for (const r of patched.body.rewards as { id: string; name: string }[]) ids[r.name] = r.id;
  const promotion = await app.request('POST', `/api/v1/cards/${org.cards.stamps}/promotions`, {
    key: org.keys.live,
    body: { name: 'Double Tuesday', kind: 'multiplier', value: 2, startsAt: '2026-03-01', endsAt: '2026-03-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } },
  });
  assert.equal(promotion.status, 201, promotion.text);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const reward = (page: Page, name: string) => page.getByRole('region', { name: 'Rewards' }).getByRole('button', { name });
/** The text a control's aria-describedby points at, as a screen reader reads it after the name. */
async function describedBy(page: Page, control: ReturnType<Page['getByRole']>): Promise<string | null> {
  const id = await control.getAttribute('aria-describedby');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}
const description = (page: Page, name: string) => describedBy(page, reward(page, name));

describe('counter: rewards and promotions in the browser', () => {
  it('shows the rewards and the promotion, previews the award, and redeems the chosen reward in one tap', async () => {
    const mia = await apiCustomer(app, org, { name: 'Mia Rewards', initial: 7 });
    const { context, page } = await unlockedCounter(browser, app.url, org, { width: 390, height: 844 });
    await page.getByLabel('Pass code, name, phone or email').fill('Mia Rewards');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('heading', { name: 'Mia Rewards', level: 2 }).waitFor();

    const promos = page.getByRole('region', { name: 'Promotion running now' });
    assert.equal((await promos.innerText()).replace(/\s+/g, ' ').trim(), 'Promotion running now Double Tuesday · double stamps · until 17:00');
    for (const [name, enabled, said] of [
      ['Redeem Free coffee (10 stamps)', false, '3 stamps missing'],
      ['Redeem Cake (6 stamps)', true, 'Any slice'],
      ['Redeem Lunch (15 stamps)', false, '8 stamps missing'],
    ] as const) {
      assert.equal(await reward(page, name).isEnabled(), enabled, name);
      assert.equal(await description(page, name), said, name);
    }
    assert.equal(await page.getByText('12 points expire').count(), 0);

    // Before the tap: what each quick button and a typed amount give with Double Tuesday.
    const plusTwo = page.getByRole('button', { name: '+2 stamps', exact: true });
    assert.equal(await describedBy(page, plusTwo), '+2 more from Double Tuesday');
    await page.getByLabel('Stamps to add').fill('5');
    await page.locator('output[for="cx-flat"]').filter({ hasText: '+5 stamps, +5 more from Double Tuesday' }).waitFor();
    await page.getByLabel('Stamps to add').fill('');

    // One tap redeems the cake: the API's redeem, with its rewardId.
    await reward(page, 'Redeem Cake (6 stamps)').click();
    await page.getByRole('status').filter({ hasText: 'Cake redeemed · Mia Rewards now has 1 stamp.' }).waitFor();
    const row = ledgerRows(app, mia.passUserId).at(-1)!;
    assert.deepEqual([row.kind, row.change, row.source, JSON.parse(row.details!).reward.id], ['redeem', -600, 'scan', ids.Cake]);
    // Once the double-tap guard lets go, the buttons the balance does not pay stay disabled.
    await page.locator('#counter-panel[aria-busy="false"]').waitFor();
    await page.getByRole('button', { name: '+1 stamp', exact: true }).and(page.locator(':enabled')).waitFor();
    for (const name of ['Redeem Free coffee (10 stamps)', 'Redeem Cake (6 stamps)', 'Redeem Lunch (15 stamps)']) assert.equal(await reward(page, name).isDisabled(), true, name);
    assert.equal(await description(page, 'Redeem Cake (6 stamps)'), '5 stamps missing · Any slice');

    // +1 stamp on Double Tuesday gives 2, as the screen said.
    await page.getByRole('button', { name: '+1 stamp', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '+2 stamps (+1 stamp from Double Tuesday) · Mia Rewards now has 3 stamps.' }).waitFor();
    assert.equal(ledgerRows(app, mia.passUserId).at(-1)!.change, 200);
    await context.close();
  });
});
