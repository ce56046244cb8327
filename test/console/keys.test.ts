// The console's API keys as an owner uses them: a key made in the browser works
// through the API with exactly its scopes, is shown once and never again, and revoking it stops it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { hashKey } from '../../src/keys/key-format';
import { listApiKeys } from '../../src/keys/admin';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, signedInPage, signIn, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Key Café');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const keyCount = () => (app.db.prepare('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n;

/** Fills the form on /console/keys and returns the key the answer shows. */
async function createKey(page: Page, device: string, options: { only?: string[]; mode?: 'Live' | 'Test' } = {}): Promise<string> {
  await page.getByLabel('Device or integration').fill(device);
  if (options.mode) await page.getByRole('radio', { name: new RegExp(`^${options.mode}`) }).check();
  if (options.only) {
    for (const box of await page.getByRole('group', { name: 'Permissions' }).getByRole('checkbox').all()) await box.uncheck();
    for (const scope of options.only) await page.getByLabel(scope).check();
  }
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('heading', { name: 'Your new API key' }).waitFor();
  return page.getByLabel('API key', { exact: true }).inputValue();
}

describe('API keys in the console', () => {
  it('a key made in the console works through the API; a narrowed key is refused what it may not do', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/keys' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const key = await createKey(page, 'Online shop');
    assert.match(key, /^psk_live_[0-9A-Za-z]{32}$/);
    assert.ok(!page.url().includes(key), 'the key is not in the address');

    // The copy button copies the whole key.
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), key);

    const cards = await app.request('GET', '/api/v1/cards', { key });
    assert.equal(cards.status, 200, cards.text);
    assert.ok(cards.body.some((c: { cardId: string }) => c.cardId === org.cards.stamps));

    await page.getByRole('link', { name: 'Done, I have stored the key' }).click();
    const reader = await createKey(page, 'Reporting', { only: ['customers:read'] });
    const refused = await app.request('GET', '/api/v1/cards', { key: reader });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, 'Missing scope(s): cards:read');
    const stored = listApiKeys(app.deps, org.orgId).find((k) => k.deviceName === 'Reporting')!;
    assert.deepEqual(stored.scopes, ['customers:read']);
    await context.close();
  });

  it('the raw key is shown once: only its hash is stored, and no later page or answer carries it', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/keys' });
    const answers: { url: string; cacheControl: string | undefined; body: string }[] = [];
    // A page can be on screen before its answer's body has been read here: each read is awaited
    // before the answers are looked at (under a busy machine the key's answer was not yet in).
    const reads: Promise<void>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'document') return;
      reads.push(res.text().catch(() => '').then((body) => void answers.push({ url: res.url(), cacheControl: res.headers()['cache-control'], body })));
    });
    const key = await createKey(page, 'Till 2');
    await Promise.all(reads);
    const created = answers.find((a) => a.body.includes(key))!;
    assert.equal(created.cacheControl, 'no-store', 'the answer that shows the key is never cached');
    assert.equal(created.url, `${app.url}/console/keys`, 'rendered in the POST answer, not behind a redirect');
    const row = app.db.prepare('SELECT * FROM api_keys WHERE device_name = ?').get('Till 2') as Record<string, unknown>;
    assert.equal(row.key_hash, hashKey(key));
    assert.ok(!JSON.stringify(row).includes(key), 'the database holds the hash and a hint, never the key');

    await page.getByRole('link', { name: 'Done, I have stored the key' }).click();
    await page.getByRole('link', { name: 'Revoke Till 2' }).click();
    await page.reload();
    await page.goto(`${app.url}/console/keys`);
    await Promise.all(reads);
    const later = answers.filter((a) => a !== created);
    assert.ok(later.length >= 3);
    for (const answer of later) assert.ok(!answer.body.includes(key), `${answer.url} does not show the key`);
    assert.ok((await page.content()).includes(key.slice(0, 13)), 'the list shows the hint');
    await context.close();
  });

  it('without JavaScript the key is still there to select and copy, and the copy button stays out of the way', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, app, org, '/console/keys');
    const key = await createKey(page, 'Kiosk');
    assert.match(key, /^psk_live_/);
    assert.equal(await page.getByRole('button', { name: 'Copy' }).isVisible(), false);
    assert.equal(await page.getByLabel('API key', { exact: true }).getAttribute('readonly'), '');
    await context.close();
  });

  it('revoke asks first; after it the key is answered 401 and the list says revoked', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/keys' });
    const key = await createKey(page, 'Old till');
    assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 200);
    await page.getByRole('link', { name: 'Done, I have stored the key' }).click();
    await page.getByRole('link', { name: 'Revoke Old till' }).click();
    await page.getByText('Revoke key Old till').first().waitFor();
    assert.match((await page.locator('main').textContent())!, /Revoke key Old till \(psk_live_.{4}…\)\? Integrations using it stop at once\./);
    assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 200, 'the confirmation page alone revokes nothing');

    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'Key Old till' }).waitFor();
    assert.match(page.url(), /\/console\/keys\?revoked=key_/);
    assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 401);
    const row = page.getByRole('row').filter({ hasText: 'Old till' });
    assert.match((await row.textContent())!, /Revoked/);
    assert.equal(await row.getByRole('link', { name: /Revoke/ }).count(), 0, 'a revoked key has no revoke link');
    await context.close();
  });

  it('a bad form comes back with its messages and writes nothing', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/keys' });
    const before = keyCount();
    await page.getByLabel('Device or integration').fill('   ');
    for (const box of await page.getByRole('group', { name: 'Permissions' }).getByRole('checkbox').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    assert.match((await page.locator('#f-deviceName-error').textContent())!, /Name the device or integration/);
    assert.match((await page.locator('#f-scopes-error').textContent())!, /Choose at least one permission/);
    assert.equal(await page.getByRole('group', { name: 'Permissions' }).getAttribute('aria-invalid'), 'true');
    assert.equal(keyCount(), before);
    await context.close();
  });

  it('follows the switch: test data puts test keys first and makes a test key, which sees only test data', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/keys' });
    const headings = async () => (await page.getByRole('heading', { level: 2 }).allTextContents()).map((t) => t.trim().split(/\s/)[0]);
    assert.deepEqual((await headings()).slice(0, 2), ['Live', 'Test']);
    assert.equal(await page.getByRole('radio', { name: /^Live/ }).isChecked(), true);

    await page.getByRole('button', { name: 'Switch to test data' }).click();
    await page.waitForURL(/\/console\/keys$/);
    assert.deepEqual((await headings()).slice(0, 2), ['Test', 'Live']);
    assert.equal(await page.getByRole('radio', { name: /^Test/ }).isChecked(), true);
    const key = await createKey(page, 'Sandbox');
    assert.match(key, /^psk_test_/);
    const created = await app.request('POST', '/api/v1/customers', { key, body: { externalCustomerId: 'sandbox-1', cardId: org.cards.points } });
    assert.equal(created.status, 201, created.text);
    const row = app.db.prepare('SELECT livemode FROM customers WHERE id = ?').get(created.body.passUserId) as { livemode: number };
    assert.equal(row.livemode, 0, 'the customer is a test customer');
    await page.goto(`${app.url}/console/keys`);
    const testSection = page.getByRole('region', { name: /^Test keys/ });
    assert.match((await testSection.textContent())!, /Sandbox/);
    assert.doesNotMatch((await page.getByRole('region', { name: /^Live keys/ }).textContent())!, /Sandbox/);
    await page.getByRole('button', { name: 'Switch to live data' }).click();
    await context.close();
  });
});

