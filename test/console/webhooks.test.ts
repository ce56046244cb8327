// The console's webhooks as an owner uses them (issue 10 §7), with the real delivery worker and a
// real receiver: create (secret shown once), signed deliveries, edit, disable, delete, every attempt
// of a delivery, replay; refusals on the form; each side of the live/test switch has its own endpoints.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { MAX_WEBHOOKS_PER_MODE } from '../../src/webhooks/service';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, signedInPage, type ConsoleOrg } from '../support/console';
import { eventually, startReceiver, verifySignature, type Receiver } from '../support/receiver';
import { createEndpoint, startWebhookApp, type WebhookTestApp } from '../support/webhooks';

let app: WebhookTestApp;
let browser: Browser;
const receivers: Receiver[] = [];

before(async () => {
  app = await startWebhookApp();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

let customerNo = 0;
/** A balance change through the API, as an integration makes one: one balance.updated event. */
async function apiEarn(org: ConsoleOrg, key = org.keys.live): Promise<void> {
  const externalCustomerId = `crm-${++customerNo}`;
  const enrolled = await app.request('POST', '/api/v1/customers', { key, body: { externalCustomerId, cardId: org.cards.points } });
  assert.equal(enrolled.status, 201, enrolled.text);
  const earned = await app.request('POST', `/api/v1/customers/${externalCustomerId}/earn`, { key, body: { type: 'points', amount: 5 } });
  assert.equal(earned.status, 201, earned.text);
}

const endpointRows = (orgId: string) => app.db.prepare('SELECT id, url, events, status, livemode FROM webhooks WHERE org_id = ? ORDER BY created_at, rowid').all(orgId) as { id: string; url: string; events: string; status: string; livemode: number }[];

/** An endpoint made through the API, with one delivered customer.enrolled event. */
async function endpointWithDelivery(org: ConsoleOrg, r: Receiver): Promise<{ endpointId: string; deliveryId: string }> {
  await createEndpoint(app, org.keys.live, r.url, ['customer.enrolled']);
  const endpointId = endpointRows(org.orgId).at(-1)!.id;
  const before = r.requests.length;
  await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: `d-${++customerNo}`, cardId: org.cards.points } });
  await r.waitFor(before + 1);
  await app.worker.idle();
  const delivery = app.db.prepare('SELECT id FROM webhook_deliveries WHERE webhook_id = ?').get(endpointId) as { id: string };
  return { endpointId, deliveryId: delivery.id };
}

