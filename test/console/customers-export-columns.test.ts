// The customers CSV's columns beyond the list's: one per question (headed by its label), the time
// the customer gave their consent, and phone numbers that a spreadsheet reads as phone numbers while
// every other cell a spreadsheet would run as a formula stays defused (the spaced international
// form was checked by hand in LibreOffice Calc 7.4: read as text, no cell run as a formula).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { enrollCustomer } from '../../src/loyalty/enroll';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { ConsoleClient, startTestApp, ADMIN_PASSWORD } from '../support/console';
import { insertCustomer } from '../support/customers';

let app: TestApp;
let client: ConsoleClient;
let orgId: string;
const cards: Record<string, string> = {};

async function exportRows(query = ''): Promise<{ header: string[]; rows: Record<string, string>[]; text: string }> {
  const text = (await client.request('GET', `/console/customers/export.csv${query}`)).text;
  const records = parse(text, { bom: true }) as string[][];
  const [header, ...rest] = records;
  return { header: header!, rows: rest.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]!]))), text };
}

before(async () => {
  app = await startTestApp();
  const seeded = await app.seedWithAdmins({
    orgs: [
      {
        name: 'Columns Café',
        admins: [{ email: 'columns@example.com', password: ADMIN_PASSWORD }],
        cards: [
          {
            ref: 'coffee', name: 'Coffee', passType: 'stamp_card', dataCollectionEnabled: true,
            questions: [
              { key: 'memberNo', label: 'Member number', type: 'number' },
              { key: 'size', label: 'Cup size', type: 'select', options: [{ value: 'S', label: 'Small' }, { value: 'L', label: 'Large' }] },
              { key: 'birthday', label: 'Birthday', type: 'date' },
              { key: 'news', label: 'Newsletter', type: 'checkbox' },
              { key: 'workEmail', label: 'Email', type: 'email' },
            ],
          },
          { ref: 'tea', name: 'Tea', passType: 'point_card', questions: [{ key: 'teaBirthday', label: 'birthday', type: 'date' }, { key: 'tea', label: 'Favourite tea', type: 'text' }] },
        ],
      },
    ],
  });
  orgId = seeded.orgs[0]!.orgId;
  for (const c of seeded.orgs[0]!.cards) cards[c.ref!] = c.cardId;
  app.db.transaction(() => writeOrgSettings(app.db, orgId, { timeZone: 'Europe/Berlin' }))();
  app.clock.set(Date.UTC(2026, 4, 14, 7, 30)); // 09:30 in Berlin
  const n = { orgId, livemode: true };
  const options = { channel: 'signup' as const, idempotencyKey: null };
  enrollCustomer(app.deps, n, { cardId: cards.coffee!, name: 'Ada', phone: '+44 (0)20 7946 0958', customFields: { memberNo: 7, size: 'L', birthday: '1990-12-10', news: true, workEmail: 'ada@work.example' }, consent: { text: 'I agree.' } }, options);
  app.clock.advance(60_000);
  enrollCustomer(app.deps, n, { cardId: cards.tea!, name: 'Bo', phone: '+1 213 373 4253', customFields: { teaBirthday: '1985-01-02', tea: '=1+1' } }, { channel: 'api', idempotencyKey: null });
  app.clock.advance(60_000);
  insertCustomer(app, { orgId, cardId: cards.coffee!, name: 'Cy', phone: '0170 1234567' });
  app.clock.advance(60_000);
  insertCustomer(app, { orgId, cardId: cards.coffee!, name: 'Di', phone: '+1 555 0100' });
  client = new ConsoleClient(app);
  await client.signIn('columns@example.com', ADMIN_PASSWORD);
});
after(() => app.close());

describe('customers CSV columns', () => {
  it("one card: a column per question of that card, headed by its label, answers as the form offered them", async () => {
    const { header, rows } = await exportRows(`?card=${cards.coffee}`);
    assert.deepEqual(header.slice(-5), ['Member number', 'Cup size', 'Birthday', 'Newsletter', 'Email (question)']);
    const ada = rows.find((r) => r.Name === 'Ada')!;
    assert.deepEqual([ada['Member number'], ada['Cup size'], ada.Birthday, ada.Newsletter, ada['Email (question)']], ['7', 'Large', '1990-12-10', 'Yes', 'ada@work.example']);
  });

  it('all cards: questions with the same label share a column; each answer under its own card\'s question', async () => {
    const { header, rows } = await exportRows();
    assert.deepEqual(header.slice(13), ['Member number', 'Cup size', 'Birthday', 'Newsletter', 'Email (question)', 'Favourite tea']);
    const bo = rows.find((r) => r.Name === 'Bo')!;
    assert.equal(bo.Birthday, '1985-01-02');
    assert.equal(bo['Cup size'], '');
    assert.equal(bo['Favourite tea'], "'=1+1", 'an answer that would run as a formula is defused');
    assert.equal(rows.find((r) => r.Name === 'Ada')!.Birthday, '1990-12-10');
  });

  it('the time the customer gave their consent on the sign-up form (the shop\'s clock); empty for other channels', async () => {
    const { rows } = await exportRows();
    assert.equal(rows.find((r) => r.Name === 'Ada')!['Consent given'], '2026-05-14 09:30');
    assert.equal(rows.find((r) => r.Name === 'Bo')!['Consent given'], '');
  });

  it('phone numbers in international form, without an apostrophe; one that is not a number stays guarded', async () => {
    const { rows, text } = await exportRows();
    const phone = (name: string) => rows.find((r) => r.Name === name)!.Phone;
    assert.equal(phone('Ada'), '+44 20 7946 0958');
    assert.equal(phone('Bo'), '+1 213 373 4253');
    assert.equal(phone('Cy'), '0170 1234567', 'as typed when it is not an international number');
    assert.equal(phone('Di'), "'+1 555 0100", 'not a phone number: the formula guard stays');
    assert.match(text, /,\+44 20 7946 0958,/);
  });
});
