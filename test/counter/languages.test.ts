// The counter in the shop's language (org setting `language`), over HTTP: the PIN screen, the
// counter page and the texts it hands its script, the customer screen with rewards, a promotion
// and an expiry line, refusals, the enroll form and the large-award question — in German and in
// French, with the shop's time zone and currency. English stays the default (the other tests).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { cardsRepo } from '../../src/cards/repo';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { Lang } from '../../src/i18n/langs';
import { startTestApp, type TestApp } from '../support/app';
import { CounterClient, messageOf } from './client';
import { apiCustomer, seedCounterOrg, STAFF, type CounterOrg } from './support';

let app: TestApp;

/** Tuesday 3 March 2026, 15:10 in Berlin: Double Tuesday (14:00–17:00) runs. */
const TUESDAY_1510 = Date.parse('2026-03-03T14:10:00Z');

async function shop(name: string, language: Lang): Promise<CounterOrg> {
  const org = await seedCounterOrg(app, name);
  app.db.transaction(() =>
    writeOrgSettings(app.db, org.orgId, { language, currency: 'EUR', timeZone: 'Europe/Berlin', counter: { lockAfterMinutes: 240, staffDailyAwardCap: null, customerDailyAwardCap: null } }),
  )();
  const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, {
    key: org.keys.live,
    body: { rewards: [{ name: 'Cake', cost: 6, description: 'Any slice' }, { name: 'Free coffee', cost: 10 }, { name: 'Lunch', cost: 15 }] },
  });
  assert.equal(patched.status, 200, patched.text);
  const promotion = await app.request('POST', `/api/v1/cards/${org.cards.stamps}/promotions`, {
    key: org.keys.live,
    body: { name: 'Double Tuesday', kind: 'multiplier', value: 2, startsAt: '2026-03-01', endsAt: '2026-03-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } },
  });
  assert.equal(promotion.status, 201, promotion.text);
  return org;
}

/** The page's visible words, without tags and with runs of white space as one space. */
const words = (markup: string) => markup.replace(/<[^>]+>/g, ' ').replace(/[ \t\r\n]+/g, ' ');

/** The texts the counter page hands its script. */
function scriptTexts(page: string): { lang: string; texts: Record<string, string>; counted: Record<string, Record<string, string>> } {
  const block = /<script type="application\/json" id="counter-texts">(.*?)<\/script>/s.exec(page);
  assert.ok(block, 'the page carries its script’s texts');
  return JSON.parse(block[1]!);
}

before(async () => {
  app = await startTestApp();
  app.clock.set(TUESDAY_1510);
});
after(() => app?.close());