describe('API keys over HTTP', () => {
  it("another org's key cannot be revoked or even looked at", async () => {
    const other = await seedConsoleOrg(app, 'Other Café');
    const theirs = listApiKeys(app.deps, other.orgId).find((k) => k.deviceName === 'live')!;
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, org.admin.password);
    const csrf = await client.csrfFrom('/console/keys');
    const confirm = await client.request('GET', `/console/keys/${theirs.id}/revoke`);
    assert.equal(confirm.status, 404);
    const revoke = await client.request('POST', `/console/keys/${theirs.id}/revoke`, { form: { _csrf: csrf } });
    assert.equal(revoke.status, 404);
    assert.doesNotMatch(revoke.text, /Other Café/);
    assert.equal(listApiKeys(app.deps, other.orgId).find((k) => k.id === theirs.id)!.revokedAt, null);
    assert.equal((await app.request('GET', '/api/v1/cards', { key: other.keys.live })).status, 200);
    assert.doesNotMatch((await client.request('GET', '/console/keys')).text, new RegExp(theirs.id));
  });

  it('a forged form (unknown mode or scope, an overlong name) gets its field messages and writes nothing', async () => {
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, org.admin.password);
    const csrf = await client.csrfFrom('/console/keys');
    const cases: { form: Record<string, string>; field: string; message: RegExp }[] = [
      { form: { deviceName: 'Till', mode: 'admin', scopes: 'cards:read' }, field: 'mode', message: /Choose live or test\./ },
      { form: { deviceName: 'Till', mode: 'live', scopes: 'everything' }, field: 'scopes', message: /Unknown permission\./ },
      { form: { deviceName: 'x'.repeat(101), mode: 'live', scopes: 'cards:read' }, field: 'deviceName', message: /At most 100 characters\./ },
    ];
    const before = keyCount();
    for (const c of cases) {
      const res = await client.request('POST', '/console/keys', { form: { _csrf: csrf, ...c.form } });
      assert.equal(res.status, 400, c.field);
      const error = new RegExp(`id="f-${c.field}-error">([^<]*)<`).exec(res.text);
      assert.match(error?.[1] ?? '(no message)', c.message, c.field);
      assert.doesNotMatch(res.text, /psk_live_[0-9A-Za-z]{32}/, 'no key in a refusal');
    }
    assert.equal(keyCount(), before);
  });

  it('the list shows last use in the shop’s time zone', async () => {
    const local = await seedConsoleOrg(app, 'Zone Café');
    app.db.prepare(`UPDATE orgs SET settings = json_set(settings, '$.timeZone', 'America/New_York') WHERE id = ?`).run(local.orgId);
    assert.equal((await app.request('GET', '/api/v1/cards', { key: local.keys.reader })).status, 403, 'a refused call still counts as a use');
    const client = new ConsoleClient(app);
    await client.signIn(local.admin.email, local.admin.password);
    const page = (await client.request('GET', '/console/keys')).text;
    // The fake clock starts at 2026-01-01T00:00Z: 19:00 on New Year's Eve in New York.
    const readerRow = page.split('<tr').find((row) => row.includes('<strong>reader</strong>'))!;
    assert.match(readerRow, /2025-12-31 19:00<\/time>/);
  });
});
