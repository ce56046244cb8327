// The services' refusals in a German admin's console over HTTP: a webhook URL too long or pointing
// into a private network, a customer that is gone, the import's refused rows in its report and its
// CSV files. The console's CSV headings are German too, and the German customer export comes back
// through the import with every column recognised. No English reason reaches the page or the file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { ApiError } from '../../src/lib/errors';
import { refusalText } from '../../src/console/refusals';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { fieldsOf, figures, importSteps } from '../import/console-steps';

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { WEBHOOK_BLOCK_PRIVATE: 'true' } });
});
after(() => app?.close());

async function germanAdmin(name: string): Promise<{ org: ConsoleOrg; client: ConsoleClient }> {
  const org = await seedConsoleOrg(app, name);
  app.db.prepare('UPDATE admins SET language = ? WHERE email = ?').run('de', org.admin.email);
  const client = new ConsoleClient(app);
  assert.equal((await client.signIn(org.admin.email, org.admin.password)).status, 303);
  return { org, client };
}

/** Words of the services' English reasons: none may reach a German admin. */
const ENGLISH = /Invalid length|points to a private|is not an email|same email as row|already a customer|there is no such|Refused because|Customer id|External id/;

const fieldError = (page: string, name: string) => /id="f-([\w.-]+)-error">([^<]*)</.exec(page.slice(page.indexOf(`id="f-${name}-error"`) - 10))?.[2];

