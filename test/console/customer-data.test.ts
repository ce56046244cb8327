// A customer's own data in the console, over HTTP: editing their details (the sign-up rules and
// the card's duplicate rule, recorded with the admin), downloading everything kept about them
// (and the same from the CLI), and deleting their personal data behind a confirmation step.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { customersRepo } from '../../src/customers/repo';
import { earn } from '../../src/loyalty/service';
import { staffRepo } from '../../src/staff/repo';
import { startTestApp, type TestApp } from '../support/app';
import { runCli } from '../support/cli';
import { ConsoleClient, seedConsoleOrg, type ConsoleOrg } from '../support/console';
import { snapshot } from '../support/customers';
import { consentRepo } from '../../src/customers/consent-repo';
import { inTransaction } from '../../src/db/transaction';
import { writeOrgSettings } from '../../src/orgs/settings';

let app: TestApp;
let org: ConsoleOrg;
let client: ConsoleClient;
let n = 0;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Data Café', undefined, { staff: [{ name: 'Sam', pin: '2468' }] });
  // No country (UTC gives none), whatever the machine's zone: a phone number needs its country code.
  setCountry('UTC', null);
  client = new ConsoleClient(app);
  assert.equal((await client.signIn(org.admin.email, org.admin.password)).status, 303);
});
after(() => app?.close());

const setCountry = (timeZone: string, country: string | null) => inTransaction(app.db, () => writeOrgSettings(app.db, org.orgId, { timeZone, country }));

async function enroll(body: Record<string, unknown> = {}): Promise<{ id: string; email: string; phone: string }> {
  n++;
  const person = { email: `data${n}@example.org`, phone: `+44 20 7946 1${String(n).padStart(3, '0')}` };
  const res = await app.request('POST', '/api/v1/customers', {
    key: org.keys.live,
    body: { externalCustomerId: `data-${n}`, cardId: org.cards.stamps, name: `Data Person ${n}`, ...person, customFields: { memberNo: n, altEmail: `alt${n}@example.net`, size: 'L' }, ...body },
  });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.passUserId, ...person };
}

/** A console form post; the session's CSRF token is on every console page. */
async function post(path: string, form: Record<string, string> = {}) {
  const csrf = await client.csrfFrom('/console/customers');
  return client.request('POST', path, { form: { _csrf: csrf, ...form } });
}

