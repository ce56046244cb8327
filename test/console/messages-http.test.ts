// The console's Messages section and Settings → Locations over HTTP, as the owner's browser posts
// them: the count before sending (the htmx fragment), a refused form back with each field's
// message and nothing written, a send and its figures, a message to one customer from their page,
// locations added from a pasted map link and removed, and the start checklist's location step.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { insertCustomer } from '../support/customers';
import { countRows, deliveryRows, givePasses } from '../support/messages';

let app: TestApp;
before(async () => (app = await startTestApp()));
after(() => app.close());

async function signedIn(name: string, extra: Record<string, unknown> = {}): Promise<{ org: ConsoleOrg; client: ConsoleClient }> {
  const org = await seedConsoleOrg(app, name, undefined, extra);
  const client = new ConsoleClient(app);
  const signIn = await client.signIn(org.admin.email, org.admin.password);
  assert.equal(signIn.status, 303);
  return { org, client };
}

/** Posts a console form with the page's CSRF token. */
async function post(client: ConsoleClient, page: string, path: string, form: Record<string, string>) {
  const csrf = await client.csrfFrom(page);
  return client.request('POST', path, { form: { _csrf: csrf, ...form } });
}

const fieldError = (text: string, name: string) => new RegExp(`id="f-${name}-error">([^<]*)<`).exec(text)?.[1];

