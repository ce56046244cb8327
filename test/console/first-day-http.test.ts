// The first day over HTTP: what the browser test does not go through — the checklist folded once
// done, archived cards at the API and the forms, current time-zone names and the shop's country,
// local phone numbers at the counter, the web pass's users, home-screen manifest and icons, the
// welcome page, the Staff page's CSV, help pages, and the large award's question.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { fillKeys, identifierFrom } from '../../src/console/cards/question-keys';
import { canonicalZone, countryOfZone } from '../../src/lib/time-zones';
import { readOrgSettings, writeOrgSettings } from '../../src/orgs/settings';
import { runBackup } from '../../src/backups/service';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { apiCustomer, seedCounterOrg, STAFF } from '../counter/support';
import { CounterClient, messageOf } from '../counter/client';

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(async () => app?.close());

async function owner(org: ConsoleOrg): Promise<ConsoleClient> {
  const client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
  return client;
}

const installCode = (passUserId: string) => (app.db.prepare('SELECT install_code AS c FROM customers WHERE id = ?').get(passUserId) as { c: string }).c;

describe('names made from labels', () => {
  it('turns what the owner wrote into keys and stored values, unique and never reserved', () => {
    for (const [text, key] of [
      ['Favourite drink', 'favouriteDrink'],
      ['  Größe (cm) ', 'grosseCm'],
      ['Café crème', 'cafeCreme'],
      ['2nd phone', 'ndPhone'],
      ['Любимый напиток', ''],
    ] as const) {
      assert.equal(identifierFrom(text), key, text);
    }
    const filled = fillKeys([
      { key: '', label: 'Email', options: [] },
      { key: 'size', label: 'Size', options: [] },
      { key: '', label: 'Size', options: [{ value: '', label: 'Small' }, { value: 'small', label: 'Tiny' }, { value: '', label: 'Небольшой' }] },
      { key: '', label: '', options: [] },
    ]);
    assert.deepEqual(
      filled.map((q) => [q.key, q.options.map((o) => o.value)]),
      [['emailAnswer', []], ['size', []], ['size2', ['small2', 'small', 'choice3']], ['', []]],
    );
  });
});

describe('time zones and the shop country', () => {
  it('reads old zone names as the current ones, offers only current names, and suggests the country from the zone', async () => {
    for (const [typed, zone] of [['Asia/Calcutta', 'Asia/Kolkata'], ['Europe/Kiev', 'Europe/Kyiv'], ['europe / kyiv', 'Europe/Kyiv'], ['America/New York', 'America/New_York'], ['UTC', 'UTC'], ['Mars/Olympus', null]] as const) {
      assert.equal(canonicalZone(typed), zone, typed);
    }
    assert.equal(countryOfZone('Asia/Calcutta'), 'IN');
    const org = await seedConsoleOrg(app, 'Zone Café');
    const client = await owner(org);
    const page = await client.request('GET', '/console/settings');
    assert.match(page.text, /<option value="Asia\/Kolkata">India<\/option>/);
    assert.doesNotMatch(page.text, /value="Asia\/Calcutta"|value="Europe\/Kiev"/);
    const csrf = await client.csrfFrom('/console/settings');
    const form = { _csrf: csrf, name: 'Zone Café', brandColor: '#225588', country: '' };
    const bad = await client.request('POST', '/console/settings', { form: { ...form, timeZone: 'Mars/Olympus', country: 'XX' } });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /Pick the time zone of your shop from the list/);
    assert.match(bad.text, /Pick a country from the list\./);
    const good = await client.request('POST', '/console/settings', { form: { ...form, timeZone: 'Europe/Kiev' } });
    assert.equal(good.status, 303);
    assert.equal(readOrgSettings(app.db, org.orgId).timeZone, 'Europe/Kyiv');
    assert.match((await client.request('GET', '/console/settings')).text, /<option value="">The time zone(?:'|&#39;)s: Ukraine<\/option>/);
  });

  it('finds a customer at the counter by a phone number typed the local way, in the shop\'s country', async () => {
    const org = await seedCounterOrg(app, 'Local Phone Café');
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/London' }))();
    const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId: org.cards.stamps, externalCustomerId: 'local-1', name: 'Lola Local', phone: '+44 7700 900123' } });
    assert.equal(res.status, 201, res.text);
    const sam = new CounterClient(app, org.orgId);
    await sam.unlock(STAFF[0]!.pin);
    assert.match((await sam.get(`/find?q=${encodeURIComponent('07700 900123')}`)).text, /Lola Local/, 'GB from the time zone');
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { country: 'DE' }))();
    assert.match((await sam.get(`/find?q=${encodeURIComponent('07700 900123')}`)).text, /Nobody matches/, 'read as a German number now');
  });
});

