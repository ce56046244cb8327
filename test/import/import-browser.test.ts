// Customers → Import in a real browser, as an owner switching from another app: upload a file of a
// few hundred rows with bad ones, change a suggested mapping, run the dry run, import (the progress
// page follows the server), download the report; then the dashboard and the consent block. Controls
// are found by role and label.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { seedConsoleOrg, signedInPage, startTestApp, type ConsoleOrg } from '../support/console';
import { customerFile, expectedCounts } from './support';

let app: TestApp;
let org: ConsoleOrg;
let browser: Browser;
let dir: string;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Browser Import Café');
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(tmpdir(), 'wl-import-browser-'));
});
after(async () => {
  await browser?.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('importing customers in the console', () => {
  it('upload, change a mapping, dry run, import with progress, download the report', async () => {
    const file = customerFile(240, { emailPrefix: 'web' });
    const counts = expectedCounts(file.rows);
    const csv = path.join(dir, 'previous-app.csv');
    writeFileSync(csv, file.text);
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/customers' });

    await page.getByRole('link', { name: 'Import from CSV' }).click();
    await page.getByLabel('Card').selectOption({ label: 'Coffee stamps (Stamp card)' });
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv);
    await page.getByRole('button', { name: 'Upload and check the columns' }).click();
    await page.getByRole('heading', { name: '2. Which column goes where' }).waitFor();

    // Suggested from the headers; the owner leaves the member number out.
    assert.equal(await page.getByLabel('Goes to (E-Mail)').inputValue(), 'email');
    assert.equal(await page.getByLabel('Goes to (Stamps)').inputValue(), 'balance');
    assert.equal(await page.getByLabel('Goes to (Member number)').inputValue(), 'q:memberNo');
    await page.getByLabel('Goes to (Member number)').selectOption({ label: 'Leave out' });
    await page.getByRole('button', { name: 'Check the file (dry run)' }).click();

    await page.getByRole('heading', { name: '3. Dry run: what the import would do' }).waitFor();
    assert.equal(await page.locator('#figure-created dd').textContent(), String(counts.created));
    assert.equal(await page.locator('#figure-refused dd').textContent(), String(counts.refused));
    const refusedTable = page.getByRole('table', { name: 'Refused rows' });
    assert.equal(await refusedTable.getByRole('row').count(), counts.refused + 1);
    assert.equal(await page.getByLabel('Goes to (Member number)').inputValue(), '', 'the changed mapping is kept');
    assert.equal((app.db.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n, 0, 'a dry run writes nothing');

    await page.getByRole('button', { name: `Import ${counts.created} customers` }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    assert.equal(await page.locator('#figure-created dd').textContent(), String(counts.created));
    assert.equal(await page.locator('#figure-matched dd').textContent(), String(counts.matched));

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the report (CSV)' }).click();
    const report = parse(readFileSync(await (await download).path()), { bom: true, columns: true }) as Record<string, string>[];
    assert.equal(report.length, file.rows.length);
    assert.deepEqual(report.filter((r) => r.Outcome === 'refused').map((r) => Number(r.Row)), file.rows.filter((r) => r.outcome === 'refused').map((r) => r.row));

    const stored = app.db.prepare("SELECT custom_fields FROM customers WHERE email = 'web1@example.com'").get() as { custom_fields: string };
    assert.deepEqual(JSON.parse(stored.custom_fields), { size: 'S' }, 'the column left out was not imported');

    await page.getByRole('link', { name: 'See the customers' }).click();
    await page.getByRole('link', { name: 'First239 Last239' }).waitFor();
    await page.goto(`${app.url}/console/dashboard`);
    const channels = page.getByRole('table', { name: 'By channel' }).first();
    assert.match((await channels.getByRole('row', { name: /Imported/ }).textContent())!.replace(/\s+/g, ' '), new RegExp(`Imported.*${counts.created}`));
    await context.close();
  });
});
