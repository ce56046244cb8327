import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { enroll, insertCustomer, snapshot } from './support/customers';

describe('reading customers: refs, GET /v1/customers/{ref}, GET /v1/customers/lookup', () => {
  let app: TestApp;
  let org: StandardOrg;
  let jane: any;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    const res = await enroll(app, org.keys.live, {
      externalCustomerId: 'jane-1', cardId: org.cards.levels, name: 'Jane Doe', email: 'Jane.Doe@Example.com', phone: '+49 170 1234567',
      initialPoints: 120, customFields: {},
    });
    jane = res.body;
    // Same email on two cards (allowed: email matching is per card) makes `email:` ambiguous across the org.
    await enroll(app, org.keys.live, { externalCustomerId: 'twin-a', cardId: org.cards.stamps, email: 'twin@example.com', phone: '+441632960001' });
    await enroll(app, org.keys.live, { externalCustomerId: 'twin-b', cardId: org.cards.points, email: 'twin@example.com', phone: '+441632960001' });
    // A customer whose national-format phone normalised to nothing.
    await enroll(app, org.keys.live, { externalCustomerId: 'national', cardId: org.cards.stamps, phone: '0170 7654321' });
  });
  after(() => app.close());

  it('answers the customer resource: ids, card type, balance, install state and link, plus nextReward, status, name, email, phone, customFields, livemode, createdAt', async () => {
    const res = await app.request('GET', '/api/v1/customers/jane-1', { key: org.keys.live });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      externalCustomerId: 'jane-1',
      passUserId: jane.passUserId,
      cardId: org.cards.levels,
      cardType: 'level_card',
      balance: { points: 120, level: 'Silver' },
      nextReward: null,
      installed: false,
      installUrl: jane.installUrl,
      status: 'pending_install',
      name: 'Jane Doe',
      email: 'Jane.Doe@Example.com',
      phone: '+49 170 1234567',
      customFields: {},
      livemode: true,
      createdAt: new Date(app.clock.now()).toISOString(),
      expiring: null,
    });
  });

  it('shapes the balance per card type', async () => {
    const shapes: [keyof StandardOrg['cards'], unknown][] = [['stamps', { stamps: 2 }], ['points', { points: 2 }], ['levels', { points: 2, level: 'Bronze' }], ['prepaid', { points: 2 }]];
    for (const [card, balance] of shapes) {
      const created = await enroll(app, org.keys.live, { externalCustomerId: `shape-${card}`, cardId: org.cards[card], initialPoints: 2 });
      const res = await app.request('GET', `/api/v1/customers/pu_${created.body.passUserId}`, { key: org.keys.live });
      assert.deepEqual([res.body.cardType, res.body.balance], [card === 'stamps' ? 'stamp_card' : card === 'points' ? 'point_card' : card === 'levels' ? 'level_card' : 'prepaid_card', balance]);
    }
  });

  const refCases: { name: string; ref: () => string; status: number; passUserId?: () => string; message?: RegExp }[] = [
    { name: 'externalCustomerId', ref: () => 'jane-1', status: 200, passUserId: () => jane.passUserId },
    { name: 'pu_<passUserId>', ref: () => `pu_${jane.passUserId}`, status: 200, passUserId: () => jane.passUserId },
    { name: 'email:, any case', ref: () => 'email:JANE.DOE@example.com', status: 200, passUserId: () => jane.passUserId },
    { name: 'email: with the @ percent-encoded', ref: () => 'email:jane.doe%40example.com', status: 200, passUserId: () => jane.passUserId },
    { name: 'phone: with + as %2B', ref: () => 'phone:%2B491701234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'phone: with a literal +', ref: () => 'phone:+491701234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'phone: with + decoded to a space (%20)', ref: () => 'phone:%20491701234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'phone: with spaces and dashes', ref: () => 'phone:%2B49%20170-123%204567', status: 200, passUserId: () => jane.passUserId },
    { name: 'phone: written (+49) with the + decoded to a space', ref: () => 'phone:(%2049)%20170%201234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'phone: written +(49) with the + decoded to a space', ref: () => 'phone:%20(49)%20170%201234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'unknown externalCustomerId', ref: () => 'nobody', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'unknown pu_', ref: () => 'pu_doesNotExist', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'pu_ of an externalCustomerId is not a passUserId', ref: () => 'pu_jane-1', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'the passUserId without pu_ is not an externalCustomerId', ref: () => jane.passUserId, status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'unknown email:', ref: () => 'email:nobody@example.com', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'unknown phone:', ref: () => 'phone:%2B15550000000', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'a national-format phone: never matches', ref: () => 'phone:01707654321', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'email: shared across two cards is ambiguous', ref: () => 'email:twin@example.com', status: 409, message: /^AMBIGUOUS_CUSTOMER_MATCH$/ },
    { name: 'phone: shared across two cards is ambiguous', ref: () => 'phone:%2B441632960001', status: 409, message: /^AMBIGUOUS_CUSTOMER_MATCH$/ },
  ];
  for (const c of refCases) {
    for (const method of ['GET', 'PATCH'] as const) {
      it(`${method} ref ${c.name}: ${c.status}`, async () => {
        const before = snapshot(app.db);
        const res = await app.request(method, `/api/v1/customers/${c.ref()}`, { key: org.keys.live, ...(method === 'PATCH' ? { body: {} } : {}) });
        assert.equal(res.status, c.status, res.text);
        if (c.passUserId) assert.equal(res.body.passUserId, c.passUserId());
        if (c.message) {
          assert.match(res.body.message, c.message);
          assert.deepEqual(snapshot(app.db), before, 'nothing written');
        }
      });
    }
  }

  it('409 across cards lists every candidate with a masked contact', async () => {
    const a = await app.request('GET', '/api/v1/customers/twin-a', { key: org.keys.live });
    const b = await app.request('GET', '/api/v1/customers/twin-b', { key: org.keys.live });
    const res = await app.request('GET', '/api/v1/customers/email:twin@example.com', { key: org.keys.live });
    assert.deepEqual(res.body, {
      statusCode: 409,
      error: 'Conflict',
      message: 'AMBIGUOUS_CUSTOMER_MATCH',
      matchedBy: 'email',
      candidates: [{ passUserId: a.body.passUserId, contact: 't***n@example.com' }, { passUserId: b.body.passUserId, contact: 't***n@example.com' }],
    });
    const byPhone = await app.request('GET', '/api/v1/customers/lookup?phone=%2B441632960001', { key: org.keys.live });
    assert.deepEqual(byPhone.body.candidates.map((x: { contact: string }) => x.contact), ['+44*******001', '+44*******001']);
  });

  const lookupCases: { name: string; query: string; status: number; passUserId?: () => string; message?: RegExp }[] = [
    { name: 'by email', query: 'email=jane.doe%40example.com', status: 200, passUserId: () => jane.passUserId },
    { name: 'by email with spaces and capitals', query: 'email=%20JANE.DOE%40EXAMPLE.COM%20', status: 200, passUserId: () => jane.passUserId },
    { name: 'by phone with + as %2B', query: 'phone=%2B491701234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'by phone with a raw + (decoded as a space)', query: 'phone=+491701234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'by phone written (+49) with a raw +', query: 'phone=(+49)+170+1234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'email first: it matches, phone is not consulted', query: 'email=jane.doe%40example.com&phone=%2B441632960001', status: 200, passUserId: () => jane.passUserId },
    { name: 'phone when email matches nobody', query: 'email=nobody%40example.com&phone=%2B491701234567', status: 200, passUserId: () => jane.passUserId },
    { name: 'an ambiguous email is 409, not a fall-through to phone', query: 'email=twin%40example.com&phone=%2B491701234567', status: 409, message: /^AMBIGUOUS_CUSTOMER_MATCH$/ },
    { name: 'nobody', query: 'email=nobody%40example.com', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'a national-format phone never matches', query: 'phone=01707654321', status: 404, message: /^CUSTOMER_NOT_FOUND/ },
    { name: 'neither', query: '', status: 400, message: /^EMAIL_OR_PHONE_REQUIRED/ },
    { name: 'both blank', query: 'email=&phone=', status: 400, message: /^EMAIL_OR_PHONE_REQUIRED/ },
    { name: 'repeated email', query: 'email=a%40b.c&email=d%40e.f', status: 400, message: /^EMAIL_MUST_BE_A_SINGLE_VALUE/ },
    { name: 'repeated phone', query: 'phone=%2B491701234567&phone=%2B491701234567', status: 400, message: /^PHONE_MUST_BE_A_SINGLE_VALUE/ },
    { name: 'repeated phone with a single email', query: 'email=jane.doe%40example.com&phone=1&phone=2', status: 400, message: /^PHONE_MUST_BE_A_SINGLE_VALUE/ },
    { name: 'takes no cardId', query: `email=jane.doe%40example.com&cardId=x`, status: 400, message: /^VALIDATION_FAILED: cardId$/ },
  ];
  for (const c of lookupCases) {
    it(`lookup ${c.name}: ${c.status}`, async () => {
      const before = snapshot(app.db);
      const res = await app.request('GET', `/api/v1/customers/lookup${c.query ? `?${c.query}` : ''}`, { key: org.keys.live });
      assert.equal(res.status, c.status, res.text);
      if (c.passUserId) {
        const direct = await app.request('GET', `/api/v1/customers/pu_${c.passUserId()}`, { key: org.keys.live });
        assert.deepEqual(res.body, direct.body, 'the same resource as GET /v1/customers/{ref}');
      }
      if (c.message) assert.match(res.body.message, c.message);
      assert.deepEqual(snapshot(app.db), before, 'a lookup never writes');
    });
  }

  it('/lookup wins over /:ref even for a customer whose externalCustomerId is "lookup"', async () => {
    await enroll(app, org.keys.live, { externalCustomerId: 'lookup', cardId: org.cards.stamps });
    const res = await app.request('GET', '/api/v1/customers/lookup', { key: org.keys.live });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /^EMAIL_OR_PHONE_REQUIRED/);
  });

  it('reads need customers:read; a key with only that scope may read', async () => {
    const reader = await app.request('GET', '/api/v1/customers/jane-1', { key: org.keys.reader });
    assert.equal(reader.status, 200);
    const noScopeOrg = app.seed({ orgs: [{ name: 'Scoped', keys: [{ deviceName: 'cards-only', scopes: ['cards:read'] }] }] }).orgs[0]!;
    for (const path of ['/api/v1/customers/jane-1', '/api/v1/customers/lookup?email=a%40b.c']) {
      const res = await app.request('GET', path, { key: noScopeOrg.keys[0]!.key });
      assert.equal(res.status, 403);
      assert.equal(res.body.message, 'Missing scope(s): customers:read');
    }
  });

  it('an ambiguous match in the database, on one card, is also 409 through a ref', async () => {
    insertCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, email: 'dup@example.com' });
    insertCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, email: 'dup@example.com' });
    const res = await app.request('GET', '/api/v1/customers/email:dup@example.com', { key: org.keys.live });
    assert.equal(res.status, 409);
    assert.equal(res.body.candidates.length, 2);
  });
});
