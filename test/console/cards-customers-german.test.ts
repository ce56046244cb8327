// The cards, customers, import and promotions pages in German for an admin whose console is in
// German (here: a German shop, the admin having chosen nothing), over HTTP; English stays the
// default, which the other console tests check.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setAdminLanguage } from '../../src/admins/service';
import { orgsRepo } from '../../src/orgs/repo';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { enroll } from '../support/customers';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { errorOf } from './cards-support';
import { importSteps } from '../import/console-steps';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Café Elbe');
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { language: 'de', currency: 'EUR', timeZone: 'Europe/Berlin' }))();
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, ADMIN_PASSWORD);
});
after(() => app?.close());

/** The page's text as a reader sees it: tags out, entities back, spaces folded. */
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

async function page(path: string): Promise<{ html: string; text: string }> {
  const res = await client.request('GET', path);
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return { html: res.text, text: text(res.text) };
}

/** Every phrase is on the page, and none of the English ones. */
function says(shown: string, german: string[], english: string[]): void {
  for (const phrase of german) assert.ok(shown.includes(phrase), `expected "${phrase}"`);
  for (const phrase of english) assert.ok(!shown.includes(phrase), `did not expect "${phrase}"`);
}

describe('the console in German: cards, customers, import, promotions', () => {
  it('the card list and the card editor, with its sections, hints and the editor script’s words', async () => {
    const list = await page('/console/cards');
    says(list.text, ['Karten', 'Neue Karte', 'Stempelkarte', 'Punktekarte', 'Kunden', 'Anmeldung'], ['New card', 'Stamp card', 'Sign-up']);

    const editor = await page(`/console/cards/${org.cards.stamps}`);
    says(
      editor.text,
      ['Coffee stamps bearbeiten', 'Art der Karte', 'Prämien', 'Prämie 1', 'Prämie hinzufügen', 'Verfall', 'Geburtstagsgeschenk', 'Anmeldeformular', 'Fragen', 'Gestaltung der Karte', 'Hintergrund', 'Änderungen speichern', 'Vorschau', 'Archivieren oder löschen', 'Aktionen', 'Aushang für die Theke'],
      ['Save changes', 'Add a reward', 'Pass design', 'Card type', 'Birthday treat', 'Archive or delete'],
    );
    // The script's few words come from the page, in the admin's language.
    const texts = JSON.parse(/<script type="application\/json" id="card-editor-texts">([^<]*)<\/script>/.exec(editor.html)![1]!);
    assert.equal(texts.pickColour['design.backgroundColor'], 'Hintergrundfarbe wählen');
    assert.equal(texts.noBirthday, 'Kein Geburtstagsgeschenk');
    assert.equal(texts.notDate, '{key} (keine Datumsfrage dieser Karte)');

    const fresh = await page('/console/cards/new');
    says(fresh.text, ['Neue Karte', 'Name der Karte', 'Karte anlegen', 'Logo-Datei'], ['Create card', 'Card name']);
  });

  it('a refused card comes back with German messages at its fields, and nothing is written', async () => {
    const csrf = await client.csrfFrom('/console/cards/new');
    const form = new FormData();
    for (const [name, value] of Object.entries({ _csrf: csrf, name: '', passType: 'stamp_card', 'rewards[0].name': 'Kaffee', 'rewards[0].cost': 'zehn', 'expiry.rule': 'months', 'expiry.months': '99' })) form.set(name, value);
    const res = await fetch(`${app.url}/console/cards/new?_csrf=${encodeURIComponent(csrf)}`, { method: 'POST', body: form, headers: { Cookie: client.cookieHeader(), Origin: app.url }, redirect: 'manual' });
    const html = await res.text();
    assert.equal(res.status, 400);
    assert.match(html, /Nichts wurde gespeichert: Bitte korrigieren Sie die markierten Felder\./);
    assert.equal(errorOf(html, 'name'), 'Pflichtfeld');
    assert.equal(errorOf(html, 'rewards[0].cost'), 'Bitte eine Zahl eingeben');
    assert.equal(errorOf(html, 'expiry.months'), 'Eine ganze Zahl von Monaten zwischen 1 und 60');
  });

  it('the customer list and a customer’s page, amounts and dates as Germany writes them', async () => {
    const created = await enroll(app, org.keys.live, { externalCustomerId: 'kunde-1', cardId: org.cards.prepaid, name: 'Anna Berg', email: 'anna@example.com' });
    assert.equal(created.status, 201);
    const id = created.body.passUserId as string;
    const earned = await app.request('POST', `/api/v1/customers/kunde-1/earn`, { key: org.keys.live, body: { type: 'points', amount: 12.5 } });
    assert.equal(earned.status, 201, JSON.stringify(earned.body));

    const list = await page('/console/customers');
    says(list.text, ['Kunden', 'Aus CSV importieren', 'Suche', 'Alle Karten', 'Suchen', 'Stand', 'Noch nicht installiert', 'über API', 'CSV herunterladen'], ['Import from CSV', 'All cards', 'Not installed yet', 'via API']);
    assert.match(list.text, /12,50 €/);

    const customer = await page(`/console/customers/${id}`);
    says(
      customer.text,
      ['← Alle Kunden', 'Anna Berg', 'Stand', 'Angaben', 'Angemeldet über API', 'Stand korrigieren', 'Guthaben hinzufügen', 'Notiz', 'Link zur Karte', 'Einwilligung', 'Karte und Daten', 'Persönliche Daten löschen', 'Verlauf', 'Gesammelt', 'E-Mails'],
      ['Correct the balance', 'History', 'Install link', 'Joined via'],
    );
    assert.match(customer.text, /12,50 €/);
    assert.match(customer.text, /\d{1,2}\. [A-ZÄÖÜ][a-zäöü]+\.? 20\d\d, \d\d:\d\d/, 'a German date and time');

    const refused = await client.request('POST', `/console/customers/${id}/correct`, { form: { _csrf: await client.csrfFrom(`/console/customers/${id}`), action: 'add', amount: '', note: '' } });
    assert.equal(refused.status, 400);
    says(text(refused.text), ['Geben Sie die Menge ein.', 'Schreiben Sie auf, warum Sie den Stand korrigieren'], ['Enter the amount.']);

    const edit = await page(`/console/customers/${id}/edit`);
    says(edit.text, ['Angaben bearbeiten', 'Angaben speichern', 'Abbrechen'], ['Save details']);
    const badEdit = await client.request('POST', `/console/customers/${id}/edit`, { form: { _csrf: await client.csrfFrom(`/console/customers/${id}/edit`), name: 'Anna Berg', email: 'keine-adresse', phone: '' } });
    assert.equal(badEdit.status, 400);
    says(text(badEdit.text), ['Geben Sie eine E-Mail-Adresse ein, z. B. name@example.com.'], ['Enter an email address']);
    const erase = await page(`/console/customers/${id}/erase`);
    says(erase.text, ['Die persönlichen Daten von Anna Berg löschen?', 'Webhook customer.deleted'], ['cannot be undone']);
  });

  it('the import wizard: upload, mapping and dry run', async () => {
    const upload = await page('/console/customers/import');
    says(upload.text, ['Kunden importieren', '1. CSV-Datei hochladen', 'CSV-Datei', 'Hochladen und Spalten prüfen', 'Stempelkarte'], ['Upload a CSV file', 'Import customers']);

    const steps = importSteps(app, client);
    const sent = await steps.upload({ name: 'kunden.csv', bytes: 'Name,E-Mail,Stempel\nAnna,anna2@example.com,3\nBen,kaputt,4\n' }, org.cards.stamps);
    assert.equal(sent.status, 303);
    const mapping = await page(sent.location!);
    says(mapping.text, ['2. Welche Spalte wohin gehört', 'Spalte in der Datei', 'Erste Werte', 'Datei prüfen (Probelauf)'], ['Which column goes where']);
    assert.match(mapping.text, /Datei kunden\.csv\s*: 2 Zeilen für die Karte Coffee stamps\s*\(Stempelkarte\)\./);
    says(mapping.text, ['Weglassen', 'Vorname', 'Externe ID', 'Stand (Stempel)', 'Frage: Member number'], ['Leave out', 'First name', 'Balance (stamps)']);
    const checked = await steps.check(sent.location!, ['name', 'email', 'balance']);
    says(text(checked.text), ['3. Probelauf: Was der Import tun würde', 'Es wurde noch nichts geschrieben.', 'Neue Kunden', 'Abgelehnte Zeilen'], ['Dry run', 'New customers']);
  });

  it('the promotions page, its form and its messages', async () => {
    const path = `/console/cards/${org.cards.stamps}/promotions`;
    const promotions = await page(path);
    says(
      promotions.text,
      ['Aktionen · Coffee stamps', 'Jetzt', 'Gerade läuft keine Aktion.', 'Die nächsten 14 Tage', 'Heute', 'Alle Aktionen', 'Aktion hinzufügen', 'Was sie bringt', 'Vervielfacht die Stempel jeder Vergabe', 'Wochentage', 'Montag', 'Sonntag', 'Erster Tag'],
      ['Add a promotion', 'Monday', 'Days of the week', 'The next 14 days'],
    );
    const csrf = await client.csrfFrom(path);
    const refused = await client.request('POST', path, { form: { _csrf: csrf, name: '', kind: 'bonus', bonus: '', startsAt: '2026-05-01', endsAt: '2026-04-01', hoursFrom: '14:00', hoursTo: '' } });
    assert.equal(refused.status, 400);
    says(text(refused.text), ['Geben Sie der Aktion einen Namen', 'Geben Sie beide Uhrzeiten an oder keine für ganztägig'], ['Give the promotion a name']);

    const made = await client.request('POST', path, { form: { _csrf: csrf, name: 'Doppelte Stempel', kind: 'multiplier', multiplier: '2', startsAt: '2026-01-01', endsAt: '2026-12-31', hoursFrom: '', hoursTo: '' } });
    assert.equal(made.status, 303);
    const after = await page(`${path}?done=created`);
    says(after.text, ['Aktion angelegt.', 'Doppelte Stempel', 'Jeden Tag, ganztägig', 'Bearbeiten', 'Löschen'], ['Promotion added', 'Every day']);
  });

  it('the poster: the page around it in the admin’s German, the poster itself in the shop’s French', async () => {
    const french = await seedConsoleOrg(app, 'Café de Lyon');
    app.db.transaction(() => writeOrgSettings(app.db, french.orgId, { language: 'fr' }))();
    setAdminLanguage({ db: app.db } as Parameters<typeof setAdminLanguage>[0], orgsRepo(app.db).findAdminByEmail(french.admin.email)!, 'de');
    const owner = new ConsoleClient(app);
    await owner.signIn(french.admin.email, ADMIN_PASSWORD);
    const res = await owner.request('GET', `/console/cards/${french.cards.stamps}/poster`);
    assert.equal(res.status, 200);
    const shown = text(res.text);
    says(shown, ['Aushang für die Theke: Coffee stamps', 'Papier:', 'QR-Code herunterladen (PNG)', 'Scannez le code avec l’appareil photo de votre téléphone pour obtenir votre carte de fidélité', 'Free coffee après 10 tampons'], ['Counter poster', 'Scan with your phone']);
    assert.match(res.text, /<article class="poster poster-a4" aria-label="Aushang" lang="fr">/);
    assert.match(res.text, /aria-label="QR-Code des Anmeldelinks"/);
  });
});
