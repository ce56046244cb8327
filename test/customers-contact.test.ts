import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SeedError } from '../src/seed/service';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { enroll, snapshot } from './support/customers';

// The email and phone rules (lib/contact.ts, table-tested in contact.test.ts) where a client meets
// them: enroll refuses a malformed email, matching and lookups compare the normal forms, custom
// answers and the seed file use the same rule.

describe('email and phone over the API', () => {
  let app: TestApp;
  let org: StandardOrg;
  let n = 0;
  const uid = () => `contact-${++n}`;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  const malformed = ['not-an-email', 'ada@', 'ada@localhost', 'ada@example.com.', '"ada lovelace"@example.com', 'ada..l@example.com', 'Ada <ada@example.com>', `${'a'.repeat(65)}@example.com`];
  for (const email of malformed) {
    it(`enroll refuses the email ${JSON.stringify(email)}: 400 VALIDATION_FAILED naming email, nothing written`, async () => {
      const before = snapshot(app.db);
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.message, 'VALIDATION_FAILED: email');
      assert.deepEqual(res.body.issues, [{ path: 'email', message: 'must be an email address such as name@example.com' }]);
      assert.deepEqual(snapshot(app.db), before);
    });
  }

  it('enroll takes an empty or null email as none', async () => {
    for (const email of ['', '  ', null]) {
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email });
      assert.equal(res.status, 201, res.text);
      const read = await app.request('GET', `/api/v1/customers/pu_${res.body.passUserId}`, { key: org.keys.live });
      assert.equal(read.body.email, null);
    }
  });

  it('an IDN domain matches in Unicode and in xn-- form, in any case', async () => {
    const first = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email: 'Jörg@Bücher.de' });
    assert.equal(first.status, 201, first.text);
    const second = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email: 'JÖRG@xn--bcher-kva.DE' });
    assert.equal(second.body.result, 'matched', second.text);
    assert.equal(second.body.matchedBy, 'email');
    assert.equal(second.body.passUserId, first.body.passUserId);
    for (const path of [`/api/v1/customers/lookup?email=${encodeURIComponent('jörg@xn--bcher-kva.de')}`, `/api/v1/customers/${encodeURIComponent('email:jörg@bücher.de')}`]) {
      const found = await app.request('GET', path, { key: org.keys.live });
      assert.equal(found.status, 200, `${path}: ${found.text}`);
      assert.equal(found.body.passUserId, first.body.passUserId);
      assert.equal(found.body.email, 'Jörg@Bücher.de', 'shown as typed');
    }
  });

  it('a lookup with something that is no address matches nobody (404), as a national phone does', async () => {
    const res = await app.request('GET', `/api/v1/customers/lookup?email=${encodeURIComponent('Jörg@Bücher')}`, { key: org.keys.live });
    assert.equal(res.status, 404, res.text);
  });

  it('a UK number with its trunk 0 matches the number without it, also as a ref with + sent as a space', async () => {
    const first = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.points, phone: '+44 (0)20 7946 0958' });
    assert.equal(first.status, 201, first.text);
    const second = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.points, phone: '+442079460958' });
    assert.equal(second.body.matchedBy, 'phone', second.text);
    assert.equal(second.body.passUserId, first.body.passUserId);
    for (const path of ['/api/v1/customers/lookup?phone=+44+20+7946+0958', '/api/v1/customers/phone:+4402079460958', '/api/v1/customers/phone:%2B442079460958']) {
      const found = await app.request('GET', path, { key: org.keys.live });
      assert.equal(found.status, 200, `${path}: ${found.text}`);
      assert.equal(found.body.passUserId, first.body.passUserId);
      assert.equal(found.body.phone, '+44 (0)20 7946 0958', 'shown as typed');
    }
  });

  it('a number of no country is kept as typed but never matches', async () => {
    const first = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.points, phone: '+999 1234567' });
    assert.equal(first.status, 201, first.text);
    const second = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.points, phone: '+999 1234567' });
    assert.equal(second.body.result, 'created', 'no match on a number that is not one');
    const lookup = await app.request('GET', '/api/v1/customers/lookup?phone=%2B9991234567', { key: org.keys.live });
    assert.equal(lookup.status, 404);
  });

  const answers: { name: string; fields: Record<string, unknown>; stored?: Record<string, unknown>; mismatch?: string[] }[] = [
    { name: 'an IDN email answer, kept as typed (trimmed)', fields: { altEmail: ' jörg@bücher.de ' }, stored: { altEmail: 'jörg@bücher.de' } },
    { name: 'a UK phone answer with its trunk 0, in E.164', fields: { altEmail: 'a@example.com', altPhone: '+44 (0)20 7946 0958' }, stored: { altEmail: 'a@example.com', altPhone: '+442079460958' } },
    { name: 'a quoted email answer', fields: { altEmail: '"a b"@example.com' }, mismatch: ['altEmail'] },
    { name: 'an email answer without a dot in the domain', fields: { altEmail: 'a@localhost' }, mismatch: ['altEmail'] },
    { name: 'a phone answer of no country', fields: { altEmail: 'a@example.com', altPhone: '+999 1234567' }, mismatch: ['altPhone'] },
  ];
  for (const c of answers) {
    it(`custom field: ${c.name}`, async () => {
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, customFields: c.fields });
      if (c.mismatch) {
        assert.equal(res.status, 400, res.text);
        assert.match(res.body.message, /^CUSTOM_FIELD_VALUE_TYPE_MISMATCH/);
        assert.deepEqual(res.body.keys, c.mismatch);
        return;
      }
      assert.equal(res.status, 201, res.text);
      const read = await app.request('GET', `/api/v1/customers/pu_${res.body.passUserId}`, { key: org.keys.live });
      assert.deepEqual(read.body.customFields, c.stored);
    });
  }

  it('the seed file takes an admin email by the same rule', async () => {
    const [org] = (await app.seedWithAdmins({ orgs: [{ name: 'Bücherei', admins: [{ email: 'chefin@bücher.de', password: 'pw' }] }] })).orgs;
    assert.ok(org!.orgId);
    for (const email of ['owner@localhost', '"owner"@example.com']) {
      assert.throws(
        () => app.seed({ orgs: [{ name: 'Shop', admins: [{ email, password: 'pw' }] }] }),
        (err: unknown) => err instanceof SeedError && err.message === 'orgs[0].admins[0].email: must be an email address such as name@example.com',
      );
    }
  });
});
