// Enrolling a new customer at the counter over HTTP, in a shop with a country: staff type the
// phone number as the customer says it (`0151 2345678`); it is read as a number of the shop's
// country and stored as E.164, so the same person said with `+49` is found, not enrolled twice.
// The form's example is a number of that country; a shop without one asks for the country code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inTransaction } from '../../src/db/transaction';
import { writeOrgSettings } from '../../src/orgs/settings';
import { startTestApp, type TestApp } from '../support/app';
import { CounterClient } from './client';
import { seedCounterOrg, STAFF, type CounterOrg } from './support';

let app: TestApp;
let org: CounterOrg;
let sam: CounterClient;

before(async () => {
  app = await startTestApp();
  org = await seedCounterOrg(app, 'Café Hamburg');
  sam = new CounterClient(app, org.orgId);
  await sam.unlock(STAFF[0]!.pin);
});
after(() => app.close());

const setCountry = (timeZone: string, country: string | null) => inTransaction(app.db, () => writeOrgSettings(app.db, org.orgId, { timeZone, country }));
const enroll = (fields: Record<string, string>) => sam.act('enroll', { card: org.cards.points, ...fields });
const hintOf = (text: string) => /id="f-phone-hint">([^<]*)</.exec(text)?.[1];

describe('a new customer’s phone number at the counter', () => {
  it('in a German shop: shows a German example, stores a national number as E.164, finds it said with +49', async () => {
    setCountry('Europe/Berlin', 'DE');
    const form = await sam.get(`/enroll?card=${org.cards.points}`);
    assert.equal(form.status, 200);
    assert.equal(hintOf(form.text), 'Such as 01512 3456789, or with the country code: +49 1512 3456789.');

    const res = await enroll({ name: 'Hanna Hamburg', email: 'hanna@example.de', phone: '0151 2345678' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.text, /Hanna Hamburg is enrolled on Points/);
    const stored = app.db.prepare("SELECT phone, phone_norm AS phoneNorm, source FROM customers WHERE name = 'Hanna Hamburg'").get();
    assert.deepEqual(stored, { phone: '+491512345678', phoneNorm: '+491512345678', source: 'scan' });

    const again = await enroll({ name: 'Hanna H.', email: 'h.hamburg@example.de', phone: '+49 151 2345678' });
    assert.match(again.text, /Hanna Hamburg is already a member of Points/);
  });

  it('refuses what is no number of the country, with its example', async () => {
    setCountry('Europe/Berlin', 'DE');
    const res = await enroll({ name: 'Nobody', email: 'nobody@example.de', phone: '0151 234567890123' });
    assert.equal(res.status, 400);
    assert.match(res.text, /Enter a phone number such as 01512 3456789, or with the country code: \+49 1512 3456789\./);
  });

  it('in a shop without a country: the number needs its country code', async () => {
    setCountry('UTC', null);
    const form = await sam.get(`/enroll?card=${org.cards.points}`);
    assert.equal(hintOf(form.text), 'With the country code, such as +44 20 7946 0958.');
    const res = await enroll({ name: 'Otto Ohne', email: 'otto@example.de', phone: '0151 7654321' });
    assert.equal(res.status, 400);
    assert.match(res.text, /Enter a phone number with the country code, such as \+44 20 7946 0958\./);
    assert.equal(app.db.prepare("SELECT count(*) AS n FROM customers WHERE name = 'Otto Ohne'").pluck().get(), 0);
  });
});