describe('archived and deleted cards', () => {
  it('an archived card takes no sign-up and no counter enrolment; a card with live customers is not deleted', async () => {
    const org = await seedCounterOrg(app, 'Archive Café');
    await apiCustomer(app, org, { card: 'stamps' });
    const client = await owner(org);
    const csrf = await client.csrfFrom(`/console/cards/${org.cards.stamps}`);
    const refused = await client.request('POST', `/console/cards/${org.cards.stamps}/delete`, { form: { _csrf: csrf } });
    assert.equal(refused.status, 409);
    assert.match(refused.text, /Coffee stamps has 1 customer with a pass, so it cannot be deleted\. Archive it instead/);
    assert.equal((await client.request('POST', `/console/cards/${org.cards.stamps}/archive`, { form: { _csrf: csrf } })).status, 303);
    const signup = await fetch(`${app.url}/get-pass/${org.cards.stamps}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url }, body: 'name=x' });
    assert.equal(signup.status, 403);
    assert.match(await signup.text(), /no longer takes new members/);
    const sam = new CounterClient(app, org.orgId);
    await sam.unlock(STAFF[0]!.pin);
    const enroll = await sam.request('POST', `${sam.base}/enroll`, { form: { mode: 'live', key: 'k-archived-1', card: org.cards.stamps, name: 'New One', email: 'new@example.com' }, headers: { 'X-CSRF-Token': sam.csrf } });
    assert.equal(enroll.status, 400);
    assert.equal(messageOf(enroll).code, 'CARD_ARCHIVED');
    const poster = await client.request('GET', `/console/cards/${org.cards.stamps}/poster`);
    assert.match(poster.text, /Coffee stamps is archived\./);
  });
});

describe('the counter asks before a large award', () => {
  it('answers a question and writes nothing until confirmed; a sale worth many points is asked about too', async () => {
    const org = await seedCounterOrg(app, 'Large Café');
    const anna = await apiCustomer(app, org, { card: 'stamps', name: 'Anna Large' });
    const pete = await apiCustomer(app, org, { card: 'points', name: 'Pete Points' });
    const sam = new CounterClient(app, org.orgId);
    await sam.unlock(STAFF[0]!.pin);
    const balance = (id: string) => (app.db.prepare('SELECT balance FROM customers WHERE id = ?').get(id) as { balance: number }).balance;
    for (const [customer, fields, question] of [
      [anna, { what: 'flat', amount: '11' }, 'Add 11 stamps to Anna Large?'],
      [pete, { what: 'spend', amount: '700' }, 'Add 1,050 points to Pete Points?'],
    ] as const) {
      const asked = await sam.act('earn', { customer: customer.passUserId, ...fields });
      assert.equal(asked.status, 200);
      assert.match(asked.text, new RegExp(question.replace('?', '\\?')));
      assert.equal(balance(customer.passUserId), 0, 'nothing written');
      const done = await sam.act('earn', { customer: customer.passUserId, ...fields, confirmed: 'yes' });
      assert.match(done.text, /class="cx-confirm"/);
      assert.ok(balance(customer.passUserId) > 0);
    }
    assert.match((await sam.act('earn', { customer: anna.passUserId, what: 'flat', amount: '10' })).text, /✓ \+10 stamps/, '10 is not more than 10');
  });
});

describe('the customer side', () => {
  it('welcomes the new member in the shop\'s colours, with ways to keep the card', async () => {
    const org = await seedConsoleOrg(app, 'Welcome Café');
    const customer = await apiCustomer(app, org, { card: 'stamps', name: 'Wanda Welcome' });
    const code = installCode(customer.passUserId);
    const wrong = await fetch(`${app.url}/get-pass/${org.cards.stamps}/welcome?code=${'x'.repeat(32)}`, { redirect: 'manual' });
    assert.equal(wrong.status, 303);
    assert.equal(wrong.headers.get('location'), `/get-pass/${org.cards.stamps}`);
    const page = await fetch(`${app.url}/get-pass/${org.cards.stamps}/welcome?code=${code}`);
    const text = await page.text();
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('referrer-policy'), 'same-origin', 'the code in the address goes to no other site; the page\'s own form still names its origin');
    assert.match(text, /Welcome, Wanda!/);
    assert.match(text, /href="\/pass\/[A-Za-z0-9]+">Open my card</);
    assert.doesNotMatch(text, /Email me my card/, 'this server sends no email');
  });

  it('a web pass opened once shows the customer as "Uses the web pass"; it carries a manifest and icons for the home screen', async () => {
    const org = await seedConsoleOrg(app, 'Web Pass Café');
    const customer = await apiCustomer(app, org, { card: 'stamps', name: 'Willa Web' });
    const other = await apiCustomer(app, org, { card: 'stamps', name: 'Nora None' });
    const code = installCode(customer.passUserId);
    const page = await fetch(`${app.url}/pass/${code}`);
    const text = await page.text();
    assert.match(page.headers.get('content-security-policy')!, /manifest-src 'self'/);
    assert.match(text, new RegExp(`<link rel="manifest" href="/pass/${code}/manifest.webmanifest">`));
    assert.match(text, /role="img" aria-label="0 of 10 stamps"/, 'the stamps as marks');
    const manifest = await (await fetch(`${app.url}/pass/${code}/manifest.webmanifest`)).json() as { start_url: string; scope: string; display: string; icons: { src: string; sizes: string }[] };
    assert.equal(manifest.start_url, `/pass/${code}`);
    assert.equal(manifest.display, 'standalone');
    assert.deepEqual(manifest.icons.map((i) => i.sizes), ['192x192', '512x512']);
    const icon = await fetch(`${app.url}${manifest.icons[0]!.src}`);
    assert.equal(icon.headers.get('content-type'), 'image/png');
    const png = PNG.sync.read(Buffer.from(await icon.arrayBuffer()));
    assert.deepEqual([png.width, png.height], [192, 192]);
    assert.equal((await fetch(`${app.url}/pass/${'z'.repeat(32)}/manifest.webmanifest`)).status, 404);

    const client = await owner(org);
    const list = (await client.request('GET', '/console/customers')).text;
    const status = (name: string) => new RegExp(`${name}[\\s\\S]*?<td data-label="Status"><span><span class="badge[^"]*">([^<]+)<`).exec(list)?.[1];
    assert.equal(status('Willa Web'), 'Uses the web pass');
    assert.equal(status('Nora None'), 'Not installed yet');
    assert.match((await client.request('GET', `/console/customers/${customer.passUserId}`)).text, /Uses the web pass/);
    assert.match((await client.request('GET', `/console/customers/${other.passUserId}`)).text, /Not installed yet/);
    assert.match((await client.request('GET', '/console/customers/export.csv')).text, /Willa Web,.*Uses the web pass/);
  });
});