describe('service refusals in the German console', () => {
  let org: ConsoleOrg;
  let client: ConsoleClient;
  before(async () => ({ org, client } = await germanAdmin('Café Spree')));

  it('words a too long webhook URL and a private address in German, on the URL field', async () => {
    const csrf = await client.csrfFrom('/console/webhooks');
    const long = await client.request('POST', '/console/webhooks', { form: { _csrf: csrf, url: `https://example.com/${'a'.repeat(2100)}`, events: '*' } });
    assert.equal(long.status, 400);
    assert.equal(fieldError(long.text, 'url'), 'Höchstens 2.048 Zeichen.');
    const internal = await client.request('POST', '/console/webhooks', { form: { _csrf: csrf, url: 'http://127.0.0.1:9/hook', events: '*' } });
    assert.equal(internal.status, 400);
    assert.equal(fieldError(internal.text, 'url'), 'Diese Adresse führt in ein privates oder internes Netz: Dieser Server sendet Webhooks nur an öffentliche Adressen.');
    for (const page of [long.text, internal.text]) assert.doesNotMatch(page, ENGLISH);
  });

  it('shows a refusal of the services on its error page in German', async () => {
    const gone = await client.request('GET', '/console/customers/pu_nobody');
    assert.equal(gone.status, 404);
    assert.match(gone.text, /<html lang="de">/);
    assert.match(gone.text, /Das gibt es hier nicht mehr: Es wurde vielleicht gelöscht oder liegt in Ihren anderen Daten \(echt oder Test\)\./);
    assert.doesNotMatch(gone.text, ENGLISH);
    assert.equal(refusalText('de', new ApiError(409, 'SOMETHING_NEW', { detail: 'an English reason' })), 'Das hat nicht geklappt (Code SOMETHING_NEW).');
    assert.equal(refusalText('en', new ApiError(409, 'SOMETHING_NEW', { detail: 'an English reason' })), 'An English reason');
  });

  it('refuses a balance correction the balance or the card’s limits do not allow, in German on the form', async () => {
    const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'crm-correct', cardId: org.cards.points, name: 'Karl Korrektur', initialPoints: 3 } });
    assert.equal(res.status, 201, res.text);
    const path = `/console/customers/${res.body.passUserId}`;
    const csrf = await client.csrfFrom(path);
    const removed = await client.request('POST', `${path}/correct`, { form: { _csrf: csrf, action: 'remove', amount: '50', note: 'Falsch gebucht' } });
    assert.equal(removed.status, 400);
    assert.ok(removed.text.includes('Der Stand ist 3; dafür braucht es 50.'), 'the balance refusal, in German');
    const over = await client.request('POST', `${path}/correct`, { form: { _csrf: csrf, action: 'set', amount: '2000000000', note: 'Zu viel' } });
    assert.equal(over.status, 400);
    assert.ok(over.text.includes('Höchstens 1.000.000.000.'), 'the cap, in German');
    for (const page of [removed.text, over.text]) assert.doesNotMatch(page, /the balance is|must be at most/);
  });

  it('says why import rows are refused in German: on the page, in the refused-rows CSV and in the report CSV', async () => {
    const { upload, check, runToEnd } = importSteps(app, client);
    const file = 'Name,Email,Points\nAnna Gut,anna@example.com,12\nBert Schlecht,kein-at-zeichen,3\nClara Doppelt,anna@example.com,5\n';
    const uploaded = await upload({ name: 'kunden.csv', bytes: file }, org.cards.points);
    assert.equal(uploaded.status, 303, uploaded.text);
    const path = uploaded.location!;
    const checked = await check(path, ['name', 'email', 'balance']);
    assert.equal(checked.status, 200, checked.text);
    assert.ok(checked.text.includes('ist keine E-Mail-Adresse (wie name@example.com)'), 'the bad address, in German');
    assert.ok(checked.text.includes('gleiche E-Mail-Adresse wie Zeile 2'), 'the repeated address, in German');
    assert.doesNotMatch(checked.text, ENGLISH);

    const unmapped = await check(path, ['', '', 'balance']);
    assert.equal(unmapped.status, 400);
    assert.ok(unmapped.text.includes('Wählen Sie eine Spalte für mindestens eines von Name, E-Mail, Telefon oder externer ID'), 'the mapping refusal, in German');
    const twice = await check(path, ['name', 'name', 'balance']);
    assert.ok(twice.text.includes('„Name“ geht schon dorthin: Wählen Sie für jedes Feld eine Spalte.'), 'the column refusal, in German');
    const empty = await upload({ name: 'leer.csv', bytes: '' }, org.cards.points);
    assert.equal(empty.status, 400);
    assert.ok(empty.text.includes('Die Datei ist leer.'), 'the file refusal, in German');
    for (const page of [unmapped.text, twice.text, empty.text]) assert.doesNotMatch(page, /Choose a column|already goes there|The file is empty/);
    await check(path, ['name', 'email', 'balance']);

    const refusedCsv = await client.request('GET', `${path}/check.csv`);
    const refused = parse(refusedCsv.text.replace(/^\uFEFF/, '')) as string[][];
    assert.deepEqual(refused, [
      ['Zeile', 'Abgelehnt, weil', 'Name', 'Email', 'Points'],
      ['3', 'Email: ist keine E-Mail-Adresse (wie name@example.com)', 'Bert Schlecht', 'kein-at-zeichen', '3'],
      ['4', 'Email: gleiche E-Mail-Adresse wie Zeile 2', 'Clara Doppelt', 'anna@example.com', '5'],
    ]);

    // Fixed and imported again, the refused rows' file maps its own columns and leaves the two German ones out.
    const again = await upload({ name: 'abgelehnt.csv', bytes: refusedCsv.text }, org.cards.points);
    assert.equal(again.status, 303, again.text);
    assert.deepEqual(fieldsOf((await client.request('GET', again.location!)).text).mapping, ['', '', 'name', 'email', 'balance']);

    await runToEnd(path);
    const report = parse((await client.request('GET', `${path}/report.csv`)).text.replace(/^\uFEFF/, '')) as string[][];
    assert.deepEqual(report[0], ['Zeile', 'Ergebnis', 'Spalte', 'Meldung', 'Kunden-ID']);
    assert.deepEqual(report.slice(1).map((r) => r.slice(0, 4)), [
      ['2', 'angelegt', '', ''],
      ['3', 'abgelehnt', 'Email', 'ist keine E-Mail-Adresse (wie name@example.com)'],
      ['4', 'abgelehnt', 'Email', 'gleiche E-Mail-Adresse wie Zeile 2'],
    ]);
  });

  it('exports customers under German headings, and the import recognises every column of that file', async () => {
    for (const [i, name] of ['Dora Export', 'Emil Export'].entries()) {
      const res = await app.request('POST', '/api/v1/customers', {
        key: org.keys.live,
        body: { externalCustomerId: `crm-${i}`, cardId: org.cards.stamps, name, email: `export${i}@example.com`, phone: '+49 170 1234567'.replace('567', `56${i}`), initialPoints: 3 + i, customFields: { memberNo: 10 + i, size: 'L', newsletter: i === 0, altEmail: `alt${i}@example.com` } },
      });
      assert.equal(res.status, 201, res.text);
    }
    const exported = (await client.request('GET', `/console/customers/export.csv?card=${org.cards.stamps}`)).text;
    const rows = parse(exported.replace(/^\uFEFF/, '')) as string[][];
    const header = rows[0]!;
    assert.deepEqual(header.slice(0, 13), ['Name', 'E-Mail', 'Telefon', 'Externe ID', 'Karte', 'Kontostand', 'Einheit', 'Stufe', 'Status', 'Angemeldet über', 'Angelegt', 'Einwilligung erteilt', 'Kunden-ID']);
    const dora = rows.find((r) => r[0] === 'Dora Export')!;
    assert.equal(dora[6], 'Stempel');
    assert.equal(dora[8], 'Noch nicht installiert');
    assert.equal(dora[header.indexOf('Newsletter')], 'Ja');
    assert.doesNotMatch(exported, ENGLISH);

    // The same file, imported again: every column of the customer is recognised, and each row is the customer it came from.
    const { upload, check } = importSteps(app, client);
    const uploaded = await upload({ name: 'kunden-export.csv', bytes: exported }, org.cards.stamps);
    assert.equal(uploaded.status, 303, uploaded.text);
    const draft = await client.request('GET', uploaded.location!);
    const suggested = fieldsOf(draft.text).mapping;
    const byHeader = Object.fromEntries(header.map((h, i) => [h, suggested[i]]));
    assert.deepEqual(
      { name: byHeader['Name'], email: byHeader['E-Mail'], phone: byHeader['Telefon'], externalId: byHeader['Externe ID'], balance: byHeader['Kontostand'], memberNo: byHeader['Member number'], size: byHeader['Cup size'], newsletter: byHeader['Newsletter'], customerId: byHeader['Kunden-ID'] },
      { name: 'name', email: 'email', phone: 'phone', externalId: 'externalId', balance: 'balance', memberNo: 'q:memberNo', size: 'q:size', newsletter: 'q:newsletter', customerId: '' },
    );
    const dry = await check(uploaded.location!, suggested);
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(figures(dry.text), { created: 0, matched: 2, refused: 0 });
  });
});
