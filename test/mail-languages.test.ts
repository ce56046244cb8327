import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { customersRepo } from '../src/customers/repo';
import { queueCardEmail } from '../src/mail/service';
import { writeOrgSettings } from '../src/orgs/settings';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { decodeHeader, header, mimeParts, startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from './support/mail';
import { api, enrollWithConsent, passDetails, runSweepJob, setTimeZone } from './support/programme';

// Customers' emails in their language, over a real SMTP server: the card email, the expiry
// reminder and the birthday greeting, in the language stored with the customer or else the shop's;
// dates in the shop's time zone as the language writes them.

const at = (iso: string) => Date.parse(iso);
const nbsp = (s: string) => s.replace(/\u00a0/g, ' ');

function read(mail: { raw: string }) {
  const parts = mimeParts(mail.raw);
  return {
    subject: decodeHeader(header(mail.raw, 'Subject')!),
    text: parts.find((p) => p.type === 'text/plain')!.body.toString('utf8').replace(/\r\n/g, '\n'),
    html: parts.find((p) => p.type === 'text/html')!.body.toString('utf8'),
  };
}

describe('emails in the customer’s language', () => {
  let smtp: TestSmtpServer;
  let app: MailTestApp;
  before(async () => {
    smtp = await startSmtpServer();
    app = await startMailApp(smtp);
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  async function sendCard(org: StandardOrg, fields: { name: string; email: string; language?: 'de' | 'fr' }) {
    const enrolled = enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.points, fields);
    const sent = smtp.received.length;
    queueCardEmail(app.deps, customersRepo(app.db).findByPassUserId(enrolled.passUserId)!, 'console');
    await app.worker.idle();
    assert.equal(smtp.received.length, sent + 1);
    return { ...read(smtp.received.at(-1)!), installUrl: enrolled.installUrl };
  }

  it('the card email in German for a customer who signed up in German, in an English-speaking shop', async () => {
    const org = seedStandardOrg(app, 'Café Möwe');
    const mail = await sendCard(org, { name: 'Jonas', email: 'jonas@example.de', language: 'de' });
    assert.equal(mail.subject, 'Ihre Karte „Points“ von Café Möwe');
    assert.deepEqual(mail.text.split('\n').slice(0, 9), [
      'Café Möwe: Ihre Karte „Points“',
      '',
      'Hallo Jonas,',
      'hier ist Ihre Treuekarte. Öffnen Sie diesen Link auf Ihrem Smartphone, um sie dort zu speichern:',
      mail.installUrl,
      '',
      'Punkte: 0',
      'Voucher: 0 von 100',
      'Voucher ab 100 Punkten.',
    ]);
    assert.match(mail.text, /Sie erhalten diese E-Mail, weil Sie bei Café Möwe Ihre Treuekarte angefordert haben\./);
    assert.match(mail.html, /<html lang="de">/);
    assert.match(mail.html, />Karte aufs Smartphone laden</);
    assert.match(mail.html, /alt="QR-Code mit dem Link zu Ihrer Karte"/);
    assert.doesNotMatch(mail.html, /Add the card|Here is your|You receive/, 'no English left');
  });

  it('the card email in French when the shop’s language is French and the customer chose none', async () => {
    const org = seedStandardOrg(app, 'Boulangerie Lune');
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { language: 'fr' }))();
    const mail = await sendCard(org, { name: 'Léa', email: 'lea@example.fr' });
    assert.equal(nbsp(mail.subject), 'Votre carte Points de chez Boulangerie Lune');
    assert.match(nbsp(mail.text), /^Boulangerie Lune : votre carte Points\n\nBonjour Léa,\nVoici votre carte de fidélité\./);
    assert.match(mail.text, /Voucher dès 100 points\./);
    assert.match(mail.html, /<html lang="fr">/);
    assert.match(mail.html, />Ajouter la carte à mon téléphone</);
  });

  it('the English card email is unchanged for an English shop', async () => {
    const mail = await sendCard(seedStandardOrg(app, 'Corner Café'), { name: 'Ada', email: 'ada@example.org' });
    assert.equal(mail.subject, 'Your Points card from Corner Café');
    assert.match(mail.text, /\nHello Ada,\nHere is your loyalty card\./);
    assert.match(mail.html, /<html lang="en">/);
  });
});

describe('the sweeps’ emails in the customer’s language', () => {
  let smtp: TestSmtpServer;
  let app: MailTestApp;
  let org: StandardOrg;
  before(async () => {
    smtp = await startSmtpServer();
    app = await startMailApp(smtp);
    org = seedStandardOrg(app);
    setTimeZone(app, org.orgId, 'Europe/Berlin');
    app.clock.set(at('2026-01-01T09:00:00Z'));
    const live = api(app, org.keys.live);
    await live.patchCard(org.cards.points, { expiry: { months: 1 } });
    await live.patchCard(org.cards.stamps, { birthday: { questionKey: 'birthday', units: 3 } });
    await runSweepJob(app);
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  it('the expiry reminder in German, its date in the shop’s time zone; the pass line too', async () => {
    app.clock.set(at('2026-01-10T10:00:00Z'));
    const enrolled = enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.points, { name: 'Jonas', email: 'jonas@example.de', language: 'de' });
    await api(app, org.keys.live).earn(`pu_${enrolled.passUserId}`, 'points', 12);
    app.clock.set(at('2026-01-27T12:00:00Z'));
    const sent = smtp.received.length;
    await runSweepJob(app);
    await app.worker.idle();
    assert.equal(smtp.received.length, sent + 1);
    const mail = read(smtp.received.at(-1)!);
    assert.equal(mail.subject, 'Test Café: 12 Punkte verfallen am 10. Februar');
    assert.deepEqual(mail.text.split('\n').slice(0, 5), [
      'Hallo Jonas,',
      'auf Ihrer Karte „Points“ verfallen am 10. Februar 12 Punkte.',
      'Lösen Sie Ihre Punkte bis dahin bei Test Café ein.',
      '',
      'Punkte: 12',
    ]);
    assert.match(mail.text, /Sie erhalten diese E-Mail, weil Sie eine Treuekarte von Test Café haben\./);
    assert.match(mail.html, />Meine Karte öffnen</);
    assert.deepEqual((await passDetails(app, enrolled.installUrl)).filter((d) => d.key === 'expiring'), [{ key: 'expiring', label: 'Verfällt bald', value: '12 Punkte verfallen am 10. Feb.' }]);
  });

  it('the birthday greeting in French', async () => {
    app.clock.set(at('2026-02-01T09:00:00Z'));
    enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.stamps, {
      name: 'Léa', email: 'lea@example.fr', language: 'fr', customFields: { memberNo: 7, altEmail: 'x@example.org', birthday: '1990-03-10' },
    });
    app.clock.set(at('2026-03-10T08:00:00Z'));
    const sent = smtp.received.length;
    await runSweepJob(app);
    await app.worker.idle();
    assert.equal(smtp.received.length, sent + 1);
    const mail = read(smtp.received.at(-1)!);
    assert.equal(nbsp(mail.subject), 'Joyeux anniversaire de la part de Test Café !');
    assert.deepEqual(nbsp(mail.text).split('\n').slice(0, 5), [
      'Joyeux anniversaire, Léa !',
      'Pour votre anniversaire, Test Café vous offre 3 tampons sur votre carte Coffee stamps.',
      'Au plaisir de vous revoir très bientôt !',
      '',
      'Tampons : 3',
    ]);
    assert.match(mail.html, /<html lang="fr">/);
  });
});
