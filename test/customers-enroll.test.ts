import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { linkExternalId } from '../src/loyalty/enroll';
import { openDatabase, type Db } from '../src/db/open';
import { customersRepo } from '../src/customers/repo';
import { findCustomerByScanCode } from '../src/customers/secret-codes';
import { findCustomerByInstallCode } from '../src/wallet/install-code';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { count, enroll, eventsOf, insertCustomer, ledgerOf, snapshot } from './support/customers';

describe('POST /v1/customers', () => {
  let app: TestApp;
  let org: StandardOrg;
  let other: StandardOrg;
  let n = 0;
  const uid = (prefix = 'cust') => `${prefix}-${++n}`;
  before(async () => {
    app = await startTestApp({ env: { INSTALL_BASE_URL: 'https://pass.example.com/' } });
    org = seedStandardOrg(app);
    other = seedStandardOrg(app, 'Other shop');
  });
  after(() => app.close());

  it('creates a customer: 201, result created, matchedBy null, linked without a skip reason, a random install code, one customer.enrolled event', async () => {
    const externalCustomerId = uid();
    const res = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.stamps, name: 'Jane', email: 'Jane@Example.com', phone: '+49 170 1234567' });
    assert.equal(res.status, 201, res.text);
    const { passUserId, installUrl, ...rest } = res.body;
    assert.deepEqual(rest, { externalCustomerId, cardId: org.cards.stamps, result: 'created', matchedBy: null, linked: true, status: 'pending_install' });
    assert.ok(!('linkSkippedReason' in res.body), 'absent, not null, when linked');
    const code = new URL(installUrl).searchParams.get('code');
    assert.equal(installUrl, `https://pass.example.com/get-pass/${org.cards.stamps}?code=${code}`);
    assert.ok(code && code.length >= 32 && !code.includes(passUserId), 'the code is its own random token, not the passUserId');

    const events = eventsOf(app.db, passUserId);
    assert.deepEqual(events.map((e) => e.type), ['customer.enrolled']);
    const envelope = events[0]!.envelope;
    assert.deepEqual(envelope.data, { externalCustomerId, passUserId, cardId: org.cards.stamps, source: 'api' });
    assert.equal(envelope.orgId, org.orgId);
    assert.equal(envelope.livemode, true);

    const read = await app.request('GET', `/api/v1/customers/pu_${passUserId}`, { key: org.keys.live });
    assert.equal(read.body.name, 'Jane');
    assert.equal(read.body.email, 'Jane@Example.com');
    assert.equal(read.body.phone, '+49 170 1234567');
    assert.equal(read.body.installUrl, installUrl);
  });

  const openingCases: { name: string; card: keyof StandardOrg['cards']; initialPoints?: number; balance?: unknown; ledger?: number[]; status?: number; message?: RegExp }[] = [
    { name: 'stamps in whole units', card: 'stamps', initialPoints: 3, balance: { stamps: 3 }, ledger: [300] },
    { name: 'no initialPoints: zero and no ledger row', card: 'stamps', balance: { stamps: 0 }, ledger: [] },
    { name: 'zero: no ledger row', card: 'points', initialPoints: 0, balance: { points: 0 }, ledger: [] },
    { name: 'points on a level card reach the tier', card: 'levels', initialPoints: 150, balance: { points: 150, level: 'Silver' }, ledger: [15000] },
    { name: 'store credit takes cents', card: 'prepaid', initialPoints: 12.34, balance: { points: 12.34 }, ledger: [1234] },
    { name: 'store credit 0.29 stays exact', card: 'prepaid', initialPoints: 0.29, balance: { points: 0.29 }, ledger: [29] },
    { name: 'the maximum', card: 'points', initialPoints: 1_000_000_000, balance: { points: 1_000_000_000 }, ledger: [100_000_000_000] },
    { name: 'a fraction on a stamp card', card: 'stamps', initialPoints: 2.5, status: 400, message: /^VALIDATION_FAILED: initialPoints$/ },
    { name: 'a fraction on a point card', card: 'points', initialPoints: 0.1, status: 400, message: /^VALIDATION_FAILED: initialPoints$/ },
    { name: 'a fraction on a level card', card: 'levels', initialPoints: 10.5, status: 400, message: /^VALIDATION_FAILED: initialPoints$/ },
    { name: 'three decimals on store credit', card: 'prepaid', initialPoints: 1.234, status: 400, message: /^VALIDATION_FAILED: initialPoints$/ },
    { name: 'above 1,000,000,000', card: 'points', initialPoints: 1_000_000_001, status: 400, message: /^VALIDATION_FAILED: initialPoints$/ },
    { name: 'negative', card: 'points', initialPoints: -1, status: 400, message: /^VALIDATION_FAILED: initialPoints$/ },
  ];
  for (const c of openingCases) {
    it(`initialPoints: ${c.name}`, async () => {
      const before = snapshot(app.db);
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards[c.card], ...(c.initialPoints !== undefined ? { initialPoints: c.initialPoints } : {}) });
      if (c.status) {
        assert.equal(res.status, c.status, res.text);
        assert.match(res.body.message, c.message!);
        assert.deepEqual(snapshot(app.db), before, 'a refused enroll writes nothing');
        return;
      }
      assert.equal(res.status, 201, res.text);
      const read = await app.request('GET', `/api/v1/customers/pu_${res.body.passUserId}`, { key: org.keys.live });
      assert.deepEqual(read.body.balance, c.balance);
      const rows = ledgerOf(app.db, res.body.passUserId);
      assert.deepEqual(rows.map((r) => r.change), c.ledger);
      for (const r of rows) assert.deepEqual([r.kind, r.balanceAfter, r.isAward, r.source], ['initial', r.change, false, 'api']);
      const stored = customersRepo(app.db).findByPassUserId(res.body.passUserId)!;
      assert.equal(rows.reduce((total, r) => total + r.change, 0), stored.balance, 'balance == sum of the ledger');
      assert.equal(count(app.db, 'events', "customer_id = ? AND type != 'customer.enrolled'", stored.id), 0, 'no balance.updated for the opening balance');
    });
  }

  const bodyCases: { name: string; body: Record<string, unknown>; message: RegExp }[] = [
    { name: 'externalCustomerId is required', body: { cardId: 'x' }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'cardId is required', body: { externalCustomerId: 'a', cardId: undefined }, message: /^VALIDATION_FAILED: cardId$/ },
    { name: 'empty externalCustomerId', body: { externalCustomerId: '' }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: '256 characters', body: { externalCustomerId: 'x'.repeat(256) }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'starting with pu_', body: { externalCustomerId: 'pu_123' }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'starting with email:', body: { externalCustomerId: 'email:a@b.c' }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'starting with phone:', body: { externalCustomerId: 'phone:+4917012345' }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'a number as externalCustomerId', body: { externalCustomerId: 42 }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'unknown fields are named', body: { externalCustomerId: 'a', balance: 5, status: 'installed' }, message: /^VALIDATION_FAILED: balance, status$/ },
    { name: 'customFields must be an object', body: { externalCustomerId: 'a', customFields: ['memberNo'] }, message: /^VALIDATION_FAILED: customFields$/ },
    { name: 'initialPoints must be a number', body: { externalCustomerId: 'a', initialPoints: '5' }, message: /^VALIDATION_FAILED: initialPoints$/ },
  ];
  for (const c of bodyCases) {
    it(`400: ${c.name}`, async () => {
      const before = snapshot(app.db);
      const res = await enroll(app, org.keys.live, { cardId: org.cards.stamps, ...c.body });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, c.message);
      assert.ok(Array.isArray(res.body.issues));
      assert.deepEqual(snapshot(app.db), before);
    });
  }

  it('makes wholly random install and scan codes, each finding its own customer', async () => {
    const made: { passUserId: string; installCode: string; scanCode: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps });
      assert.equal(res.status, 201, res.text);
      const stored = customersRepo(app.db).findByPassUserId(res.body.passUserId)!;
      assert.equal(new URL(res.body.installUrl).searchParams.get('code'), stored.installCode);
      made.push({ passUserId: stored.id, installCode: stored.installCode, scanCode: stored.scanCode });
    }
    for (const c of made) {
      // 32 base62 symbols; after the 8 the index is searched by, 142 bits are compared in constant time.
      assert.match(c.installCode, /^[0-9A-Za-z]{32}$/);
      assert.match(c.scanCode, /^[0-9A-Za-z]{32}$/);
      assert.equal(findCustomerByInstallCode(app.db, c.installCode, org.cards.stamps)?.id, c.passUserId);
      assert.equal(findCustomerByScanCode(app.db, c.scanCode)?.id, c.passUserId);
      assert.equal(findCustomerByScanCode(app.db, c.installCode), undefined, 'an install code is not a scan code');
    }
    // Codes made in the same second no longer share a leading time part.
    assert.equal(new Set(made.map((c) => c.installCode.slice(0, 6))).size, made.length);
    assert.equal(new Set(made.map((c) => c.scanCode.slice(0, 6))).size, made.length);
  });

  it('accepts an externalCustomerId of 255 characters, and one that only contains a reserved prefix later', async () => {
    for (const id of ['y'.repeat(255), 'a-pu_1', 'PU_upper-is-not-a-ref']) {
      const res = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.externalCustomerId, id);
    }
  });

  it('counts externalCustomerId in characters, not UTF-16 units: 255 emoji or supplementary CJK are accepted and readable by ref', async () => {
    for (const id of ['🙂'.repeat(255), `${'𠀀'.repeat(200)}-${n}`]) {
      const res = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps });
      assert.equal(res.status, 201, res.text);
      const read = await app.request('GET', `/api/v1/customers/${encodeURIComponent(id)}`, { key: org.keys.live });
      assert.deepEqual([read.status, read.body.passUserId], [200, res.body.passUserId]);
    }
    const tooLong = await enroll(app, org.keys.live, { externalCustomerId: '🙂'.repeat(256), cardId: org.cards.stamps });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.message, /^VALIDATION_FAILED: externalCustomerId$/);
    const patched = await app.request('PATCH', `/api/v1/customers/${encodeURIComponent('🙂'.repeat(255))}`, { key: org.keys.live, body: { externalCustomerId: '🙃'.repeat(255) } });
    assert.deepEqual([patched.status, patched.body.updated], [200, ['externalCustomerId']]);
  });

  describe('matching', () => {
    it('a repeat enroll with the same externalCustomerId returns the same customer unchanged: no reset, no second event, name/email/phone not written', async () => {
      const externalCustomerId = uid();
      const first = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.points, name: 'Ann', initialPoints: 40 });
      const before = snapshot(app.db);
      const again = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.points, name: 'Changed', email: 'new@example.com', phone: '+441234567890', initialPoints: 999 });
      assert.equal(again.status, 201);
      assert.deepEqual(again.body, { ...first.body, result: 'matched', matchedBy: 'externalCustomerId' });
      assert.deepEqual(snapshot(app.db), before, 'nothing written: no reset, no new pass, no event');
      const read = await app.request('GET', `/api/v1/customers/${externalCustomerId}`, { key: org.keys.live });
      assert.deepEqual([read.body.name, read.body.email, read.body.phone, read.body.balance], ['Ann', null, null, { points: 40 }]);
    });

    it('matches by email (trimmed, any case) among the card’s customers and attaches the sent id', async () => {
      const anon = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, email: 'walkin@example.com' });
      const externalCustomerId = uid();
      const res = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.stamps, email: '  WalkIn@Example.COM ', name: 'Not written', initialPoints: 7 });
      assert.equal(res.status, 201);
      assert.deepEqual([res.body.passUserId, res.body.result, res.body.matchedBy, res.body.linked, res.body.externalCustomerId], [anon.id, 'matched', 'email', true, externalCustomerId]);
      assert.ok(!('linkSkippedReason' in res.body));
      const read = await app.request('GET', `/api/v1/customers/${externalCustomerId}`, { key: org.keys.live });
      assert.deepEqual([read.body.passUserId, read.body.name, read.body.balance], [anon.id, null, { stamps: 0 }], 'found by the new id; nothing else written');
      assert.equal(count(app.db, 'events', 'customer_id = ?', anon.id), 0, 'no customer.enrolled on a match');
    });

    it('matches by phone when email is absent or matches nobody; the phone may carry spaces and dashes', async () => {
      const anon = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, phone: '+447700900123' });
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email: 'nobody@example.com', phone: '+44 7700-900 123' });
      assert.deepEqual([res.status, res.body.passUserId, res.body.matchedBy, res.body.linked], [201, anon.id, 'phone', true]);
    });

    it('email wins over phone when both match different customers', async () => {
      const byEmail = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, email: 'first@example.com' });
      insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, phone: '+447700900999' });
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email: 'first@example.com', phone: '+447700900999' });
      assert.deepEqual([res.body.passUserId, res.body.matchedBy], [byEmail.id, 'email']);
    });

    it('externalCustomerId wins over email', async () => {
      const externalCustomerId = uid();
      const owner = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.stamps });
      insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, email: 'someone@example.com' });
      const res = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.stamps, email: 'someone@example.com' });
      assert.deepEqual([res.body.passUserId, res.body.matchedBy], [owner.body.passUserId, 'externalCustomerId']);
    });

    it('email and phone match only on the named card: the same person on another card is a new customer', async () => {
      const onStamps = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email: 'twocards@example.com', phone: '+15555550100' });
      const onPoints = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.points, email: 'twocards@example.com', phone: '+15555550100' });
      assert.equal(onPoints.body.result, 'created');
      assert.notEqual(onPoints.body.passUserId, onStamps.body.passUserId);
    });

    it('a national-format phone never matches and is no error', async () => {
      const first = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, phone: '0170 1234567' });
      const second = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, phone: '0170 1234567' });
      assert.deepEqual([first.status, second.status, second.body.result], [201, 201, 'created']);
      assert.notEqual(second.body.passUserId, first.body.passUserId);
      assert.equal(customersRepo(app.db).findByPassUserId(first.body.passUserId)!.phoneNorm, null);
    });

    it('linked: false with already_has_external_id when the matched customer carries another id; the response shows the id it carries', async () => {
      const keptId = uid();
      const owner = await enroll(app, org.keys.live, { externalCustomerId: keptId, cardId: org.cards.stamps, email: 'carrier@example.com' });
      const before = snapshot(app.db);
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email: 'carrier@example.com' });
      assert.equal(res.status, 201);
      assert.deepEqual(
        [res.body.passUserId, res.body.result, res.body.matchedBy, res.body.linked, res.body.linkSkippedReason, res.body.externalCustomerId],
        [owner.body.passUserId, 'matched', 'email', false, 'already_has_external_id', keptId],
      );
      assert.deepEqual(snapshot(app.db), before);
    });

    it('linked: false with external_id_taken when the sent id is on another customer (service level: only a race reaches it over HTTP)', () => {
      // Enroll resolves by externalCustomerId first, so over HTTP the holder of the sent id would be
      // the match (or a 409). Two enrolls racing on a multi-writer store could still meet here;
      // SQLite serialises writes, so the prepared state is built directly.
      const holder = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, externalId: 'race-held-id' });
      const matched = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.stamps, email: 'race@example.com' });
      const before = snapshot(app.db);
      const outcome = app.db.transaction(() => linkExternalId(app.deps, { orgId: org.orgId, livemode: true }, matched, 'race-held-id'))();
      assert.deepEqual(outcome, { linked: false, reason: 'external_id_taken' });
      assert.deepEqual(snapshot(app.db), before);
      assert.equal(customersRepo(app.db).findByPassUserId(holder.id)!.externalId, 'race-held-id');
    });

    it('customFields are written on a match (merged into the stored answers)', async () => {
      const externalCustomerId = uid();
      await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.stamps, customFields: { memberNo: 1, size: 'S' } });
      const res = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.stamps, customFields: { SIZE: 'L', nickname: 'JJ' } });
      assert.equal(res.body.result, 'matched');
      const read = await app.request('GET', `/api/v1/customers/${externalCustomerId}`, { key: org.keys.live });
      assert.deepEqual(read.body.customFields, { memberNo: 1, size: 'L', nickname: 'JJ' });
    });
  });

  describe('refusals write nothing', () => {
    const cases: { name: string; body: (o: StandardOrg) => Record<string, unknown>; key?: (o: StandardOrg) => string; status: number; check: (body: any) => void }[] = [
      { name: 'unknown card: 404 CARD_NOT_FOUND', body: () => ({ externalCustomerId: 'r1', cardId: 'card_doesNotExist' }), status: 404, check: (b) => assert.match(b.message, /^CARD_NOT_FOUND/) },
      { name: 'another org’s card: 403 CARD_NOT_IN_ORG', body: () => ({ externalCustomerId: 'r2', cardId: other.cards.stamps }), status: 403, check: (b) => assert.match(b.message, /^CARD_NOT_IN_ORG/) },
      { name: 'read-only key: 403 Missing scope(s)', key: (o) => o.keys.reader, body: (o) => ({ externalCustomerId: 'r3', cardId: o.cards.stamps }), status: 403, check: (b) => assert.equal(b.message, 'Missing scope(s): customers:write') },
      { name: 'a bad custom field', body: (o) => ({ externalCustomerId: 'r4', cardId: o.cards.stamps, customFields: { shoeSize: 44 } }), status: 400, check: (b) => assert.equal(b.message, 'UNKNOWN_CUSTOM_FIELDS: shoeSize') },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const before = snapshot(app.db);
        const res = await enroll(app, (c.key ?? ((o) => o.keys.live))(org), c.body(org));
        assert.equal(res.status, c.status, res.text);
        c.check(res.body);
        assert.deepEqual(snapshot(app.db), before);
      });
    }

    it('409 EXTERNAL_ID_ON_OTHER_CARD names the card and passUserId that hold the id', async () => {
      const externalCustomerId = uid();
      const owner = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.stamps });
      const before = snapshot(app.db);
      const res = await enroll(app, org.keys.live, { externalCustomerId, cardId: org.cards.points, customFields: {}, initialPoints: 5 });
      assert.equal(res.status, 409);
      assert.equal(res.body.error, 'Conflict');
      assert.match(res.body.message, /^EXTERNAL_ID_ON_OTHER_CARD/);
      assert.deepEqual([res.body.cardId, res.body.passUserId], [org.cards.stamps, owner.body.passUserId]);
      assert.deepEqual(snapshot(app.db), before);
    });

    it('409 AMBIGUOUS_CUSTOMER_MATCH when the email matches several customers of the card, with masked candidates', async () => {
      const a = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, email: 'shared@example.com' });
      const b = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.levels, email: 'Shared@example.com' });
      const before = snapshot(app.db);
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.levels, email: 'shared@example.com', customFields: {} });
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, {
        statusCode: 409,
        error: 'Conflict',
        message: 'AMBIGUOUS_CUSTOMER_MATCH',
        matchedBy: 'email',
        candidates: [{ passUserId: a.id, contact: 's***d@example.com' }, { passUserId: b.id, contact: 'S***d@example.com' }],
      });
      assert.deepEqual(snapshot(app.db), before);
    });

    it('409 AMBIGUOUS_CUSTOMER_MATCH on phone, masked', async () => {
      insertCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, phone: '+4915112345678' });
      insertCustomer(app, { orgId: org.orgId, cardId: org.cards.prepaid, phone: '+49 151 12345678' });
      const before = snapshot(app.db);
      const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.prepaid, phone: '+4915112345678' });
      assert.equal(res.status, 409);
      assert.equal(res.body.matchedBy, 'phone');
      assert.deepEqual(res.body.candidates.map((c: { contact: string }) => c.contact), ['+49********678', '+49********678']);
      assert.deepEqual(snapshot(app.db), before);
    });
  });
});

describe('POST /v1/customers wakes the delivery worker after the commit', () => {
  let app: TestApp;
  let org: StandardOrg;
  let reader: Db;
  const seenAtWake: number[] = [];
  before(async () => {
    app = await startTestApp({
      afterCommit: {
        // A second connection sees committed rows only: a wake before the commit would count too few.
        eventsWritten: () => seenAtWake.push(count(reader, 'events')),
      },
    });
    reader = openDatabase(app.config.dbFile);
    org = seedStandardOrg(app);
  });
  after(async () => {
    reader.close();
    await app.close();
  });

  for (const withKey of [false, true]) {
    it(`once per created customer, with the event committed (${withKey ? 'with' : 'without'} an Idempotency-Key)`, async () => {
      seenAtWake.length = 0;
      const id = `wake-${withKey}`;
      await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps }, withKey ? `key-${id}` : undefined);
      assert.deepEqual(seenAtWake, [count(app.db, 'events')]);
      await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps });
      assert.equal(seenAtWake.length, 1, 'a match writes no event and wakes nobody');
    });
  }
});