describe('console pages', () => {
  it('"Print the poster" cannot be marked done while the poster leads phones to this computer', async () => {
    const org = await seedConsoleOrg(app, 'Loopback Café');
    const client = await owner(org);
    const poster = await client.request('GET', `/console/cards/${org.cards.stamps}/poster`);
    assert.equal(poster.status, 200);
    assert.doesNotMatch(poster.text, /Printed — mark done/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(poster.text)![1]!;
    const refused = await client.request('POST', `/console/cards/${org.cards.stamps}/poster/printed`, { form: { _csrf: csrf, size: 'a4' } });
    assert.equal(refused.status, 409);
    assert.match(refused.text, /This poster&#39;s code leads to this computer, so phones cannot follow it\. Set PUBLIC_URL/);
    assert.equal(readOrgSettings(app.db, org.orgId).started.posterPrintedAt, null);
  });

  it('folds the checklist away once every step is done', async () => {
    const live = await startTestApp({ env: { PUBLIC_URL: 'https://shop.example' } });
    try {
      const org = await seedConsoleOrg(live, 'Done Café', undefined, { staff: [{ name: 'Dee', pin: '1470' }] });
      const now = live.clock.now();
      live.db.transaction(() =>
        writeOrgSettings(live.db, org.orgId, { country: 'DE', locations: [{ name: 'Main Street', latitude: 52.52, longitude: 13.4 }], started: { profileSavedAt: now, posterPrintedAt: now, cardSavedAt: now } }),
      )();
      await apiCustomer(live, org, { card: 'stamps', name: 'First Member' });
      assert.equal((await runBackup(live.deps, 'console')).error, null);
      const client = new ConsoleClient(live);
      await client.signIn(org.admin.email, org.admin.password);
      const dashboard = (await client.request('GET', '/console/dashboard', { headers: { Origin: live.url } })).text;
      assert.match(dashboard, /<details class="panel checklist" id="start-checklist">/, 'folded: not open');
      assert.match(dashboard, /Your shop is set up<\/h2> <span class="muted small">8 of 8 done/);
    } finally {
      await live.close();
    }
  });

  it('the first step asks for the shop’s country: saved in UTC without one it stays to do, done once a country is chosen', async () => {
    const org = await seedConsoleOrg(app, 'Country Café');
    const client = await owner(org);
    const step = async () => /<li class="(done|todo)">\s*<span class="check-mark"[^>]*>[^<]*<\/span>\s*<span><a href="\/console\/settings">Name your shop, set its time zone and country<\/a>/.exec((await client.request('GET', '/console/dashboard')).text)?.[1];
    const save = async (country: string) => {
      const csrf = await client.csrfFrom('/console/settings');
      const res = await client.request('POST', '/console/settings', { form: { _csrf: csrf, name: 'Country Café', brandColor: '#1f4e8c', timeZone: 'UTC', country } });
      assert.equal(res.status, 303, res.text.slice(0, 300));
    };
    await save('');
    assert.equal(readOrgSettings(app.db, org.orgId).started.profileSavedAt !== null, true);
    assert.equal(await step(), 'todo', 'UTC names no country: phone numbers without a code could not be read');
    await save('AT');
    assert.equal(await step(), 'done');
    assert.equal(readOrgSettings(app.db, org.orgId).country, 'AT');
  });

  it('serves a help page per section behind the Help link; the Staff page exports its figures as CSV', async () => {
    const org = await seedCounterOrg(app, 'Help Café');
    const client = await owner(org);
    const staffPage = await client.request('GET', '/console/staff');
    assert.match(staffPage.text, /<a href="\/console\/help\/staff">Help<\/a>/);
    assert.match((await client.request('GET', '/console/help/staff')).text, /<h1>Help: Staff and the counter<\/h1>/);
    assert.equal((await client.request('GET', '/console/help/nothing')).status, 404);

    const anna = await apiCustomer(app, org, { card: 'stamps', name: 'Anna Csv' });
    const sam = new CounterClient(app, org.orgId);
    await sam.unlock(STAFF[0]!.pin);
    await sam.act('earn', { customer: anna.passUserId, what: 'flat', amount: '3' });
    const undone = await sam.act('earn', { customer: anna.passUserId, what: 'flat', amount: '2' });
    const tx = /name="transaction" value="([^"]+)"/.exec(undone.text)![1]!;
    await sam.act('undo', { customer: anna.passUserId, transaction: tx });
    const csv = await client.request('GET', '/console/staff/activity.csv');
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    assert.equal(lines[0], 'Day,Staff member,Awards,Awarded stamps,Awarded points,Awarded credit,Redemptions,Redeemed stamps,Redeemed points,Redeemed credit,Corrections,Corrected stamps,Corrected points,Corrected credit');
    assert.match(lines[1]!, /^\d{4}-\d{2}-\d{2},Sam,1,3,,,0,,,,0,,,$/, 'the undone award counts nowhere');
  });
});