describe('Messages in the console', () => {
  it('shows the count before sending and updates it as the audience changes', async () => {
    const { org, client } = await signedIn('Count Café');
    const on = (balance: number) => insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance }).id;
    const [rich, poor] = [on(20_000), on(500)];
    givePasses(app, rich, { web: true, apple: ['push-rich'] });
    givePasses(app, poor, { web: true });
    on(30_000); // no pass: not counted

    const page = await client.request('GET', `/console/messages?card=${org.cards.points}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Reaches 2 customers \(3 passes: 1 Apple Wallet and 2 web pass\)\./);
    assert.match(page.text, /hx-get="\/console\/messages\/reach"/);

    const reach = (query: Record<string, string>) => client.request('GET', `/console/messages/reach?${new URLSearchParams({ card: org.cards.points, ...query })}`, { headers: { 'HX-Request': 'true' } });
    const some = await reach({ audience: 'minBalance', minBalance: '100' });
    assert.equal(some.status, 200);
    assert.match(some.text, /^<div id="reach"/);
    assert.match(some.text, /Reaches 1 customer \(2 passes: 1 Apple Wallet and 1 web pass\)\./);
    assert.match((await reach({ audience: 'minBalance', minBalance: '1000' })).text, /No customer with a pass is in this audience yet/);
    assert.match((await reach({ audience: 'minBalance', minBalance: 'lots' })).text, /Enter a whole number\./);
    assert.match((await reach({ audience: 'visitedWithinDays', visitedWithinDays: '0' })).text, /Enter a number of days from 1 to 3,650\./);
  });

  it('a refused form comes back with each field’s message; nothing is written', async () => {
    const { org, client } = await signedIn('Refusal Café');
    givePasses(app, insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, balance: 0 }).id, { web: true });
    const page = `/console/messages?card=${org.cards.levels}`;
    const cases: { form: Record<string, string>; field: string; message: RegExp }[] = [
      { form: { header: '', body: 'Hi' }, field: 'header', message: /^Write a title\.$/ },
      { form: { header: 'x'.repeat(41), body: 'Hi' }, field: 'header', message: /^At most 40 characters\.$/ },
      { form: { header: 'Hi', body: 'y'.repeat(201) }, field: 'body', message: /^At most 200 characters\.$/ },
      { form: { header: 'Hi', body: '   ' }, field: 'body', message: /^Write the message\.$/ },
      { form: { header: 'Hi', body: 'There', audience: 'visitedWithinDays', visitedWithinDays: 'soon' }, field: 'visitedWithinDays', message: /^Enter a whole number\.$/ },
      { form: { header: 'Hi', body: 'There', audience: 'level', level: 'Platinum' }, field: 'level', message: /^No level “Platinum” on this card; its levels are Bronze, Silver, Gold\.$/ },
    ];
    for (const c of cases) {
      const res = await post(client, page, '/console/messages', { card: org.cards.levels, audience: 'all', ...c.form });
      assert.equal(res.status, 400, JSON.stringify(c.form));
      assert.match(fieldError(res.text, c.field) ?? '', c.message, JSON.stringify(c.form));
      assert.equal(countRows(app, 'messages'), 0);
    }
    // What was typed comes back.
    const res = await post(client, page, '/console/messages', { card: org.cards.levels, audience: 'all', header: 'x'.repeat(41), body: 'Keep me' });
    assert.match(res.text, />Keep me<\/textarea>/);
  });

  it('sends to the audience, says so, and lists the message with its figures', async () => {
    const { org, client } = await signedIn('Send Café');
    const ids = [0, 1, 2].map(() => insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, balance: 300 }).id);
    givePasses(app, ids[0]!, { web: true });
    givePasses(app, ids[1]!, { web: true, apple: ['push-1'] });
    const before = countRows(app, 'messages');
    const res = await post(client, `/console/messages?card=${org.cards.stamps}`, '/console/messages', { card: org.cards.stamps, audience: 'all', header: 'Cake day', body: 'Free cake with any coffee today.' });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /^\/console\/messages\?card=.+&sent=msg_/);
    assert.equal(countRows(app, 'messages'), before + 1);
    const messageId = new URL(res.headers.get('location')!, app.url).searchParams.get('sent')!;
    assert.deepEqual(deliveryRows(app, messageId).map((r) => [r.channel, r.status]).sort(), [['apple', 'pending'], ['web', 'shown'], ['web', 'shown']]);

    const page = await client.request('GET', res.headers.get('location')!);
    assert.match(page.text, /Message sent to 2 customers\./);
    const row = /<table class="stacked" id="sent-messages">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(page.text)![1]!;
    assert.match(row, /Coffee stamps: Everyone/);
    assert.match(row, /<strong>Cake day<\/strong>/);
    const cells = [...row.matchAll(/data-label="(Customers|Delivered|Shown without notification|Failed|Waiting)" class="num">(?:<span class="[^"]*">)?(\d+)/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(cells, [['Customers', '2'], ['Delivered', '0'], ['Shown without notification', '2'], ['Failed', '0'], ['Waiting', '1']]);
  });

  it('test data: messages go to test customers and are listed apart', async () => {
    const { org, client } = await signedIn('Mode Café');
    givePasses(app, insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, livemode: false }).id, { web: true });
    givePasses(app, insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps }).id, { web: true });
    const toTest = await post(client, '/console/messages', '/console/mode', { mode: 'test', returnTo: '/console/messages' });
    assert.equal(toTest.status, 303);
    const page = await client.request('GET', `/console/messages?card=${org.cards.stamps}`);
    assert.match(page.text, /Reaches 1 customer \(1 pass: 1 web pass\)\./);
    const sent = await post(client, '/console/messages', '/console/messages', { card: org.cards.stamps, audience: 'all', header: 'Sandbox', body: 'Only for tests.' });
    assert.equal(sent.status, 303);
    await post(client, '/console/messages', '/console/mode', { mode: 'live', returnTo: '/console/messages' });
    assert.doesNotMatch((await client.request('GET', '/console/messages')).text, /Sandbox/);
  });

  it('a customer’s page has "Send a message"; the message goes to their passes alone', async () => {
    const { org, client } = await signedIn('Personal Café');
    const customer = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, name: 'Rosa Diaz' });
    givePasses(app, customer.id, { web: true, google: true });
    const profile = await client.request('GET', `/console/customers/${customer.id}`);
    assert.match(profile.text, new RegExp(`<a class="button secondary" href="/console/customers/${customer.id}/message">Send a message</a>`));

    const page = await client.request('GET', `/console/customers/${customer.id}/message`);
    assert.match(page.text, /Goes to their 2 passes: Google Wallet and web pass\./);
    const before = countRows(app, 'messages');
    const refused = await post(client, `/console/customers/${customer.id}/message`, `/console/customers/${customer.id}/message`, { header: '', body: 'x'.repeat(201) });
    assert.equal(refused.status, 400);
    assert.equal(fieldError(refused.text, 'header'), 'Write a title.');
    assert.equal(fieldError(refused.text, 'body'), 'At most 200 characters.');
    assert.equal(countRows(app, 'messages'), before);

    const sent = await post(client, `/console/customers/${customer.id}/message`, `/console/customers/${customer.id}/message`, { header: 'Your order', body: 'Your cake is ready.' });
    assert.equal(sent.status, 303);
    const after = await client.request('GET', sent.headers.get('location')!);
    assert.match(after.text, /Message sent to 1 customer\./);
    assert.match(after.text, /<strong>Your order<\/strong>/);
  });

  it('the menu leads to Messages', async () => {
    const { client } = await signedIn('Menu Café');
    const page = await client.request('GET', '/console/dashboard');
    assert.match(page.text, /<a href="\/console\/messages">Messages<\/a>/);
    assert.match((await client.request('GET', '/console/messages')).text, /<a href="\/console\/messages" aria-current="page">Messages<\/a>/);
  });
});

describe('Settings → Locations', () => {
  it('adds a location from a pasted map link, refuses what it cannot read with the field’s message, removes one; the checklist asks for it until then', async () => {
    const { org, client } = await signedIn('Place Café');
    const checklist = () => client.request('GET', '/console/dashboard').then((r) => /<li class="(done|todo)">\s*<span class="check-mark"[^>]*>[^<]*<\/span>\s*<span><a href="\/console\/settings\/locations">/.exec(r.text)?.[1]);
    assert.equal(await checklist(), 'todo');

    const page = '/console/settings/locations';
    const refusals: { form: Record<string, string>; field: string; message: RegExp }[] = [
      { form: { name: '', where: '52.5, 13.4' }, field: 'name', message: /^Give the location a name/ },
      { form: { name: 'Shop', where: 'https://maps.app.goo.gl/abc123' }, field: 'where', message: /short link holds no coordinates/ },
      { form: { name: 'Shop', where: 'https://www.google.com/maps/search/bakery' }, field: 'where', message: /names no coordinates/ },
      { form: { name: 'Shop', where: '95, 13' }, field: 'where', message: /Latitude goes from -90 to 90/ },
      { form: { name: 'Shop', where: '52.5, 13.4', relevantText: 'z'.repeat(101) }, field: 'relevantText', message: /^At most 100 characters\.$/ },
    ];
    for (const r of refusals) {
      const res = await post(client, page, page, { relevantText: '', ...r.form });
      assert.equal(res.status, 400, JSON.stringify(r.form));
      assert.match(fieldError(res.text, r.field) ?? '', r.message, JSON.stringify(r.form));
      assert.deepEqual(readOrgSettings(app.db, org.orgId).locations, []);
    }

    const added = await post(client, page, page, { name: 'Main Street', where: 'https://www.google.com/maps/place/Caf%C3%A9/@52.5200066,13.404954,17z/data=!3d52.520008!4d13.404954', relevantText: '' });
    assert.equal(added.status, 303);
    const second = await post(client, page, page, { name: 'Station', where: 'https://www.openstreetmap.org/#map=18/52.52508/13.36941', relevantText: 'Coffee to go' });
    assert.equal(second.status, 303);
    assert.deepEqual(readOrgSettings(app.db, org.orgId).locations, [
      { name: 'Main Street', latitude: 52.520008, longitude: 13.404954 },
      { name: 'Station', latitude: 52.52508, longitude: 13.36941, relevantText: 'Coffee to go' },
    ]);
    const list = await client.request('GET', `${page}?done=added`);
    assert.match(list.text, /Location added\./);
    assert.match(list.text, /Show this card at Main Street/);
    assert.match(list.text, /href="https:\/\/www\.openstreetmap\.org\/\?mlat=52\.52508&amp;mlon=13\.36941#map=18\/52\.52508\/13\.36941"/);
    assert.equal(await checklist(), 'done');

    // Removing checks the name the page showed: a stale page removes nothing.
    const stale = await post(client, page, `${page}/0/remove`, { name: 'Station' });
    assert.equal(stale.status, 409);
    assert.equal(readOrgSettings(app.db, org.orgId).locations.length, 2);
    const removed = await post(client, page, `${page}/0/remove`, { name: 'Main Street' });
    assert.equal(removed.status, 303);
    assert.deepEqual(readOrgSettings(app.db, org.orgId).locations.map((l) => l.name), ['Station']);
  });

  it('takes ten locations at most', async () => {
    const { org, client } = await signedIn('Chain Café');
    const page = '/console/settings/locations';
    for (let i = 0; i < 10; i++) assert.equal((await post(client, page, page, { name: `Shop ${i}`, where: `52.${i}, 13.${i}`, relevantText: '' })).status, 303);
    const full = await client.request('GET', page);
    assert.match(full.text, /That is 10 locations, as many as a pass carries/);
    assert.doesNotMatch(full.text, /Add location/);
    const refused = await post(client, page, page, { name: 'Eleventh', where: '50, 10', relevantText: '' });
    assert.equal(refused.status, 400);
    assert.equal(readOrgSettings(app.db, org.orgId).locations.length, 10);
  });
});

// A shop whose language is German: its admins see the console in German unless they choose English.
describe('in German', () => {
  const german = { settings: { language: 'de' } };

  it('the Messages page: the count, the refusals, the notice and the list, with numbers as German writes them', async () => {
    const { org, client } = await signedIn('Café Deutsch', german);
    const on = (balance: number) => insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance }).id;
    givePasses(app, on(20_000), { web: true, apple: ['push-de'] });
    givePasses(app, on(500), { web: true });
    const page = await client.request('GET', `/console/messages?card=${org.cards.points}`);
    assert.match(page.text, /<h1>Nachrichten<\/h1>/);
    assert.match(page.text, /Erreicht 2 Personen \(3 Pässe: 1 Apple Wallet und 2 Web-Pass\)\./);
    assert.match(page.text, /<legend>Wer die Nachricht bekommt<\/legend>/);
    const reach = (query: Record<string, string>) => client.request('GET', `/console/messages/reach?${new URLSearchParams({ card: org.cards.points, ...query })}`);
    assert.match((await reach({ audience: 'visitedWithinDays', visitedWithinDays: '0' })).text, /Geben Sie eine Zahl von Tagen zwischen 1 und 3\.650 ein\./);
    assert.match((await reach({ audience: 'minBalance', minBalance: '1000' })).text, /In dieser Zielgruppe hat noch niemand einen Pass\./);

    const before = countRows(app, 'messages');
    const refused = await post(client, '/console/messages', '/console/messages', { card: org.cards.points, audience: 'minBalance', minBalance: 'viel', header: '', body: 'Hallo' });
    assert.equal(refused.status, 400);
    assert.equal(fieldError(refused.text, 'header'), 'Schreiben Sie eine Überschrift.');
    assert.equal(fieldError(refused.text, 'minBalance'), 'Geben Sie eine ganze Zahl ein.');
    assert.equal(countRows(app, 'messages'), before);

    const sent = await post(client, '/console/messages', '/console/messages', { card: org.cards.points, audience: 'minBalance', minBalance: '150', header: 'Neu: Kürbiskuchen', body: 'Bis Sonntag zu jedem großen Kaffee.' });
    assert.equal(sent.status, 303);
    const after = await client.request('GET', sent.headers.get('location')!);
    assert.match(after.text, /Nachricht an 1 Person gesendet\./);
    const row = /<tbody><tr>([\s\S]*?)<\/tr>/.exec(after.text)![1]!;
    assert.match(row, /data-label="An">[^<]*: Stand mindestens 150 Punkte</);
    assert.match(row, /data-label="Ohne Benachrichtigung angezeigt" class="num"><span class="">1<\/span>/);
    assert.match(row, /data-label="Gesendet" class="nowrap">\d{1,2}\. [A-ZÄÖÜa-zäöü]+\.? \d{4}, \d{2}:\d{2}</);
  });

  it('a customer’s message page, and the level a card does not have', async () => {
    const { org, client } = await signedIn('Café Stufe', german);
    const customer = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, name: 'Jana Berg' });
    givePasses(app, customer.id, { web: true, google: true });
    const profile = await client.request('GET', `/console/customers/${customer.id}`);
    assert.match(profile.text, />Nachricht senden<\/a>/);
    const page = await client.request('GET', `/console/customers/${customer.id}/message`);
    assert.match(page.text, /<h1>Nachricht an Jana Berg<\/h1>/);
    assert.match(page.text, /Geht an ihre 2 Pässe: Google Wallet und Web-Pass\./);
    const refused = await post(client, `/console/customers/${customer.id}/message`, `/console/customers/${customer.id}/message`, { header: 'Hallo', body: 'x'.repeat(201) });
    assert.equal(fieldError(refused.text, 'body'), 'Höchstens 200 Zeichen.');

    const levels = `/console/messages?card=${org.cards.levels}`;
    const before = countRows(app, 'messages');
    const unknown = await post(client, levels, '/console/messages', { card: org.cards.levels, audience: 'level', level: 'Platin', header: 'Hallo', body: 'Willkommen' });
    assert.equal(unknown.status, 400);
    assert.equal(fieldError(unknown.text, 'level'), 'Die Karte hat keine Stufe „Platin“; ihre Stufen sind Bronze, Silver, Gold.');
    assert.equal(countRows(app, 'messages'), before);
  });

  it('Settings → Locations: the page, a link it cannot read, and the lock-screen text in the shop’s language', async () => {
    const { org, client } = await signedIn('Café Ort', german);
    const page = '/console/settings/locations';
    const empty = await client.request('GET', page);
    assert.match(empty.text, /Noch kein Standort\./);
    const refused = await post(client, page, page, { name: 'Markt', where: 'https://maps.app.goo.gl/abc123', relevantText: '' });
    assert.equal(refused.status, 400);
    assert.match(fieldError(refused.text, 'where') ?? '', /^Ein Kurzlink enthält keine Koordinaten/);
    assert.equal((await post(client, page, page, { name: 'Markt', where: '51.0504, 13.7373', relevantText: '' })).status, 303);
    const list = await client.request('GET', `${page}?done=added`);
    assert.match(list.text, /Standort eingetragen\./);
    assert.match(list.text, /Zeigen Sie diese Karte bei Markt vor/);
    assert.match(list.text, />51\.0504, 13\.7373<\/a>/, 'coordinates keep their decimal point');
    assert.deepEqual(readOrgSettings(app.db, org.orgId).locations, [{ name: 'Markt', latitude: 51.0504, longitude: 13.7373 }]);
  });
});
