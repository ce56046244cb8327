// A German shop imports the file its previous app exported on a Windows PC: Windows-1252 text,
// national phone numbers, German number marks. The file is read as the shop's country writes
// (the org setting `country`), every number stored as E.164, every amount as the country means it,
// a number two readings fit refused with the row, never read as 1. Files the import cannot use are
// refused at the upload with a clear message.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inTransaction } from '../../src/db/transaction';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { fieldsOf, figures, importSteps, type ImportSteps } from './console-steps';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let steps: ImportSteps;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Bäckerei Müller');
  inTransaction(app.db, () => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin', country: 'DE' }));
  client = new ConsoleClient(app);
  await client.signIn(org.admin.email, org.admin.password);
  steps = importSteps(app, client);
});
after(() => app.close());

/** Text as Excel on Windows saves "CSV": Windows-1252, where € is 0x80 and ’ 0x92. */
function windows1252(text: string): Buffer {
  const beyondLatin1: Record<string, number> = { '€': 0x80, '’': 0x92, '–': 0x96 };
  return Buffer.from([...text].map((ch) => beyondLatin1[ch] ?? ch.charCodeAt(0)));
}

const customer = (email: string) =>
  app.db.prepare('SELECT name, phone, phone_norm AS phoneNorm, balance FROM customers WHERE email_norm = ?').get(email) as { name: string; phone: string; phoneNorm: string; balance: number } | undefined;

async function importFile(name: string, bytes: Buffer | string, cardId: string): Promise<{ dry: string; done: string }> {
  const res = await steps.upload({ name, bytes }, cardId);
  assert.equal(res.status, 303, res.text);
  const page = await client.request('GET', res.location!);
  const dry = await steps.check(res.location!, fieldsOf(page.text).mapping);
  assert.equal(dry.status, 200, dry.text);
  return { dry: dry.text, done: await steps.runToEnd(res.location!) };
}

describe('a German shop’s file', () => {
  it('national numbers, German thousands and Windows-1252 names: all read, phones stored as E.164', async () => {
    const file = windows1252(
      [
        'Name;E-Mail;Telefon;Stempel',
        'Jürgen Weiß;juergen@example.de;0151 2345678;1.000',
        'Zoë Café’s – 5 €;zoe@example.de;(030) 1234567;7',
        'Ömer Şahin;oemer@example.de;0049 170 1234567;12',
        'Anna Groß;anna@example.de;+43 664 123456;2',
        'Karl Ambig;karl@example.de;0170 7654321;1,000',
        'Lena Kurz;lena@example.de;0151 234567890123;3',
      ].join('\r\n'),
    );
    // Ş is not in Windows-1252: the file keeps that row's name as the byte Excel writes ("?").
    const { dry, done } = await importFile('kunden.csv', Buffer.from(file.toString('latin1').replace('Ş', '?'), 'latin1'), org.cards.stamps);
    assert.deepEqual(figures(dry), { created: 4, matched: 0, refused: 2 });
    assert.match(dry, /"Column">Stempel<\/td><td data-label="Problem">is ambiguous: the “[.,]” could separate thousands or decimals/);
    assert.match(dry, /"Column">Telefon<\/td><td data-label="Problem">is not a phone number \(such as 01512 3456789 or \+49 1512 3456789\)/);
    assert.deepEqual(figures(done), { created: 4, matched: 0, refused: 2 });
    assert.deepEqual(customer('juergen@example.de'), { name: 'Jürgen Weiß', phone: '+491512345678', phoneNorm: '+491512345678', balance: 100_000 });
    assert.deepEqual(customer('zoe@example.de'), { name: 'Zoë Café’s – 5 €', phone: '+49301234567', phoneNorm: '+49301234567', balance: 700 });
    assert.equal(customer('oemer@example.de')!.phoneNorm, '+491701234567');
    assert.deepEqual(customer('anna@example.de'), { name: 'Anna Groß', phone: '+43 664 123456', phoneNorm: '+43664123456', balance: 200 });
    assert.equal(customer('karl@example.de'), undefined, 'never read as 1 stamp');
  });

  it('store credit in German writing', async () => {
    const { done } = await importFile('guthaben.csv', 'E-Mail;Guthaben\ngeld1@example.de;1.000,50\ngeld2@example.de;12,50 €\ngeld3@example.de;1,234\n', org.cards.prepaid);
    assert.deepEqual(figures(done), { created: 2, matched: 0, refused: 1 });
    assert.equal(customer('geld1@example.de')!.balance, 100_050);
    assert.equal(customer('geld2@example.de')!.balance, 1_250);
  });
});

describe('files refused at the upload, nothing written', () => {
  const cases = [
    { name: 'a file of blank lines only', bytes: '\r\n'.repeat(100_000), message: /The file holds only blank lines/ },
    { name: 'a file of 60,000 columns', bytes: `${Array.from({ length: 60_000 }, (_, i) => `c${i}`).join(',')}\n1\n`, message: /The header has 60,000 columns; a customer file has at most 200/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const drafts = (app.db.prepare('SELECT count(*) AS n FROM imports').get() as { n: number }).n;
      const res = await steps.upload({ name: 'x.csv', bytes: c.bytes }, org.cards.points);
      assert.equal(res.status, 400);
      assert.match(res.text, c.message);
      assert.ok(res.text.length < 100_000, 'a page of its usual size');
      assert.equal((app.db.prepare('SELECT count(*) AS n FROM imports').get() as { n: number }).n, drafts);
    });
  }
});