const deliveryCount = (endpointId: string) => (app.db.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?').get(endpointId) as { n: number }).n;

async function addEndpoint(page: Page, url: string, events?: string[]): Promise<string> {
  await page.getByLabel('Endpoint URL').fill(url);
  if (events) {
    await page.getByLabel('All events').uncheck();
    for (const type of events) await page.getByLabel(type).check();
  }
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('heading', { name: 'Signing secret' }).waitFor();
  return page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
}

describe('webhooks in the console', () => {
  it('creates an endpoint: the secret is shown once, and a real receiver gets a signed event after an API earn', async () => {
    const org = await seedConsoleOrg(app, 'Hook Café');
    const r = await receiver();
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/webhooks' });
    const secret = await addEndpoint(page, r.url);
    assert.match(secret, /^whsec_[0-9A-Za-z]{32}$/);
    const [row] = endpointRows(org.orgId);
    assert.deepEqual([row!.url, JSON.parse(row!.events), row!.status, row!.livemode], [r.url, ['*'], 'active', 1]);

    await apiEarn(org);
    await r.waitFor(2);
    const balance = r.requests.find((q) => q.headers['x-loyalty-event-type'] === 'balance.updated')!;
    assert.ok(verifySignature(secret, String(balance.headers['x-loyalty-signature']), balance.body, app.clock.now() / 1000), 'signed with the secret the page showed');

    await page.getByRole('link', { name: 'Done, I have stored the secret' }).click();
    await page.waitForURL(new RegExp(`/console/webhooks/${row!.id}$`));
    assert.ok(!(await page.content()).includes(secret), 'the endpoint page never shows the secret');
    const list = await page.goto(`${app.url}/console/webhooks`);
    assert.ok(!(await list!.text()).includes(secret));
    const delivery = page.locator('article.delivery');
    await page.goto(`${app.url}/console/webhooks/${row!.id}`);
    assert.equal(await delivery.count(), 2);
    assert.match((await delivery.first().textContent())!, /balance\.updated\s+Succeeded/);
    await context.close();
  });

  it('shows every attempt of a delivery (a failure, then the retry that succeeded) and replays it', async () => {
    const org = await seedConsoleOrg(app, 'Retry Café');
    const r = await receiver();
    r.answer((n) => (n === 0 ? { status: 503 } : { status: 204 }));
    await createEndpoint(app, org.keys.live, r.url, ['customer.enrolled']);
    const [row] = endpointRows(org.orgId);
    const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'retry-1', cardId: org.cards.points } });
    assert.equal(enrolled.status, 201);
    await r.waitFor(1);
    await app.worker.idle();
    app.clock.advance(app.config.webhooks.retryDelaysMs[0]!);
    app.worker.wake();
    await r.waitFor(2);
    await app.worker.idle();

    const { context, page } = await signedInPage(browser, app, org, { next: `/console/webhooks/${row!.id}` });
    const delivery = page.locator('article.delivery');
    assert.equal(await delivery.count(), 1);
    assert.match((await delivery.getByRole('heading').textContent())!, /customer\.enrolled\s+Succeeded/);
    const attempts = delivery.getByRole('table', { name: 'Attempts' }).locator('tbody tr');
    assert.equal(await attempts.count(), 2);
    const cells = async (i: number) => (await attempts.nth(i).locator('td').allTextContents()).map((t) => t.trim());
    const [first, second] = [await cells(0), await cells(1)];
    assert.deepEqual([first[0], first[1], first[2], first[3]], ['1', 'Failed', '503', 'the receiver answered 503']);
    assert.match(first[4]!, /^\d+ ms$/);
    assert.deepEqual([second[0], second[1], second[2]], ['2', 'Succeeded', '204']);
    assert.match(second[5]!, /^2026-01-01 \d\d:00:10$/, 'the retry is 10 s after the first attempt');

    // Replay: the console wakes the worker itself, as the API route does.
    await delivery.getByRole('button', { name: /^Replay/ }).click();
    await page.getByRole('status').filter({ hasText: 'queued to be sent again' }).waitFor();
    await eventually(() => r.requests.length >= 3, 'the replay at the receiver');
    assert.equal(r.eventIds()[2], r.eventIds()[0], 'a replay carries the same event id');
    await app.worker.idle();
    await page.reload();
    assert.equal(await delivery.count(), 2);
    assert.match((await delivery.first().textContent())!, /replay of wd_/);
    await eventually(async () => {
      await page.reload();
      return /Succeeded/.test((await delivery.first().getByRole('heading').textContent())!);
    }, 'the replay shown as succeeded');
    await context.close();
  });

  it('edits the URL and events, disables (nothing is delivered), enables, and deletes after asking', async () => {
    const org = await seedConsoleOrg(app, 'Edit Café');
    const [first, second] = [await receiver(), await receiver()];
    await createEndpoint(app, org.keys.live, first.url, ['*']);
    const [row] = endpointRows(org.orgId);
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/webhooks' });
    await page.getByRole('link', { name: first.url }).click();

    await page.getByLabel('Endpoint URL').fill(second.url);
    await page.getByLabel('All events').uncheck();
    await page.getByLabel('balance.updated').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.deepEqual([endpointRows(org.orgId)[0]!.url, JSON.parse(endpointRows(org.orgId)[0]!.events)], [second.url, ['balance.updated']]);
    assert.equal(await page.getByLabel('balance.updated').isChecked(), true);
    assert.equal(await page.getByLabel('All events').isChecked(), false);

    await apiEarn(org);
    await second.waitFor(1);
    await app.worker.idle();
    assert.deepEqual(second.requests.map((q) => q.headers['x-loyalty-event-type']), ['balance.updated'], 'only the chosen event type');
    assert.equal(first.requests.length, 0);

    await page.getByRole('button', { name: 'Disable endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'disabled' }).waitFor();
    assert.equal(endpointRows(org.orgId)[0]!.status, 'disabled');
    assert.equal(await page.getByRole('button', { name: /^Replay/ }).count(), 0, 'a disabled endpoint offers no replay');
    const deliveriesBefore = deliveryCount(row!.id);
    await apiEarn(org);
    await app.worker.idle();
    assert.equal(second.requests.length, 1, 'nothing is delivered to a disabled endpoint');
    assert.equal(deliveryCount(row!.id), deliveriesBefore);

    await page.getByRole('button', { name: 'Enable endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'enabled' }).waitFor();
    assert.equal(endpointRows(org.orgId)[0]!.status, 'active');

    await page.getByRole('link', { name: 'Delete endpoint…' }).click();
    assert.match((await page.locator('main').textContent())!, /Delete the endpoint .*\? Nothing more is sent to it, and its delivery history is removed\./);
    await page.getByRole('link', { name: 'Cancel' }).click();
    assert.equal(endpointRows(org.orgId).length, 1, 'cancel deletes nothing');
    await page.getByRole('link', { name: 'Delete endpoint…' }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is deleted.' }).waitFor();
    assert.equal(endpointRows(org.orgId).length, 0);
    assert.match((await page.locator('main').textContent())!, /No endpoints yet/);
    await context.close();
  });

  it('refuses a bad URL, no events, "all" mixed with single types and the 21st endpoint, with the API\'s messages, writing nothing', async () => {
    const org = await seedConsoleOrg(app, 'Refusal Café');
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/webhooks' });
    const cases: { url: string; events?: string[]; field: string; message: RegExp }[] = [
      { url: 'ftp://example.com/hook', field: 'url', message: /^Must be an absolute http\(s\) URL$/ },
      { url: 'https://user:pw@example.com/hook', field: 'url', message: /^Must not contain a user name or password/ },
      { url: 'https://example.com/hook', events: [], field: 'events', message: /^Must list at least one event type$/ },
    ];
    for (const c of cases) {
      await page.getByLabel('Endpoint URL').fill(c.url);
      if (c.events) await page.getByLabel('All events').uncheck();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      assert.match((await page.locator(`#f-${c.field}-error`).textContent())!.trim(), c.message, c.url);
      assert.equal(await page.getByLabel('Endpoint URL').inputValue(), c.url, 'the typed URL comes back');
    }
    await page.getByLabel('All events').check();
    await page.getByLabel('reward.redeemed').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    assert.match((await page.locator('#f-events-error').textContent())!, /Check "All events" alone/);
    assert.equal(endpointRows(org.orgId).length, 0);

    for (let i = 0; i < MAX_WEBHOOKS_PER_MODE; i++) await createEndpoint(app, org.keys.live, `https://example.com/hook/${i}`);
    await page.goto(`${app.url}/console/webhooks`);
    assert.match((await page.getByRole('heading', { name: /Endpoints/ }).textContent())!, /20 of 20/);
    await page.getByLabel('Endpoint URL').fill('https://example.com/one-more');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    assert.match((await page.getByRole('alert').textContent())!.trim(), /^An organisation may have 20 live endpoints; delete one first$/);
    assert.equal(endpointRows(org.orgId).length, MAX_WEBHOOKS_PER_MODE);
    await context.close();
  });

  it('follows the switch: test endpoints apart from live ones, named as such', async () => {
    const org = await seedConsoleOrg(app, 'Mode Café');
    const [live, test] = [await receiver(), await receiver()];
    await createEndpoint(app, org.keys.live, live.url);
    const [liveRow] = endpointRows(org.orgId);
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/webhooks' });
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Webhook endpoints');
    await page.getByRole('button', { name: 'Switch to test data' }).click();
    await page.waitForURL(/\/console\/webhooks$/);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Test webhook endpoints');
    assert.equal(await page.getByRole('link', { name: live.url }).count(), 0, 'live endpoints are not on the test side');
    assert.match((await page.locator('main').textContent())!, /No test endpoints yet/);

    await addEndpoint(page, test.url);
    const testRow = endpointRows(org.orgId).find((w) => w.url === test.url)!;
    assert.equal(testRow.livemode, 0);
    await apiEarn(org, org.keys.test);
    await test.waitFor(2);
    await app.worker.idle();
    assert.equal(live.requests.length, 0, 'test events reach only test endpoints');
    await page.goto(`${app.url}/console/webhooks/${testRow.id}`);
    assert.match((await page.getByRole('heading', { level: 1 }).textContent())!, /^Test endpoint/);
    assert.equal(await page.getByRole('heading', { name: 'Test deliveries' }).count(), 1);

    // A live endpoint's page, opened on the test side, leads to the list with a word why.
    await page.goto(`${app.url}/console/webhooks/${liveRow!.id}`);
    assert.match(page.url(), /\/console\/webhooks\?done=otherMode$/);
    await page.getByRole('status').filter({ hasText: 'belongs to the other data set' }).waitFor();
    await page.getByRole('button', { name: 'Switch to live data' }).click();
    assert.equal(await page.getByRole('link', { name: test.url }).count(), 0);
    assert.equal(await page.getByRole('link', { name: live.url }).count(), 1);
    await context.close();
  });
});

describe('webhooks over HTTP', () => {
  it("another org's endpoint and deliveries cannot be read, changed or replayed", async () => {
    const [mine, theirs] = [await seedConsoleOrg(app, 'Mine Café'), await seedConsoleOrg(app, 'Theirs Café')];
    const r = await receiver();
    const their = await endpointWithDelivery(theirs, r);

    const client = new ConsoleClient(app);
    await client.signIn(mine.admin.email, mine.admin.password);
    const csrf = await client.csrfFrom('/console/webhooks');
    assert.equal((await client.request('GET', `/console/webhooks/${their.endpointId}`)).status, 404);
    const attempts = [
      client.request('POST', `/console/webhooks/${their.endpointId}`, { form: { _csrf: csrf, url: 'https://evil.example.com/', events: '*' } }),
      client.request('POST', `/console/webhooks/${their.endpointId}/status`, { form: { _csrf: csrf, status: 'disabled' } }),
      client.request('POST', `/console/webhooks/${their.endpointId}/delete`, { form: { _csrf: csrf } }),
    ];
    for (const res of await Promise.all(attempts)) assert.equal(res.status, 404);
    // Even through an endpoint of one's own: the delivery is looked up in the signed-in org.
    await createEndpoint(app, mine.keys.live, 'https://example.com/mine');
    const [own] = endpointRows(mine.orgId);
    const replay = await client.request('POST', `/console/webhooks/${own!.id}/deliveries/${their.deliveryId}/replay`, { form: { _csrf: csrf } });
    assert.equal(replay.status, 404);
    assert.deepEqual(endpointRows(theirs.orgId).map((w) => [w.url, w.status]), [[r.url, 'active']]);
    assert.equal(deliveryCount(their.endpointId), 1);
  });

  it('under WEBHOOK_BLOCK_PRIVATE a private URL comes back on the URL field with the API\'s message', async () => {
    const strict = await startWebhookApp({ WEBHOOK_BLOCK_PRIVATE: 'true' });
    try {
      const org = await seedConsoleOrg(strict, 'Strict Café');
      const client = new ConsoleClient(strict);
      await client.signIn(org.admin.email, org.admin.password);
      const csrf = await client.csrfFrom('/console/webhooks');
      const api = await strict.request('POST', '/api/v1/webhooks', { key: org.keys.live, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
      assert.equal(api.status, 400);
      const page = await client.request('POST', '/console/webhooks', { form: { _csrf: csrf, url: 'http://127.0.0.1:9/hook', events: '*' } });
      assert.equal(page.status, 400);
      const message = /id="f-url-error">([^<]*)</.exec(page.text)?.[1];
      const apiMessage = api.body.issues[0].message as string;
      assert.equal(message, apiMessage.charAt(0).toUpperCase() + apiMessage.slice(1));
      assert.equal((strict.db.prepare('SELECT count(*) AS n FROM webhooks').get() as { n: number }).n, 0);
    } finally {
      await strict.close();
    }
  });

  it('a replay on a disabled endpoint is refused on the page, and nothing is queued', async () => {
    const org = await seedConsoleOrg(app, 'Paused Café');
    const { endpointId, deliveryId } = await endpointWithDelivery(org, await receiver());
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, org.admin.password);
    const csrf = await client.csrfFrom(`/console/webhooks/${endpointId}`);
    assert.equal((await client.request('POST', `/console/webhooks/${endpointId}/status`, { form: { _csrf: csrf, status: 'disabled' } })).status, 303);
    const replay = await client.request('POST', `/console/webhooks/${endpointId}/deliveries/${deliveryId}/replay`, { form: { _csrf: csrf } });
    assert.equal(replay.status, 409);
    assert.match(replay.text, /This endpoint is disabled: enable it before replaying a delivery\./);
    assert.equal(deliveryCount(endpointId), 1);
  });
});
