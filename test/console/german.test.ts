// The console in German, for an admin who chose it (or a German shop's admin who chose nothing):
// every page of the shell, the dashboard, settings, keys, webhooks and staff over HTTP, and an owner
// signing in and working in a real browser, finding controls by their German names. Before sign-in
// no admin is known: the sign-in page follows the browser's Accept-Language.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';

const SHOTS = process.env.SHOTS_DIR ?? '.tmp/screenshots';

let app: TestApp;
let browser: Browser | undefined;
before(async () => {
  app = await startTestApp();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const setAdminLanguage = (org: ConsoleOrg, language: 'en' | 'de' | null) => app.db.prepare('UPDATE admins SET language = ? WHERE email = ?').run(language, org.admin.email);

async function signedIn(org: ConsoleOrg): Promise<ConsoleClient> {
  const client = new ConsoleClient(app);
  const res = await client.signIn(org.admin.email, org.admin.password);
  assert.equal(res.status, 303);
  return client;
}

const NAV_DE = ['Übersicht', 'Karten', 'Kunden', 'Nachrichten', 'Bericht', 'Beobachtungsliste', 'API-Schlüssel', 'Webhooks', 'Team', 'Einstellungen', 'Hilfe'];
const NAV_EN = ['Dashboard', 'Cards', 'Customers', 'Messages', 'Report', 'Watch list', 'API keys', 'Webhooks', 'Staff', 'Settings', 'Help'];
const navOf = (page: string) => [...(/<nav class="nav"[^>]*><ul>([\s\S]*?)<\/ul><\/nav>/.exec(page)?.[1] ?? '').matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);

describe('the console in German over HTTP', () => {
  it('an admin who chose German gets every page of part A in German, with <html lang="de">; an English admin of the same shop gets English', async () => {
    const org = await seedConsoleOrg(app, 'Café Spree');
    setAdminLanguage(org, 'de');
    const client = await signedIn(org);
    const pages: [string, RegExp][] = [
      ['/console/dashboard', /<h1>Übersicht<\/h1>[\s\S]*Heute ist [\s\S]*Erste Schritte[\s\S]*Vergebene Stempel[\s\S]*Letzte 30 Tage[\s\S]*Auffällige Tage an der Kasse/],
      ['/console/settings', /Ihr Geschäft[\s\S]*Name des Geschäfts[\s\S]*Zeitzone[\s\S]*Einstellungen speichern[\s\S]*Kasse sperren nach[\s\S]*Anmeldeformular[\s\S]*Wallet-Karten/],
      ['/console/settings/admins', /Zugang hinzufügen[\s\S]*Ihre Anmelde-E-Mail/],
      ['/console/settings/backups', /Sicherungen[\s\S]*Jetzt sichern[\s\S]*Zeitplan[\s\S]*Aufbewahrte Sicherungen/],
      ['/console/settings/email', /E-Mail[\s\S]*Dieser Server versendet keine E-Mails/],
      ['/console/keys', /<h1>API-Schlüssel<\/h1>[\s\S]*Live-Schlüssel[\s\S]*Schlüssel erstellen[\s\S]*Gerät oder Anbindung[\s\S]*Berechtigungen/],
      ['/console/webhooks', /<h1>Webhook-Endpunkte<\/h1>[\s\S]*Noch keine Endpunkte\.[\s\S]*Endpunkt hinzufügen[\s\S]*Alle Ereignisse/],
      ['/console/staff', /<h1>Team<\/h1>[\s\S]*Die Kasse[\s\S]*Teammitglieder[\s\S]*Teammitglied hinzufügen[\s\S]*Aktivität an der Kasse, letzte 30 Tage/],
      ['/console/going-live', /Online gehen[\s\S]*Drei Wege/],
      ['/console/password', /Aktuelles Passwort[\s\S]*Neues Passwort wiederholen/],
      ['/console/help/staff', /<h1>Hilfe: Team und Kasse<\/h1>[\s\S]*<strong>Gesperrte Kassen<\/strong>[\s\S]*Alle Hilfeseiten/],
    ];
    for (const [path, german] of pages) {
      const res = await client.request('GET', path);
      assert.equal(res.status, 200, path);
      assert.match(res.text, /<html lang="de">/, path);
      assert.deepEqual(navOf(res.text), NAV_DE, path);
      assert.match(res.text, german, path);
      assert.match(res.text, /Abmelden[\s\S]*ECHTE DATEN|ECHTE DATEN[\s\S]*Abmelden/, path);
      assert.doesNotMatch(res.text, />(Sign out|Save settings|Create key|Add endpoint|Add staff member)</, path);
    }

    // Dates and money as Germany writes them, on the shop's clock.
    const dashboardDe = (await client.request('GET', '/console/dashboard')).text;
    assert.match(dashboardDe, /Heute ist (Mo|Di|Mi|Do|Fr|Sa|So)\., \d{1,2}\. [A-ZÄÖÜ][a-zä]+\.? · Uhrzeiten in /);
    assert.match(dashboardDe, /0,00\u00a0€/);

    const settingsDe = (await client.request('GET', '/console/settings')).text;
    assert.match(settingsDe, /<option value="Europe\/Berlin">Deutschland<\/option>/, 'the time zone list names countries in German');
    assert.match(settingsDe, /<option value="AT">Österreich<\/option>/, 'and so does the country list');

    const english = await seedConsoleOrg(app, 'Café Spree');
    const other = await signedIn(english);
    const dashboard = await other.request('GET', '/console/dashboard');
    assert.match(dashboard.text, /<html lang="en">/);
    assert.deepEqual(navOf(dashboard.text), NAV_EN);
    assert.match(dashboard.text, /<h1>Dashboard<\/h1>[\s\S]*Getting started/);
  });

  it('the detail pages too: a new webhook endpoint and its secret, its page, a staff member, a key\'s revoke step', async () => {
    const org = await seedConsoleOrg(app, 'Café Saale');
    setAdminLanguage(org, 'de');
    const client = await signedIn(org);
    const csrf = await client.csrfFrom('/console/webhooks');
    const created = await client.request('POST', '/console/webhooks', { form: { _csrf: csrf, url: 'http://127.0.0.1:9/hook', events: '*' } });
    assert.equal(created.status, 201);
    assert.match(created.text, /<h1>Endpunkt hinzugefügt<\/h1>[\s\S]*Ereignisse gehen jetzt an[\s\S]*Signaturgeheimnis[\s\S]*Kopieren Sie den Wert jetzt/);
    const hookId = (app.db.prepare('SELECT id FROM webhooks WHERE org_id = ?').get(org.orgId) as { id: string }).id;
    const endpoint = await client.request('GET', `/console/webhooks/${hookId}`);
    assert.match(endpoint.text, /<html lang="de">[\s\S]*Endpunkt[\s\S]*Änderungen speichern[\s\S]*Endpunkt ausschalten[\s\S]*Zustellungen[\s\S]*Der Verlauf bleibt \d+ Tage erhalten/);

    const added = await client.request('POST', '/console/staff', { form: { _csrf: csrf, name: 'Kim', pin: '5931' } });
    assert.equal(added.status, 303);
    const listed = await client.request('GET', added.headers.get('location')!);
    assert.match(listed.text, /Kim ist hinzugefügt und kann die Kasse jetzt mit der PIN entsperren\./);
    const staffId = (app.db.prepare("SELECT id FROM staff WHERE org_id = ? AND name = 'Kim'").get(org.orgId) as { id: string }).id;
    const member = await client.request('GET', `/console/staff/${staffId}`);
    assert.match(member.text, /Umbenennen[\s\S]*Neue PIN[\s\S]*Kim kann die Kasse entsperren\.[\s\S]*Kim sperren/);

    const revoke = await client.request('GET', `/console/keys/${(app.db.prepare('SELECT id FROM api_keys WHERE org_id = ? LIMIT 1').get(org.orgId) as { id: string }).id}/revoke`);
    assert.match(revoke.text, /Schlüssel [^<]* widerrufen\?[\s\S]*Erstellt am [\s\S]*Schlüssel widerrufen[\s\S]*Abbrechen/);
  });

  it('refusals come back in German: the settings form, a key without permissions, a short PIN, a wrong current password', async () => {
    const org = await seedConsoleOrg(app, 'Café Havel');
    setAdminLanguage(org, 'de');
    const client = await signedIn(org);
    const csrf = await client.csrfFrom('/console/settings');
    const keyCount = () => (app.db.prepare('SELECT count(*) AS n FROM api_keys WHERE org_id = ?').get(org.orgId) as { n: number }).n;
    const keysBefore = keyCount();
    const table: { name: string; path: string; form: Record<string, string>; message: RegExp }[] = [
      { name: 'an empty shop name', path: '/console/settings', form: { name: ' ', brandColor: '#225588', timeZone: 'Europe/Berlin', country: '' }, message: /Geben Sie den Namen Ihres Geschäfts ein\./ },
      { name: 'an unknown time zone', path: '/console/settings', form: { name: 'Café Havel', brandColor: '#225588', timeZone: 'Mars/Olympus', country: '' }, message: /Wählen Sie die Zeitzone Ihres Geschäfts aus der Liste/ },
      { name: 'a key without permissions', path: '/console/keys', form: { deviceName: 'Kasse 1', mode: 'live' }, message: /Wählen Sie mindestens eine Berechtigung/ },
      { name: 'a key without a name', path: '/console/keys', form: { deviceName: '', mode: 'live', scopes: 'cards:read' }, message: /Nennen Sie das Gerät oder die Anbindung/ },
      { name: 'a webhook at no web address', path: '/console/webhooks', form: { url: 'ftp://example.com/hook', events: '*' }, message: /Geben Sie eine vollständige http\(s\)-Adresse ein/ },
      { name: 'a webhook without events', path: '/console/webhooks', form: { url: 'https://example.com/hook' }, message: /Wählen Sie mindestens eine Art von Ereignis/ },
      { name: 'a PIN of three digits', path: '/console/staff', form: { name: 'Sam', pin: '123' }, message: /Eine PIN hat 4 bis 8 Ziffern\./ },
      { name: 'a lock time of none', path: '/console/settings/counter', form: { lockAfterMinutes: '0', staffDailyAwardCap: '', customerDailyAwardCap: '', confirmStamps: '10', confirmPoints: '1000', confirmCredit: '200' }, message: /Geben Sie eine ganze Zahl von Minuten zwischen 1 und 240 ein\./ },
      { name: 'a wrong current password', path: '/console/password', form: { current: 'not it at all', next: 'a much better passphrase', confirm: 'a much better passphrase' }, message: /Das ist nicht Ihr aktuelles Passwort\./ },
      { name: 'the last admin removed', path: `/console/settings/admins/${adminId(org)}/remove`, form: {}, message: /Der letzte Zugang kann nicht entfernt werden/ },
    ];
    for (const row of table) {
      const res = await client.request('POST', row.path, { form: { _csrf: csrf, ...row.form } });
      assert.equal(res.status, 400, row.name);
      assert.match(res.text, row.message, row.name);
      assert.match(res.text, /<html lang="de">/, row.name);
    }
    assert.equal(keyCount(), keysBefore, 'no key was written');
  });

  it('the sign-in page follows the browser: German when it puts German before English, else English', async () => {
    const table: { header?: string; lang: 'de' | 'en' }[] = [
      { header: 'de-DE,de;q=0.9,en;q=0.8', lang: 'de' },
      { header: 'de-CH', lang: 'de' },
      { header: 'fr-FR, de;q=0.9, en;q=0.8', lang: 'de' },
      { header: 'en-GB,en;q=0.9,de;q=0.8', lang: 'en' },
      { header: 'fr-FR', lang: 'en' },
      { header: 'de;q=0, en', lang: 'en' },
      { lang: 'en' },
    ];
    for (const row of table) {
      const client = new ConsoleClient(app);
      const res = await client.request('GET', '/console/sign-in', { headers: row.header ? { 'Accept-Language': row.header } : {} });
      assert.match(res.text, new RegExp(`<html lang="${row.lang}">`), row.header ?? 'no header');
      assert.match(res.text, row.lang === 'de' ? /<h1>Anmelden<\/h1>[\s\S]*E-Mail[\s\S]*Passwort vergessen\?/ : /<h1>Sign in<\/h1>[\s\S]*Lost your password\?/, row.header ?? 'no header');
    }
    const org = await seedConsoleOrg(app, 'Café Oder');
    const client = new ConsoleClient(app);
    const csrf = await client.csrfFrom('/console/sign-in');
    const wrong = await client.request('POST', '/console/sign-in', { form: { _csrf: csrf, email: org.admin.email, password: 'wrong password', next: '/console' }, headers: { 'Accept-Language': 'de' } });
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /E-Mail oder Passwort stimmen nicht\./);
  });
});

function adminId(org: ConsoleOrg): string {
  return (app.db.prepare('SELECT id FROM admins WHERE email = ?').get(org.admin.email) as { id: string }).id;
}

describe('the console in German in a browser', () => {
  it('signs in on a German browser, finds every control by its German name, and the menu fits a phone', async () => {
    browser = await launchBrowser();
    const org = await seedConsoleOrg(app, 'Bäckerei Sonnenschein');
    setAdminLanguage(org, 'de');
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${app.url}/console`);
    await page.getByLabel('E-Mail').fill(org.admin.email);
    await page.getByLabel('Passwort').fill(org.admin.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(/\/console\/dashboard$/);
    await page.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    await page.getByRole('heading', { name: 'Erste Schritte' }).waitFor();

    const menu = page.getByRole('navigation', { name: 'Bereiche der Verwaltung' });
    await menu.getByRole('link', { name: 'Einstellungen' }).click();
    await page.getByLabel('Name des Geschäfts').fill('Bäckerei Sonnenschein & Café');
    await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
    await page.getByRole('status').filter({ hasText: 'Gespeichert.' }).waitFor();

    await menu.getByRole('link', { name: 'API-Schlüssel' }).click();
    await page.getByLabel('Gerät oder Anbindung').fill('Kasse 1');
    await page.getByRole('group', { name: 'Modus' }).getByRole('radio', { name: /^Test/ }).check();
    await page.getByRole('button', { name: 'Schlüssel erstellen' }).click();
    await page.getByRole('heading', { name: 'Ihr neuer API-Schlüssel' }).waitFor();
    assert.match(await page.getByLabel('API-Schlüssel', { exact: true }).inputValue(), /^[a-z]*_test_/);
    await page.getByRole('button', { name: 'Kopieren' }).waitFor();
    await page.getByRole('link', { name: 'Fertig, ich habe den Schlüssel gespeichert' }).click();

    await menu.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Sam');
    await page.getByLabel('PIN', { exact: true }).fill('4821');
    await page.getByRole('button', { name: 'Teammitglied hinzufügen' }).click();
    await page.getByRole('status').filter({ hasText: 'Sam ist hinzugefügt' }).waitFor();

    await menu.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhook-Endpunkte' }).waitFor();
    await page.getByRole('button', { name: 'Zu den Testdaten' }).click();
    await page.getByRole('heading', { name: 'Test-Webhook-Endpunkte' }).waitFor();
    assert.match((await page.getByRole('note').textContent())!, /Sie sehen gerade Testdaten\./);
    await page.getByRole('button', { name: 'Zu den echten Daten' }).click();

    await menu.getByRole('link', { name: 'Übersicht' }).click();
    await page.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor();
    mkdirSync(SHOTS, { recursive: true });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/console-dashboard-de-${width}.png`, fullPage: true });
    }
    await page.screenshot({ path: `${SHOTS}/console-dashboard-de-390-top.png` });
    // At phone width every German section name lies within the screen, and nothing scrolls sideways.
    for (const name of NAV_DE) {
      const box = (await menu.getByRole('link', { name, exact: true }).boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${name} lies within the screen (${box.x}..${box.x + box.width})`);
    }
    const widths = (await page.evaluate(`({ page: document.scrollingElement.scrollWidth, menu: document.querySelector('nav.nav ul').scrollWidth, menuBox: document.querySelector('nav.nav ul').clientWidth })`)) as {
      page: number;
      menu: number;
      menuBox: number;
    };
    assert.ok(widths.page <= 390, `the page is ${widths.page} px wide`);
    assert.ok(widths.menu <= widths.menuBox, `the menu's list is ${widths.menu} px in a box of ${widths.menuBox}`);

    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('status').filter({ hasText: 'Sie sind abgemeldet.' }).waitFor();
    await context.close();
  });
});