describe('Edit details', () => {
  it('saves name, email and phone; the change is recorded with the admin and time; lookups follow the new values', async () => {
    const c = await enroll();
    const form = await client.request('GET', `/console/customers/${c.id}/edit`);
    assert.equal(form.status, 200);
    assert.match(form.text, /<label for="f-email">Email/);
    assert.match(form.text, new RegExp(`value="${c.email}"`));

    app.clock.advance(60_000);
    const res = await post(`/console/customers/${c.id}/edit`, { name: 'Renamed Person', email: 'renamed@example.org', phone: c.phone });
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.get('location'), `/console/customers/${c.id}?edited=1`);

    const read = (await app.request('GET', `/api/v1/customers/pu_${c.id}`, { key: org.keys.live })).body;
    assert.deepEqual([read.name, read.email, read.phone], ['Renamed Person', 'renamed@example.org', c.phone]);
    assert.equal((await app.request('GET', '/api/v1/customers/lookup?email=renamed@example.org', { key: org.keys.live })).body.passUserId, c.id);
    assert.equal((await app.request('GET', `/api/v1/customers/lookup?email=${c.email}`, { key: org.keys.live })).status, 404);
    const search = await client.request('GET', '/console/customers?q=renamed');
    assert.match(search.text, /Renamed Person/, 'the search index follows the edit');

    const page = await client.request('GET', `/console/customers/${c.id}?edited=1`);
    assert.match(page.text, /Details saved/);
    const changes = /<h2 id="changes-heading">[\s\S]*?<\/section>/.exec(page.text)![0];
    assert.match(changes, /Name: Data Person \d+ → Renamed Person/);
    assert.match(changes, new RegExp(`Email: ${c.email} → renamed@example.org`));
    assert.doesNotMatch(changes, /Phone:/, 'only what changed');
    assert.ok(changes.includes(org.admin.email), 'who');
    assert.match(changes, /2026/, 'when');
  });

  const refusals: { name: string; form: (c: { email: string; phone: string }) => Record<string, string>; status: number; message: RegExp }[] = [
    { name: 'a malformed email', form: (c) => ({ name: 'X', email: 'not-an-address', phone: c.phone }), status: 400, message: /Enter an email address such as name@example\.com/ },
    { name: 'a phone without country code', form: (c) => ({ name: 'X', email: c.email, phone: '0170 1234567' }), status: 400, message: /Enter a phone number with the country code, such as \+44 20 7946 0958\./ },
    { name: 'emptying the name the card requires', form: (c) => ({ name: '', email: c.email, phone: c.phone }), status: 400, message: /This card asks every customer for their name: it cannot be emptied/ },
    { name: 'a name over 200 characters', form: (c) => ({ name: 'n'.repeat(201), email: c.email, phone: c.phone }), status: 400, message: /At most 200 characters/ },
    { name: 'the email of another customer of the card', form: () => ({ name: 'X', email: 'DATA-TAKEN@example.org', phone: '' }), status: 409, message: /Another customer of this card \(Data Person \d+\) has this email address/ },
    { name: 'the phone of another customer of the card', form: (c) => ({ name: 'X', email: c.email, phone: '+44 20 7946 9999' }), status: 409, message: /has this phone number/ },
  ];
  for (const t of refusals) {
    it(`refuses ${t.name} with the form and its message; nothing is written`, async () => {
      await enroll({ email: 'data-taken@example.org', phone: '+44 20 7946 9999', externalCustomerId: `taken-${n}` }).catch(() => undefined);
      const c = await enroll();
      const before = snapshot(app.db);
      const res = await post(`/console/customers/${c.id}/edit`, t.form(c));
      assert.equal(res.status, t.status, res.text.slice(0, 300));
      assert.match(res.text, t.message);
      assert.match(res.text, /<form method="post" action="\/console\/customers\/[^/]+\/edit"/, 'the form again');
      assert.deepEqual(snapshot(app.db), before);
    });
  }

  it('allows an email another card’s customer has; saving unchanged values records nothing', async () => {
    const c = await enroll();
    const other = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'other-card-1', cardId: org.cards.points, email: 'shared@example.org' } });
    assert.equal(other.status, 201);
    assert.equal((await post(`/console/customers/${c.id}/edit`, { name: 'Data Person', email: 'shared@example.org', phone: c.phone })).status, 303);
    const same = await post(`/console/customers/${c.id}/edit`, { name: 'Data Person', email: 'shared@example.org', phone: c.phone });
    assert.equal(same.headers.get('location'), `/console/customers/${c.id}?edited=0`);
    assert.equal((app.db.prepare('SELECT count(*) AS n FROM customer_changes WHERE customer_id = ?').get(c.id) as { n: number }).n, 1);
  });
});

describe('Edit details in a shop with a country', () => {
  before(() => setCountry('Europe/Berlin', 'DE'));
  after(() => setCountry('UTC', null));

  it('shows a number of the country as the example and stores a number typed without its code as E.164', async () => {
    const c = await enroll();
    const form = await client.request('GET', `/console/customers/${c.id}/edit`);
    assert.match(form.text, /<span class="hint" id="f-phone-hint">Such as 01512 3456789, or with the country code: \+49 1512 3456789\.<\/span>/);
    const res = await post(`/console/customers/${c.id}/edit`, { name: 'Data Person', email: c.email, phone: '0151 2345678' });
    assert.equal(res.status, 303, res.text.slice(0, 300));
    const read = (await app.request('GET', `/api/v1/customers/pu_${c.id}`, { key: org.keys.live })).body;
    assert.equal(read.phone, '+491512345678');
    assert.equal((await app.request('GET', '/api/v1/customers/lookup?phone=%2B491512345678', { key: org.keys.live })).body.passUserId, c.id);
    const again = await post(`/console/customers/${c.id}/edit`, { name: 'Data Person', email: c.email, phone: '0151 2345678' });
    assert.equal(again.headers.get('location'), `/console/customers/${c.id}?edited=0`, 'the same number typed the same way is no change');
  });

  it('refuses what is no number of the country, with its example', async () => {
    const c = await enroll();
    const res = await post(`/console/customers/${c.id}/edit`, { name: 'Data Person', email: c.email, phone: '0151 234567890123' });
    assert.equal(res.status, 400);
    assert.match(res.text, /Enter a phone number such as 01512 3456789, or with the country code: \+49 1512 3456789\./);
  });
});

