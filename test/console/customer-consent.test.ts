// Consent recorded: a customer who joins through the sign-up form carries the agreement they ticked
// (its wording, kept once per wording) and the time; the console's customer page shows both. The
// owner rewording the agreement later changes nothing for those who agreed before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consentOf } from '../../src/privacy/consent';
import { customersRepo } from '../../src/customers/repo';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { GOOD_STAMPS_ANSWERS, SignupClient } from '../signup/support';

let app: TestApp;
let org: ConsoleOrg;
let owner: ConsoleClient;

const byEmail = (email: string) => customersRepo(app.db).findByEmail({ orgId: org.orgId, livemode: true }, email, org.cards.stamps)[0]!;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Consent Café');
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: 'Europe/Berlin', signup: { consentText: 'Keep my details for the card. Delete them when I ask.', privacyUrl: null } }))();
  app.clock.set(Date.UTC(2026, 5, 1, 8, 15));
  owner = new ConsoleClient(app);
  await owner.signIn(org.admin.email, org.admin.password);
});
after(() => app.close());

describe('consent recorded with the customer', () => {
  it('stores the wording the customer ticked and the time, and the customer page shows them', async () => {
    const res = await new SignupClient(app).signUp(org.cards.stamps, GOOD_STAMPS_ANSWERS);
    assert.equal(res.status, 303);
    const ada = byEmail('ada@example.com');
    assert.equal(ada.consentAt, Date.UTC(2026, 5, 1, 8, 15));
    assert.deepEqual(consentOf(app.db, ada), { text: 'Keep my details for the card. Delete them when I ask.', version: ada.consentSha256!.slice(0, 12), givenAt: ada.consentAt });
    const page = await owner.request('GET', `/console/customers/${ada.id}`);
    const panel = /<section class="panel" aria-labelledby="consent-heading">([\s\S]*?)<\/section>/.exec(page.text)![1]!;
    assert.match(panel, /Agreed on <strong>1 Jun 2026, 10:15<\/strong> on the sign-up form/);
    assert.match(panel, /<blockquote class="consent-text">Keep my details for the card\. Delete them when I ask\.<\/blockquote>/);
    assert.match(panel, new RegExp(`Version <code>${ada.consentSha256!.slice(0, 12)}</code>`));
  });

  it('keeps each wording once; a rewording applies to later sign-ups only', async () => {
    app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { signup: { consentText: 'A new wording.', privacyUrl: null } }))();
    await new SignupClient(app).signUp(org.cards.stamps, { ...GOOD_STAMPS_ANSWERS, email: 'bo@example.com', phone: '+44 20 7946 0959' });
    await new SignupClient(app).signUp(org.cards.stamps, { ...GOOD_STAMPS_ANSWERS, email: 'cy@example.com', phone: '+44 20 7946 0960' });
    assert.equal(consentOf(app.db, byEmail('ada@example.com'))!.text, 'Keep my details for the card. Delete them when I ask.');
    assert.equal(consentOf(app.db, byEmail('bo@example.com'))!.text, 'A new wording.');
    assert.equal(byEmail('bo@example.com').consentSha256, byEmail('cy@example.com').consentSha256);
    assert.equal((app.db.prepare('SELECT count(*) AS n FROM consent_texts').get() as { n: number }).n, 2);
  });

  it('records none for a customer created by another channel, and the page says so', async () => {
    const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'api-1', cardId: org.cards.stamps, email: 'api@example.com' } });
    assert.equal(res.status, 201);
    const customer = byEmail('api@example.com');
    assert.equal(customer.consentAt, null);
    assert.equal(consentOf(app.db, customer), null);
    const page = await owner.request('GET', `/console/customers/${customer.id}`);
    assert.match(page.text, /None recorded: this customer did not join through the sign-up form\./);
  });
});