describe('counter: in a German shop', () => {
  let org: CounterOrg;
  let sam: CounterClient;
  before(async () => {
    org = await shop('Café Sonne', 'de');
    sam = new CounterClient(app, org.orgId);
  });

  it('speaks German on the PIN screen, and refuses a wrong or missing PIN in German', async () => {
    const pin = await sam.request('GET', `/counter/${org.orgId}`);
    assert.match(pin.text, /<html lang="de">/);
    assert.match(pin.text, /<title>Kasse entsperren · Café Sonne<\/title>/);
    assert.match(pin.text, /<h1>PIN eingeben<\/h1>/);
    assert.match(pin.text, /<button type="submit" class="big">Entsperren<\/button>/);
    assert.match(pin.text, /aria-label="Ziffernblock"/);
    assert.equal(scriptTexts(pin.text).counted.pinWaiting!.one, '{n} Buchung auf diesem Gerät wartet darauf, gesendet zu werden.');

    const wrong = await sam.unlock('9999');
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Diese PIN stimmt nicht\. Bitte noch einmal\./);
    const none = await sam.unlock('');
    assert.equal(none.status, 400);
    assert.match(none.text, /Bitte geben Sie Ihre PIN ein\./);

    // A form whose token went stale is refused by the error page, in the shop's language too.
    const stale = await sam.request('POST', `/counter/${org.orgId}/unlock`, { form: { _csrf: 'stale-token-of-another-page-load', pin: '1234', mode: 'live' } });
    assert.equal(stale.status, 403);
    assert.match(stale.text, /<html lang="de">/);
    assert.match(stale.text, /<h1>Nicht erlaubt<\/h1>/);
    assert.match(stale.text, /Dieses Formular ist abgelaufen/);
  });

  it('shows the counter in German and hands its script German texts, with German plurals', async () => {
    assert.equal((await sam.unlock(STAFF[0]!.pin)).status, 303);
    const page = await sam.request('GET', `/counter/${org.orgId}`);
    assert.match(page.text, /<html lang="de">/);
    assert.match(page.text, /<title>Kasse · Café Sonne<\/title>/);
    const text = words(page.text);
    for (const said of ['Kunden finden', 'Mit Kamera scannen', 'Kartencode, Name, Telefon, E-Mail', 'Neuer Kunde', 'ECHTE DATEN', 'Sperren', 'Eigene Buchungen lassen sich 5 Minuten lang rückgängig machen.']) {
      assert.ok(text.includes(said), said);
    }
    const script = scriptTexts(page.text);
    assert.equal(script.lang, 'de');
    assert.match(script.texts.offline!, /^Keine Verbindung zum Server\./);
    assert.equal(script.texts.saved, 'Auf diesem Gerät gespeichert: {award} für {customer}. Wird gesendet, sobald der Server wieder erreichbar ist.');
    assert.deepEqual(script.counted.waiting, { one: '{n} wartet', other: '{n} warten' });
    assert.deepEqual(script.counted.queueSent, { one: '{n} gespeicherte Buchung wurde gesendet.', other: '{n} gespeicherte Buchungen wurden gesendet.' });
  });

  it('shows a customer with rewards, a running promotion and German amounts, and confirms a tap in German', async () => {
    const anna = await apiCustomer(app, org, { name: 'Anna Becker', initial: 7 });
    const screen = words((await sam.scan(anna.scanCode)).text);
    for (const said of [
      '7 Stempel',
      'Coffee stamps · Stempelkarte',
      'Noch 3 Stempel bis Free coffee (10 Stempel).',
      'Aktion läuft gerade',
      'Double Tuesday · doppelte Stempel · bis 17:00 Uhr',
      '+1 Stempel',
      '+1 extra durch Double Tuesday',
      'Prämien',
      'Cake einlösen (6 Stempel)',
      'Free coffee einlösen (10 Stempel)',
      'Noch 3 Stempel nötig',
      'Stempel hinzufügen',
      'Verkaufter Artikel',
      'Letzte Buchungen',
      'Anfangsstand 7 Stempel',
    ]) {
      assert.ok(screen.includes(said), `${said} in ${screen}`);
    }
    const tapped = await sam.act('earn', { customer: anna.passUserId, what: 'flat', amount: '1' });
    assert.match(words(tapped.text), /✓ \+2 Stempel \(\+1 Stempel durch Double Tuesday\) · Anna Becker hat jetzt 9 Stempel\./);
    assert.match(words(tapped.text), /\+2 Stempel \(\+1 Stempel durch Double Tuesday\) rückgängig machen \(15:10\)/);
  });

  it('refuses in German: an unknown code, a bad amount, a reward the balance does not pay', async () => {
    const unknown = await sam.scan('NOPE-NOT-A-CODE');
    assert.equal(unknown.status, 404);
    assert.deepEqual(messageOf(unknown), { code: 'UNKNOWN_CODE', message: 'Kein Kunde hat diesen Code. Prüfen Sie den Code oder suchen Sie nach Name, Telefon oder E-Mail.' });
    const ben = await apiCustomer(app, org, { name: 'Ben Kurz', initial: 12 });
    const bad = await sam.act('earn', { customer: ben.passUserId, what: 'flat', amount: '2,5' });
    assert.equal(messageOf(bad).message, 'Bitte eine ganze Zahl größer als 0 eingeben, zum Beispiel 3.');
    const lunch = /name="rewardId" value="([^"]+)">\s*<button[^>]*>Lunch einlösen/.exec((await sam.scan(ben.scanCode)).text)?.[1];
    assert.ok(lunch);
    const short = await sam.act('redeem', { customer: ben.passUserId, what: 'reward', rewardId: lunch });
    assert.equal(messageOf(short).message, 'Lunch kostet 15 Stempel und Ben Kurz hat 12 Stempel: noch 3 Stempel nötig.');
    const typed = await sam.get('/preview?customer=' + ben.passUserId + '&what=flat&amount=');
    assert.equal(typed.text, 'Betrag eingeben, um zu sehen, was die Buchung bringt.');

    // The card's earning limits, in German with the card's figures.
    // Through the repo, as the console writes cards (the API does not set limits).
    const cards = cardsRepo(app.db);
    cards.update({ ...cards.findById(org.cards.points)!, earningLimits: { waitSeconds: 600, maxPerAward: 5000 } });
    const paul = await apiCustomer(app, org, { name: 'Paul Punkte', card: 'points' });
    const big = await sam.act('earn', { customer: paul.passUserId, what: 'flat', amount: '60' });
    assert.deepEqual(messageOf(big), { code: 'AWARD_MAX_PER_AWARD', message: 'Diese Karte bucht höchstens 50 Punkte auf einmal; diese Buchung wäre 60 Punkte.' });
    assert.equal((await sam.act('earn', { customer: paul.passUserId, what: 'flat', amount: '5' })).status, 200);
    const soon = await sam.act('earn', { customer: paul.passUserId, what: 'flat', amount: '5' });
    assert.deepEqual(messageOf(soon), { code: 'AWARD_WAIT_ACTIVE', message: 'Diese Karte bucht höchstens einmal alle 600 s; wieder möglich in 600 s.' });
    // A refusal the API words (not the counter) is said in German too, from its code.
    const foreign = await sam.act('redeem', { customer: ben.passUserId, what: 'points', amount: '1' });
    assert.equal(foreign.status, 400);
    assert.equal(messageOf(foreign).message, 'Das geht mit dieser Karte nicht (vielleicht hat der Inhaber sie geändert). Bitte die Seite neu laden.');
  });

  it('asks in German before a large award, shows store credit in euros and the expiry line in German', async () => {
    const carla = await apiCustomer(app, org, { name: 'Carla Groß', initial: 1 });
    const large = await sam.act('earn', { customer: carla.passUserId, what: 'flat', amount: '30' });
    const asked = words(large.text);
    assert.ok(asked.includes('60 Stempel für Carla Groß buchen?'), asked);
    assert.ok(asked.includes('Das ist mehr als 10 Stempel auf einmal. Bitte prüfen Sie den Betrag, bevor er auf die Karte von Carla Groß geht.'), asked);
    assert.ok(asked.includes('Ja, 60 Stempel buchen'), asked);

    const gift = await apiCustomer(app, org, { name: 'Gisela Gutschein', card: 'prepaid', initial: 12.5 });
    assert.match((await sam.scan(gift.scanCode)).text, /<span class="cx-big">12,50\s€<\/span> Guthaben/);

    const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.levels}`, { key: org.keys.live, body: { expiry: { months: 1 } } });
    assert.equal(patched.status, 200, patched.text);
    const hugo = await apiCustomer(app, org, { name: 'Hugo Verfall', card: 'levels' });
    const earned = await app.request('POST', `/api/v1/customers/pu_${hugo.passUserId}/earn`, { key: org.keys.live, body: { type: 'points', amount: 12 } });
    assert.equal(earned.status, 201, earned.text);
    const club = (await sam.scan(hugo.scanCode)).text;
    assert.match(club, /<p class="cx-expiring" id="cx-expiring">12 Punkte verfallen am 3\. Apr\.<\/p>/);
    assert.match(words(club), /Bronze · noch 88 Punkte bis Silver/);
  });

  it('hands the service worker the offline page’s words in the shop’s language', async () => {
    const worker = await sam.request('GET', `/counter/sw.js?org=${org.orgId}`);
    assert.equal(worker.status, 200);
    const texts = /^self\.counterOfflineTexts = (\{.*?\});\n/.exec(worker.text);
    assert.ok(texts, 'the worker starts with its texts');
    assert.deepEqual(JSON.parse(texts[1]!), {
      lang: 'de',
      title: 'Kasse offline',
      heading: 'Die Kasse erreicht den Server nicht',
      body: 'Buchungen, die schon auf diesem Gerät gespeichert sind, warten dort und werden nach dem nächsten Entsperren gesendet.',
      retry: 'Noch einmal versuchen',
    });
    assert.doesNotMatch(worker.text, /The counter cannot reach the server/);
    // No shop named: the browser's language, if it is one of ours.
    const unnamed = await sam.request('GET', '/counter/sw.js', { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    assert.match(unnamed.text, /^self\.counterOfflineTexts = \{"lang":"fr",.*"heading":"La caisse n’arrive pas à joindre le serveur"/);
    assert.equal(unnamed.headers.get('vary'), 'Accept-Language');
  });

  it('shows the enroll form and its field messages in German', async () => {
    const form = words((await sam.get(`/enroll?card=${org.cards.stamps}`)).text);
    for (const said of ['Neuer Kunde', 'Karte', 'Telefon (optional)', 'Anmelden', 'Abbrechen', 'Bitte wählen …']) assert.ok(form.includes(said), `${said} in ${form}`);
    const refused = await sam.request('POST', `/counter/${org.orgId}/enroll`, {
      form: { mode: 'live', key: randomUUID(), card: org.cards.stamps, name: 'Dora Neu', email: 'nicht-gültig', 'q.memberNo': 'zwölf' },
      headers: { 'X-CSRF-Token': sam.csrf },
    });
    assert.equal(refused.status, 400);
    const said = words(refused.text);
    for (const message of ['Bitte eine E-Mail-Adresse wie name@example.com eingeben.', 'Bitte eine Zahl eingeben.', 'Diese Frage muss beantwortet werden.']) assert.ok(said.includes(message), `${message} in ${said}`);
  });
});

describe('counter: in a French shop', () => {
  let org: CounterOrg;
  let lea: CounterClient;
  before(async () => {
    org = await shop('Café du Coin', 'fr');
    lea = new CounterClient(app, org.orgId);
  });

  it('speaks French on the PIN screen and the counter, with French typography', async () => {
    const pin = await lea.request('GET', `/counter/${org.orgId}`);
    assert.match(pin.text, /<html lang="fr">/);
    assert.match(pin.text, /<h1>Saisissez votre code PIN<\/h1>/);
    const wrong = await lea.unlock('9999');
    assert.match(wrong.text, /Ce code PIN n’est pas le bon\. Réessayez\./);
    assert.equal((await lea.unlock(STAFF[0]!.pin)).status, 303);
    const page = await lea.request('GET', `/counter/${org.orgId}`);
    assert.match(page.text, /<html lang="fr">/);
    const text = words(page.text);
    for (const said of ['Trouver un client', 'Scanner avec la caméra', 'Nouveau client', 'Équipe\u00a0:']) assert.ok(text.includes(said), said);
    const script = scriptTexts(page.text);
    assert.equal(script.texts.awardLabel, '{field}\u00a0: {value}');
    assert.deepEqual(Object.keys(script.counted.queueSent!).sort(), ['many', 'one', 'other'], 'French plurals: one, many, other');
  });

  it('shows a customer, amounts and refusals in French', async () => {
    const luc = await apiCustomer(app, org, { name: 'Luc Martin', initial: 7 });
    const screen = words((await lea.scan(luc.scanCode)).text);
    for (const said of ['7 tampons', 'Encore 3 tampons avant Free coffee (10 tampons).', 'Promotion en cours', 'Double Tuesday · tampons doublés · jusqu’à 17:00', 'Utiliser Cake (6 tampons)', 'Il manque 3 tampons', 'Dernières opérations']) {
      assert.ok(screen.includes(said), `${said} in ${screen}`);
    }
    const tapped = words((await lea.act('earn', { customer: luc.passUserId, what: 'flat', amount: '2' })).text);
    assert.ok(tapped.includes('✓ +4 tampons (+2 tampons grâce à Double Tuesday) · Luc Martin a maintenant 11 tampons.'), tapped);

    const many = await apiCustomer(app, org, { name: 'Marie Points', card: 'points', initial: 1250 });
    assert.match((await lea.scan(many.scanCode)).text, /<span class="cx-big">1\s250<\/span> points/);
    const gift = await apiCustomer(app, org, { name: 'Gilles Cadeau', card: 'prepaid', initial: 12.5 });
    assert.match((await lea.scan(gift.scanCode)).text, /<span class="cx-big">12,50\s€<\/span> de crédit/);

    const unknown = await lea.scan('NOPE-NOT-A-CODE');
    assert.equal(messageOf(unknown).message, 'Aucun client n’a ce code. Vérifiez le code, ou cherchez par nom, téléphone ou e-mail.');
    const short = await lea.get('/find?q=x');
    assert.equal(messageOf(short).message, 'Saisissez au moins 2 caractères, ou scannez la carte.');
    const form = words((await lea.get(`/enroll?card=${org.cards.stamps}`)).text);
    assert.ok(form.includes('Téléphone (facultatif)'), form);
  });
});