describe('Download data, and the same from the CLI', () => {
  it('gives every field, the answers with their labels, the passes and the whole ledger with channel and staff', async () => {
    const c = await enroll();
    const sam = staffRepo(app.db).list(org.orgId).find((s) => s.name === 'Sam')!;
    const customer = () => customersRepo(app.db).findByPassUserId(c.id)!;
    earn(app.deps, { customer: customer(), source: 'scan', staff: { id: sam.id, name: sam.name }, idempotencyKey: null, type: 'stamps', basis: { from: 'amount', amount: 200 } });
    assert.equal((await app.request('POST', `/api/v1/customers/pu_${c.id}/earn`, { key: org.keys.live, body: { type: 'stamps', amount: 1 } })).status, 201);
    // The agreement as the sign-up form records it.
    const consent = consentRepo(app.db).record('I agree to the loyalty terms.', Date.UTC(2026, 10, 1));
    app.db.prepare('UPDATE customers SET consent_sha256 = ?, consent_at = ? WHERE id = ?').run(consent, Date.UTC(2026, 10, 1), c.id);

    const res = await client.request('GET', `/console/customers/${c.id}/data.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="customer-pu_${c.id}.json"`);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const data = JSON.parse(res.text);
    assert.deepEqual(Object.keys(data), ['exportedAt', 'customer', 'card', 'answers', 'consent', 'passes', 'ledger', 'emails', 'changes']);
    assert.deepEqual(data.customer, {
      passUserId: c.id, externalCustomerId: `data-${n}`, name: `Data Person ${n}`, email: c.email, phone: c.phone, status: 'pending_install',
      joinedVia: 'api', livemode: true, language: null, balance: { stamps: 3 }, createdAt: data.customer.createdAt, updatedAt: data.customer.updatedAt,
    });
    assert.deepEqual(data.card, { cardId: org.cards.stamps, name: 'Coffee stamps', passType: 'stamp_card' });
    assert.deepEqual(data.consent, { text: 'I agree to the loyalty terms.', version: consent.slice(0, 12), givenAt: '2026-11-01T00:00:00.000Z' });
    assert.deepEqual(data.answers.find((a: { key: string }) => a.key === 'size'), { key: 'size', label: 'Cup size', type: 'select', value: 'L' });
    assert.equal(data.answers.find((a: { key: string }) => a.key === 'altEmail').value, `alt${n}@example.net`);
    assert.match(data.passes.installUrl, new RegExp(`/get-pass/${org.cards.stamps}\\?code=`));
    assert.deepEqual(data.ledger.map((r: { change: number; channel: string; staff: unknown }) => [r.change, r.channel, r.staff]), [
      [2, 'scan', { id: sam.id, name: 'Sam' }],
      [1, 'api', null],
    ]);

    const cli = await runCli(['customer', 'export', `email:${c.email}`, '--org', org.orgId, '--data', app.config.dataDir]);
    assert.equal(cli.code, 0, cli.stderr);
    const fromCli = JSON.parse(cli.stdout);
    assert.deepEqual({ ...fromCli, exportedAt: null }, { ...data, exportedAt: null, passes: fromCli.passes }, 'the same data as the console’s');
  });

  it('the CLI refuses with one line: an unknown customer, an unknown org, a missing argument', async () => {
    const cases: { args: string[]; message: RegExp }[] = [
      { args: ['customer', 'export', 'nobody', '--org', org.orgId], message: /^wallet-loyalty: CUSTOMER_NOT_FOUND: nobody\n$/ },
      { args: ['customer', 'export', 'data-1', '--org', 'org_nope'], message: /^wallet-loyalty: no org org_nope\n$/ },
      { args: ['customer', 'export', '--org', org.orgId], message: /^wallet-loyalty: customer export needs a customer and an org/ },
      { args: ['customer', 'list'], message: /^wallet-loyalty: customer takes export/ },
    ];
    for (const t of cases) {
      const res = await runCli([...t.args, '--data', app.config.dataDir]);
      assert.equal(res.code, 1, t.args.join(' '));
      assert.match(res.stderr, t.message);
      assert.equal(res.stdout, '');
    }
  });
});

