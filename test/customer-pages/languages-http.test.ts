// The customer pages in the customer's language, over HTTP: the sign-up form, its refusals, the
// welcome, the install page, the web pass, the unsubscribe page and the error pages follow the
// switcher's ?lang=, the customer's stored language, Accept-Language and the shop's language, in
// that order; the language a customer signs up in is stored with them, and the switcher on their
// own pages changes it (a POST with the pre-session token) so their pass follows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { customersRepo } from '../../src/customers/repo';
import { inTransaction } from '../../src/db/transaction';
import { unsubscribeUrl } from '../../src/mail/unsubscribe';
import { writeOrgSettings } from '../../src/orgs/settings';
import { ConsoleClient } from '../support/console';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { createCustomer } from '../support/wallet-app';
import { GOOD_STAMPS_ANSWERS } from '../signup/support';

let app: TestApp;
let org: StandardOrg;
/** A second shop whose language is German, with no country. */
let germanShop: { orgId: string; cardId: string };

before(async () => {
  app = await startTestApp();
  org = seedStandardOrg(app);
  inTransaction(app.db, () => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin', country: 'DE' }));
  const seeded = app.seed({
    orgs: [{ name: 'Bäckerei Korn', settings: { language: 'de' }, cards: [{ name: 'Brötchenkarte', passType: 'stamp_card', dataCollectionEnabled: true, reward: { name: 'Gratis Brötchen', cost: 5 } }] }],
  });
  germanShop = { orgId: seeded.orgs[0]!.orgId, cardId: seeded.orgs[0]!.cards[0]!.cardId };
});
after(async () => {
  await app?.close();
});

const stamps = () => org.cards.stamps;
const htmlLang = (text: string) => /<html lang="([a-z]+)">/.exec(text)?.[1];
/** The switcher's entry marked as the current language. */
const currentInSwitcher = (text: string) => /<(?:a|button)\b[^>]*aria-current="true"[^>]*>([^<]+)</.exec(text)?.[1];
const hidden = (text: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(text)?.[1];
const languageOf = (customerId: string) => (app.db.prepare('SELECT language FROM customers WHERE id = ?').get(customerId) as { language: string | null }).language;

async function openForm(client: ConsoleClient, path: string, acceptLanguage?: string) {
  const res = await client.request('GET', path, { headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {} });
  return { ...res, csrf: hidden(res.text, '_csrf')!, submission: hidden(res.text, 'submission')!, lang: hidden(res.text, 'lang') };
}

describe('the sign-up form’s language', () => {
  const cases = [
    { name: 'German from Accept-Language (de-CH is German)', header: 'de-CH,de;q=0.9,en;q=0.5', path: '', lang: 'de', label: 'Ihr Name', button: 'Karte holen', optional: '(optional)', switcher: 'Deutsch' },
    { name: 'French from Accept-Language by q', header: 'en;q=0.3,fr;q=0.8', path: '', lang: 'fr', label: 'Votre nom', button: 'Obtenir ma carte', optional: '(facultatif)', switcher: 'Français' },
    { name: 'the switcher’s ?lang= before Accept-Language', header: 'de', path: '?lang=fr', lang: 'fr', label: 'Votre nom', button: 'Obtenir ma carte', optional: '(facultatif)', switcher: 'Français' },
    { name: 'English when the browser names none of ours', header: 'pt-BR,ja;q=0.5', path: '', lang: 'en', label: 'Your name', button: 'Get my card', optional: '(optional)', switcher: 'English' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const res = await openForm(new ConsoleClient(app), `/get-pass/${stamps()}${c.path}`, c.header);
      assert.equal(res.status, 200);
      assert.equal(htmlLang(res.text), c.lang);
      assert.match(res.text, new RegExp(`<label for="f-name">${c.label}</label>`));
      assert.match(res.text, new RegExp(`<button type="submit" class="big">${c.button}</button>`));
      assert.match(res.text, new RegExp(`Phone|Telefon|Téléphone`));
      assert.ok(res.text.includes(`<span class="muted small">${c.optional}</span>`), 'the optional marker is in the page’s language');
      assert.equal(res.lang, c.lang, 'the form carries the language it is shown in');
      assert.equal(currentInSwitcher(res.text), c.switcher);
    });
  }

  it('the switcher names each language in its own words, with links to ?lang= and a label in the page’s language', async () => {
    const res = await openForm(new ConsoleClient(app), `/get-pass/${stamps()}`, 'de');
    assert.match(res.text, /<nav class="lang-switch" aria-label="Sprache">/);
    for (const [lang, name] of [['en', 'English'], ['de', 'Deutsch'], ['fr', 'Français'], ['es', 'Español'], ['it', 'Italiano'], ['nl', 'Nederlands']]) {
      assert.ok(res.text.includes(`<a href="/get-pass/${stamps()}?lang=${lang}" hreflang="${lang}" lang="${lang}"`), `${name} links to ?lang=${lang}`);
      assert.ok(res.text.includes(`>${name}</a>`), name);
    }
  });

  it('the shop’s language when the browser asks for none', async () => {
    const res = await openForm(new ConsoleClient(app), `/get-pass/${germanShop.cardId}`);
    assert.equal(htmlLang(res.text), 'de');
    assert.match(res.text, /In einer Minute dabei/);
    assert.match(res.text, /Gratis Brötchen nach 5 Stempeln\./, 'the reward line is German too');
  });

  it('a refused form comes back in the language it was shown in, with the shop’s phone example', async () => {
    const client = new ConsoleClient(app);
    const form = await openForm(client, `/get-pass/${stamps()}`, 'de');
    // The POST carries another Accept-Language: the form's own language wins.
    const res = await client.request('POST', `/get-pass/${stamps()}`, {
      form: { ...GOOD_STAMPS_ANSWERS, _csrf: form.csrf, submission: form.submission, lang: form.lang!, phone: '12', consent: '', 'q.memberNo': 'abc' },
      headers: { 'Accept-Language': 'fr' },
    });
    assert.equal(res.status, 400);
    assert.equal(htmlLang(res.text), 'de');
    assert.match(res.text, /<title>Bitte Angaben prüfen · Coffee stamps<\/title>/);
    assert.match(res.text, /Bitte prüfen Sie 3 Angaben:/);
    assert.match(res.text, /Telefon: Geben Sie eine Telefonnummer ein, zum Beispiel 01512\u00a03456789 oder mit Ländervorwahl: \+49\u00a01512\u00a03456789\./);
    assert.match(res.text, /Einwilligung: Bitte setzen Sie das Häkchen/);
    assert.match(res.text, /Geben Sie eine Zahl ein, zum Beispiel 42\./);
    assert.equal(hidden(res.text, 'lang'), 'de');
  });

  it('a refused form in French, with its no-break spaces', async () => {
    const client = new ConsoleClient(app);
    const form = await openForm(client, `/get-pass/${stamps()}?lang=fr`);
    const res = await client.request('POST', `/get-pass/${stamps()}`, { form: { ...GOOD_STAMPS_ANSWERS, _csrf: form.csrf, submission: form.submission, lang: 'fr', email: 'x' } });
    assert.equal(res.status, 400);
    assert.equal(htmlLang(res.text), 'fr');
    assert.ok(res.text.includes('Veuillez vérifier 1 réponse\u00a0:'));
    assert.match(res.text, /E-mail\u00a0: Saisissez une adresse e-mail, par exemple nom@exemple\.fr\./);
  });
});

describe('the language a customer signs up in', () => {
  let customerId: string;
  let code: string;
  let client: ConsoleClient;

  before(async () => {
    client = new ConsoleClient(app);
    const form = await openForm(client, `/get-pass/${stamps()}?lang=fr`, 'de');
    const res = await client.request('POST', `/get-pass/${stamps()}`, {
      form: { ...GOOD_STAMPS_ANSWERS, email: 'amelie@example.fr', _csrf: form.csrf, submission: form.submission, lang: form.lang! },
    });
    assert.equal(res.status, 303, res.text);
    code = new URL(res.headers.get('location')!, app.url).searchParams.get('code')!;
    const customer = customersRepo(app.db).findByPassUserId((app.db.prepare('SELECT id FROM customers WHERE email = ?').get('amelie@example.fr') as { id: string }).id)!;
    customerId = customer.id;
  });

  it('is stored with the customer', () => {
    assert.equal(languageOf(customerId), 'fr');
  });

  it('is reused on the welcome, the install page and the web pass, whatever the browser asks for', async () => {
    const welcome = await client.request('GET', `/get-pass/${stamps()}/welcome?code=${encodeURIComponent(code)}`, { headers: { 'Accept-Language': 'de' } });
    assert.equal(htmlLang(welcome.text), 'fr');
    assert.ok(welcome.text.includes('Bienvenue, Ada\u00a0!'));
    assert.match(welcome.text, /Votre carte Coffee stamps est prête\./);
    const install = await client.request('GET', `/get-pass/${stamps()}?code=${encodeURIComponent(code)}`, { headers: { 'Accept-Language': 'de' } });
    assert.equal(htmlLang(install.text), 'fr');
    assert.match(install.text, /Afficher ma carte dans le navigateur/);
    const pass = await client.request('GET', `/pass/${encodeURIComponent(code)}`, { headers: { 'Accept-Language': 'de' } });
    assert.equal(htmlLang(pass.text), 'fr');
    assert.match(pass.text, /Présentez ce code en caisse\./);
    assert.match(pass.text, /<div class="label" id="balance-label">Tampons<\/div>/, 'the pass on the page is French too');
    assert.match(pass.text, /aria-label="0 sur 10 tampons"/);
    assert.equal(currentInSwitcher(pass.text), 'Français');
    const balance = await client.request('GET', `/pass/${encodeURIComponent(code)}/balance?lang=fr`);
    assert.equal((JSON.parse(balance.text) as { balance: { label: string } }).balance.label, 'Tampons');
  });

  it('the web pass’s switcher stores another language, and the pass gets a new version', async () => {
    const before = customersRepo(app.db).findByPassUserId(customerId)!;
    const page = await client.request('GET', `/pass/${encodeURIComponent(code)}`);
    assert.match(page.text, /<form method="post" action="\/pass\/[^"]+\/language">/);
    assert.match(page.headers.get('content-security-policy')!, /form-action 'self'/);
    const res = await client.request('POST', `/pass/${encodeURIComponent(code)}/language`, { form: { _csrf: hidden(page.text, '_csrf')!, lang: 'de' } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/pass/${encodeURIComponent(code)}?language=saved`);
    const after = customersRepo(app.db).findByPassUserId(customerId)!;
    assert.equal(after.language, 'de');
    assert.equal(after.passVersion, before.passVersion + 1, 'installed passes are updated');
    const again = await client.request('GET', res.headers.get('location')!, { headers: { 'Accept-Language': 'fr' } });
    assert.equal(htmlLang(again.text), 'de');
    assert.match(again.text, /role="status">Ihre Karte ist jetzt auf Deutsch\./);
    assert.match(again.text, /<div class="label" id="balance-label">Stempel<\/div>/);
    assert.equal(currentInSwitcher(again.text), 'Deutsch');
  });

  it('the install page’s switcher stores it too and comes back to the install page', async () => {
    const page = await client.request('GET', `/get-pass/${stamps()}?code=${encodeURIComponent(code)}`);
    assert.equal(hidden(page.text, 'page'), 'install');
    const res = await client.request('POST', `/get-pass/${stamps()}/language`, { form: { _csrf: hidden(page.text, '_csrf')!, code, page: 'install', lang: 'nl' } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/get-pass/${stamps()}?code=${encodeURIComponent(code)}&language=saved`);
    assert.equal(languageOf(customerId), 'nl');
    const again = await client.request('GET', res.headers.get('location')!);
    assert.equal(htmlLang(again.text), 'nl');
    assert.match(again.text, /Toon mijn kaart in de browser/);
  });

  it('a choice without the page’s token, or of no language of ours, changes nothing', async () => {
    const stranger = new ConsoleClient(app);
    const refused = await stranger.request('POST', `/pass/${encodeURIComponent(code)}/language`, { form: { _csrf: 'x'.repeat(43), lang: 'es' } });
    assert.equal(refused.status, 403);
    assert.equal(htmlLang(refused.text), 'nl', 'the refusal is in the customer’s language');
    assert.match(refused.text, /Dit formulier is verlopen/);
    const page = await client.request('GET', `/pass/${encodeURIComponent(code)}`);
    const unknown = await client.request('POST', `/pass/${encodeURIComponent(code)}/language`, { form: { _csrf: hidden(page.text, '_csrf')!, lang: 'pt' } });
    assert.equal(unknown.status, 400);
    const wrongCode = await client.request('POST', `/pass/nope/language`, { form: { _csrf: hidden(page.text, '_csrf')!, lang: 'es' } });
    assert.equal(wrongCode.status, 404);
    assert.equal(languageOf(customerId), 'nl');
  });
});

describe('pages of a customer who never chose', () => {
  it('follow the browser, and the shop’s language without one; a GET stores nothing', async () => {
    const customer = createCustomer(app, { orgId: germanShop.orgId, cardId: germanShop.cardId, balance: 200 });
    const path = `/pass/${encodeURIComponent(customer.installCode)}`;
    const french = await new ConsoleClient(app).request('GET', path, { headers: { 'Accept-Language': 'fr-FR' } });
    assert.equal(htmlLang(french.text), 'fr');
    assert.match(french.text, /aria-label="2 sur 5 tampons"/);
    const shop = await new ConsoleClient(app).request('GET', path);
    assert.equal(htmlLang(shop.text), 'de');
    assert.match(shop.text, /aria-label="2 von 5 Stempeln"/);
    assert.equal(languageOf(customer.id), null);
  });

  it('the unsubscribe page speaks the customer’s language', async () => {
    const customer = createCustomer(app, { orgId: org.orgId, cardId: stamps(), name: 'Jonas' });
    inTransaction(app.db, () => customersRepo(app.db).setLanguage(customer.id, 'de', app.clock.now()));
    const path = new URL(unsubscribeUrl(app.deps, customer.id)).pathname;
    const res = await new ConsoleClient(app).request('GET', path);
    assert.equal(htmlLang(res.text), 'de');
    assert.match(res.text, /Keine Erinnerungen und Geburtstagsgrüße mehr\?/);
    assert.match(res.text, /Test Café schickt Ihnen eine E-Mail, kurz bevor Stempel auf Ihrer Karte verfallen/);
    const italian = await new ConsoleClient(app).request('GET', `${path}?lang=it`);
    assert.equal(htmlLang(italian.text), 'it');
    assert.match(italian.text, /<button type="submit" class="button big">Annulla l’iscrizione<\/button>/);
  });
});

describe('error pages', () => {
  it('a link to no card, in the browser’s language', async () => {
    const res = await new ConsoleClient(app).request('GET', '/get-pass/card_nope', { headers: { 'Accept-Language': 'fr' } });
    assert.equal(res.status, 404);
    assert.equal(htmlLang(res.text), 'fr');
    assert.match(res.text, /<h1>Carte introuvable<\/h1>/);
  });

  it('an expired sign-up form, in the language the form was in', async () => {
    const client = new ConsoleClient(app);
    await openForm(client, `/get-pass/${stamps()}`, 'de');
    const res = await client.request('POST', `/get-pass/${stamps()}`, { form: { ...GOOD_STAMPS_ANSWERS, _csrf: 'wrong', lang: 'de' } });
    assert.equal(res.status, 403);
    assert.equal(htmlLang(res.text), 'de');
    assert.match(res.text, /<h1>Nicht erlaubt<\/h1><p>Dieses Formular ist abgelaufen oder wurde von einer anderen Website gesendet\./);
    assert.match(res.text, />Zurück<\/a>/);
  });

  it('a page that named no language and a browser that asks for German', async () => {
    const res = await new ConsoleClient(app).request('POST', `/get-pass/card_nope`, { form: { _csrf: 'x' }, headers: { 'Accept-Language': 'de-AT' } });
    assert.equal(res.status, 404);
    assert.equal(htmlLang(res.text), 'de');
    assert.match(res.text, /Dieser Link führt zu keiner Treuekarte\./);
  });

  it('the anonymous rate limit, in the browser’s language with the wait in words', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '1' } });
    try {
      const card = seedStandardOrg(limited).cards.stamps;
      const client = new ConsoleClient(limited);
      const form = await openForm(client, `/get-pass/${card}`, 'de');
      const res = await client.request('POST', `/get-pass/${card}`, { form: { ...GOOD_STAMPS_ANSWERS, _csrf: form.csrf, lang: 'de' }, headers: { 'Accept-Language': 'de' } });
      assert.equal(res.status, 429);
      assert.equal(htmlLang(res.text), 'de');
      assert.match(res.text, /<h1>Zu viele Versuche<\/h1><p>Zu viele Anfragen von Ihrer Verbindung\. Bitte warten Sie 1 Sekunde und versuchen Sie es dann noch einmal\.<\/p>/);
      // The pages a customer opens by link answer a page too, not the API's JSON.
      for (const path of [`/get-pass/${card}`, '/pass/some-code']) {
        const page = await client.request('GET', path, { headers: { 'Accept-Language': 'fr' } });
        assert.equal(page.status, 429, path);
        assert.match(page.headers.get('content-type')!, /^text\/html/, path);
        assert.match(page.text, /<h1>Trop de tentatives<\/h1>/, path);
      }
    } finally {
      await limited.close();
    }
  });
});
