// The owner sets the counter's lock and caps on the console's settings page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readOrgSettings } from '../../src/orgs/settings';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import type { TestApp } from '../support/app';

let app: TestApp;
let org: ConsoleOrg;
before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Settings Café');
});
after(() => app?.close());

describe('console settings: the counter panel', () => {
  it('shows the defaults, refuses bad values with their messages and writes nothing, saves good ones (empty: no cap)', async () => {
    const owner = new ConsoleClient(app);
    await owner.signIn(org.admin.email, org.admin.password);
    const page = await owner.request('GET', '/console/settings');
    assert.match(page.text, /<h2 id="counter-settings-heading">Counter<\/h2>/);
    assert.match(page.text, /name="lockAfterMinutes" type="text" value="5"/);
    const csrf = await owner.csrfFrom('/console/settings');

    const bad = await owner.request('POST', '/console/settings/counter', { form: { _csrf: csrf, lockAfterMinutes: '0', staffDailyAwardCap: 'lots', customerDailyAwardCap: '1001', confirmStamps: '0', confirmPoints: '1000', confirmCredit: '1.234' } });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /id="f-lockAfterMinutes-error">Enter a whole number of minutes from 1 to 240\./);
    assert.match(bad.text, /id="f-staffDailyAwardCap-error">Enter a whole number from 1 to 100000, or leave it empty for no limit\./);
    assert.match(bad.text, /id="f-customerDailyAwardCap-error">Enter a whole number from 1 to 1000, or leave it empty for no limit\./);
    assert.match(bad.text, /id="f-confirmStamps-error">Enter a whole number of at least 1, such as 10\./);
    assert.match(bad.text, /id="f-confirmCredit-error">Enter an amount of at least 1, such as 200\./);
    assert.match(bad.text, /value="lots"/, 'what was typed comes back');
    const defaults = { stamps: 1000, points: 100_000, credit: 20_000 };
    assert.deepEqual(readOrgSettings(app.db, org.orgId).counter, { lockAfterMinutes: 5, staffDailyAwardCap: null, customerDailyAwardCap: null, confirmAbove: defaults });

    const good = await owner.request('POST', '/console/settings/counter', { form: { _csrf: csrf, lockAfterMinutes: ' 10 ', staffDailyAwardCap: '40', customerDailyAwardCap: '', confirmStamps: '20', confirmPoints: '1000', confirmCredit: '150,50' } });
    assert.equal(good.status, 303);
    assert.equal(good.headers.get('location'), '/console/settings?counterSaved=1#counter-settings');
    assert.deepEqual(readOrgSettings(app.db, org.orgId).counter, { lockAfterMinutes: 10, staffDailyAwardCap: 40, customerDailyAwardCap: null, confirmAbove: { stamps: 2000, points: 100_000, credit: 15_050 } });
    const saved = await owner.request('GET', '/console/settings?counterSaved=1');
    assert.match(saved.text, /Counter settings saved\./);
    assert.match(saved.text, /name="staffDailyAwardCap" type="text" value="40"/);

    const forged = await owner.request('POST', '/console/settings/counter', { form: { lockAfterMinutes: '1', staffDailyAwardCap: '', customerDailyAwardCap: '' } });
    assert.equal(forged.status, 403, 'the console guard checks the token');
    assert.equal(readOrgSettings(app.db, org.orgId).counter.lockAfterMinutes, 10);
  });
});