describe('Delete personal data', () => {
  it('asks first, then erases: the customer is gone from the console and the API, the change recorded without values', async () => {
    const c = await enroll();
    await post(`/console/customers/${c.id}/edit`, { name: 'Before Erase', email: c.email, phone: c.phone });
    const confirm = await client.request('GET', `/console/customers/${c.id}/erase`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Delete the personal data of Before Erase\?/);
    assert.match(confirm.text, /cannot be undone/);
    assert.equal(customersRepo(app.db).findByPassUserId(c.id)!.erasedAt, null, 'showing the confirmation changes nothing');

    const res = await post(`/console/customers/${c.id}/erase`);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/console/customers/erased/${c.id}`);
    assert.match((await client.request('GET', `/console/customers/erased/${c.id}`)).text, /Personal data deleted/);
    const gone = await client.request('GET', `/console/customers/${c.id}`);
    assert.equal(gone.status, 404);
    assert.match(gone.text, /There is no such customer/);
    assert.equal((await client.request('GET', `/console/customers/${c.id}/data.json`)).status, 404);
    assert.equal((await app.request('GET', `/api/v1/customers/pu_${c.id}`, { key: org.keys.live })).status, 404);
    assert.doesNotMatch((await client.request('GET', '/console/customers')).text, new RegExp(c.id), 'not in the list');
    assert.doesNotMatch((await client.request('GET', `/console/customers?q=${encodeURIComponent(c.id)}`)).text, /Before Erase/);

    const changes = app.db.prepare('SELECT kind, channel, admin_email, changes FROM customer_changes WHERE customer_id = ? ORDER BY id').all(c.id) as { kind: string; channel: string; admin_email: string; changes: string }[];
    assert.deepEqual(changes.map((r) => [r.kind, r.channel, r.admin_email, JSON.parse(r.changes)]), [
      ['edit', 'console', org.admin.email, [{ field: 'name' }]],
      ['erase', 'console', org.admin.email, [{ field: 'name' }, { field: 'email' }, { field: 'phone' }]],
    ]);
    const event = app.db.prepare("SELECT payload FROM events WHERE customer_id = ? AND type = 'customer.deleted'").get(c.id) as { payload: string };
    assert.equal(JSON.parse(event.payload).data.passUserId, c.id);
    assert.equal(JSON.parse(event.payload).data.externalCustomerId, null, 'no endpoint receives it here: the external id goes at once');
  });

  it('the counts above the list leave the erased customer out', async () => {
    const before = (app.db.prepare('SELECT sum(customers) AS n FROM customer_counts WHERE org_id = ? AND livemode = 1').get(org.orgId) as { n: number }).n;
    const c = await enroll();
    assert.equal((await post(`/console/customers/${c.id}/erase`)).status, 303);
    const afterErase = (app.db.prepare('SELECT sum(customers) AS n FROM customer_counts WHERE org_id = ? AND livemode = 1').get(org.orgId) as { n: number }).n;
    assert.equal(afterErase, before);
    const list = await client.request('GET', '/console/customers');
    assert.match(list.text, new RegExp(`${afterErase} customers`));
  });
});
