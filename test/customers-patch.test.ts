import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { enroll, snapshot } from './support/customers';

describe('PATCH /v1/customers/{ref} and custom fields', () => {
  let app: TestApp;
  let org: StandardOrg;
  let n = 0;
  const uid = () => `p-${++n}`;
  const patch = (ref: string, body: unknown) => app.request('PATCH', `/api/v1/customers/${ref}`, { key: org.keys.live, body });
  const read = (ref: string) => app.request('GET', `/api/v1/customers/${ref}`, { key: org.keys.live });
  const newStampCustomer = async (customFields: Record<string, unknown> = {}) => {
    const id = uid();
    const res = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps, customFields });
    assert.equal(res.status, 201, res.text);
    return { id, passUserId: res.body.passUserId as string };
  };
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  describe('externalCustomerId', () => {
    it('sets a new id: updated lists it, and the customer answers to the new id only', async () => {
      const c = await newStampCustomer();
      const res = await patch(c.id, { externalCustomerId: 'renamed-1' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { passUserId: c.passUserId, externalCustomerId: 'renamed-1', cardId: org.cards.stamps, updated: ['externalCustomerId'] });
      assert.equal((await read('renamed-1')).body.passUserId, c.passUserId);
      assert.equal((await read(c.id)).status, 404);
    });

    it('the id the customer already carries writes nothing and lists nothing', async () => {
      const c = await newStampCustomer();
      const before = snapshot(app.db);
      app.clock.advance(1000);
      const res = await patch(`pu_${c.passUserId}`, { externalCustomerId: c.id });
      assert.deepEqual([res.status, res.body.updated, res.body.externalCustomerId], [200, [], c.id]);
      assert.deepEqual(snapshot(app.db), before, 'not even updated_at moves');
    });

    it('409 EXTERNAL_ID_TAKEN when another customer (any card) holds the id; nothing written, customFields included', async () => {
      const holder = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.points });
      const c = await newStampCustomer();
      const before = snapshot(app.db);
      const res = await patch(c.id, { externalCustomerId: holder.body.externalCustomerId, customFields: { nickname: 'changed' } });
      assert.equal(res.status, 409);
      assert.match(res.body.message, /^EXTERNAL_ID_TAKEN/);
      assert.equal(res.body.error, 'Conflict');
      assert.deepEqual(snapshot(app.db), before);
    });

    it('a customer without an id (counter or sign-up) gets one through PATCH', async () => {
      const anon = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, email: 'anon@example.com' });
      const res = await patch('email:anon@example.com', { externalCustomerId: 'now-known' });
      assert.deepEqual([res.body.passUserId, res.body.updated], [anon.body.passUserId, ['externalCustomerId']]);
    });
  });

  const bodyCases: { name: string; body: unknown; message: RegExp }[] = [
    { name: 'name, email and phone are refused and all named', body: { name: 'x', email: 'a@b.c', phone: '+4917012345678' }, message: /^VALIDATION_FAILED: name, email, phone$/ },
    { name: 'one of them beside an accepted field', body: { externalCustomerId: 'ok-id', email: 'a@b.c' }, message: /^VALIDATION_FAILED: email$/ },
    { name: 'any other field', body: { balance: 10 }, message: /^VALIDATION_FAILED: balance$/ },
    { name: 'an externalCustomerId starting with pu_', body: { externalCustomerId: 'pu_x' }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'an empty externalCustomerId', body: { externalCustomerId: '' }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'a null externalCustomerId', body: { externalCustomerId: null }, message: /^VALIDATION_FAILED: externalCustomerId$/ },
    { name: 'customFields as a string', body: { customFields: 'memberNo=1' }, message: /^VALIDATION_FAILED: customFields$/ },
    { name: 'a JSON array body', body: [], message: /^VALIDATION_FAILED/ },
  ];
  for (const c of bodyCases) {
    it(`400: ${c.name}`, async () => {
      const customer = await newStampCustomer();
      const before = snapshot(app.db);
      const res = await patch(customer.id, c.body);
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, c.message);
      assert.deepEqual(snapshot(app.db), before);
    });
  }

  it('customFields: written and merged into the stored answers; updated lists customFields', async () => {
    const c = await newStampCustomer({ memberNo: 7, size: 'S' });
    const res = await patch(c.id, { customFields: { size: 'L', newsletter: true } });
    assert.deepEqual(res.body.updated, ['customFields']);
    assert.deepEqual((await read(c.id)).body.customFields, { memberNo: 7, size: 'L', newsletter: true });
  });

  it('customFields equal to the stored answers write nothing and list nothing', async () => {
    const c = await newStampCustomer({ memberNo: 7, size: 'S' });
    const before = snapshot(app.db);
    app.clock.advance(1000);
    const res = await patch(c.id, { customFields: { MEMBERNO: '7', SIZE: 'S' }, externalCustomerId: c.id });
    assert.deepEqual(res.body.updated, []);
    assert.deepEqual(snapshot(app.db), before);
  });

  it('both fields at once list both', async () => {
    const c = await newStampCustomer();
    const res = await patch(c.id, { externalCustomerId: uid(), customFields: { nickname: 'Jo' } });
    assert.deepEqual(res.body.updated, ['externalCustomerId', 'customFields']);
  });

  // Canonical values: read back keyed by the question's own key, typed per question.
  const accepted: { name: string; sent: Record<string, unknown>; stored: Record<string, unknown> }[] = [
    { name: 'keys match case-insensitively and are stored under the question’s key', sent: { MEMBERNO: 12, Nickname: 'Jo' }, stored: { memberNo: 12, nickname: 'Jo' } },
    { name: 'number from a number', sent: { memberNo: -1.5 }, stored: { memberNo: -1.5 } },
    { name: 'number from digits in a string, as a form sends them', sent: { memberNo: ' 0042 ' }, stored: { memberNo: 42 } },
    { name: 'select by the option value', sent: { size: 'L' }, stored: { size: 'L' } },
    { name: 'text keeps a string as is', sent: { nickname: '  spaced  ' }, stored: { nickname: '  spaced  ' } },
    { name: 'text takes a number as its string', sent: { nickname: 7 }, stored: { nickname: '7' } },
    { name: 'email, trimmed', sent: { altEmail: ' Jo@Example.com ' }, stored: { altEmail: 'Jo@Example.com' } },
    { name: 'phone, normalised to E.164', sent: { altPhone: '+44 (20) 7946-0958' }, stored: { altPhone: '+442079460958' } },
    { name: 'phone, surrounding spaces ignored', sent: { altPhone: ' +44 20 7946 0958 ' }, stored: { altPhone: '+442079460958' } },
    { name: 'date, a real day', sent: { birthday: '2024-02-29' }, stored: { birthday: '2024-02-29' } },
    { name: 'date, a real day before the year 100', sent: { birthday: '0096-02-29' }, stored: { birthday: '0096-02-29' } },
    { name: 'checkbox true and false', sent: { newsletter: false }, stored: { newsletter: false } },
    { name: 'an empty object writes nothing', sent: {}, stored: {} },
  ];
  for (const c of accepted) {
    for (const via of ['enroll', 'PATCH'] as const) {
      it(`custom field accepted via ${via}: ${c.name}`, async () => {
        let ref: string;
        if (via === 'enroll') ref = (await newStampCustomer(c.sent)).id;
        else {
          ref = (await newStampCustomer()).id;
          const res = await patch(ref, { customFields: c.sent });
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(res.body.updated, Object.keys(c.sent).length ? ['customFields'] : []);
        }
        assert.deepEqual((await read(ref)).body.customFields, c.stored);
      });
    }
  }

  // One 400 naming every bad key of the first failing category; the precedence is
  // reserved → unknown → duplicate → non-scalar → type mismatch (documented in custom-fields.ts).
  const refused: { name: string; sent: Record<string, unknown>; message: string; keys?: string[] }[] = [
    { name: 'reserved keys in any case', sent: { name: 'x', EMAIL: 'a@b.c', Phone: '1', status: 'x', custom: 1, memberNo: 1 }, message: 'RESERVED_CUSTOM_FIELDS: name, EMAIL, Phone, status, custom', keys: ['name', 'EMAIL', 'Phone', 'status', 'custom'] },
    { name: 'reserved wins over unknown and bad values', sent: { shoe: 1, Status: null, memberNo: 'abc' }, message: 'RESERVED_CUSTOM_FIELDS: Status' },
    { name: 'unknown keys', sent: { shoe: 44, hat: 'L', memberNo: 1 }, message: 'UNKNOWN_CUSTOM_FIELDS: shoe, hat', keys: ['shoe', 'hat'] },
    { name: 'unknown wins over bad values', sent: { shoe: 44, memberNo: null, size: 'XXL' }, message: 'UNKNOWN_CUSTOM_FIELDS: shoe' },
    // Keys a JavaScript object treats specially are still just keys: named like any other.
    { name: 'unknown keys that are Object.prototype names', sent: JSON.parse('{"constructor":1,"toString":"x","prototype":true}'), message: 'UNKNOWN_CUSTOM_FIELDS: constructor, toString, prototype', keys: ['constructor', 'toString', 'prototype'] },
    { name: 'two keys for one question', sent: { size: 'S', SIZE: 'L' }, message: 'VALIDATION_FAILED: customFields.SIZE' },
    { name: 'null, objects and arrays are not scalars', sent: { memberNo: null, nickname: { a: 1 }, size: ['S'], newsletter: true }, message: 'INVALID_CUSTOM_FIELD_VALUES: memberNo, nickname, size (expected a string, number or boolean)', keys: ['memberNo', 'nickname', 'size'] },
    { name: 'non-scalar wins over mismatch', sent: { memberNo: 'abc', nickname: null }, message: 'INVALID_CUSTOM_FIELD_VALUES: nickname (expected a string, number or boolean)' },
    {
      name: 'every type mismatch, named together in the order sent',
      sent: { memberNo: 'twelve', size: 'XL', birthday: '2023-02-29', newsletter: 'yes', altEmail: 'not-an-email', altPhone: '0170 1234567', nickname: true },
      message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: memberNo, size, birthday, newsletter, altEmail, altPhone, nickname (value does not match the field's declared type)",
      keys: ['memberNo', 'size', 'birthday', 'newsletter', 'altEmail', 'altPhone', 'nickname'],
    },
    { name: 'number: a boolean', sent: { memberNo: true }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: memberNo (value does not match the field's declared type)" },
    { name: 'number: digits with letters', sent: { memberNo: '12a' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: memberNo (value does not match the field's declared type)" },
    { name: 'number: an empty string', sent: { memberNo: '' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: memberNo (value does not match the field's declared type)" },
    // Digits only, but past the largest number: Number() gives Infinity, which JSON would store as null.
    { name: 'number: digits beyond the range of a number', sent: { memberNo: '9'.repeat(400) }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: memberNo (value does not match the field's declared type)" },
    { name: 'select: a label is not a value', sent: { size: 'Small' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: size (value does not match the field's declared type)" },
    // A value must EQUAL an option's value; the key, not the value, is case-insensitive.
    { name: 'select: the value in another case', sent: { size: 'l' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: size (value does not match the field's declared type)" },
    { name: 'select: the value with spaces around it', sent: { size: ' S ' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: size (value does not match the field's declared type)" },
    { name: 'select: a boolean', sent: { size: true }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: size (value does not match the field's declared type)" },
    { name: 'date: not YYYY-MM-DD', sent: { birthday: '01.02.2000' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: birthday (value does not match the field's declared type)" },
    { name: 'date: month 13', sent: { birthday: '2000-13-01' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: birthday (value does not match the field's declared type)" },
    { name: 'date: 29 February of a common year before 100', sent: { birthday: '0097-02-29' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: birthday (value does not match the field's declared type)" },
    { name: 'date: day 0', sent: { birthday: '2024-01-00' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: birthday (value does not match the field's declared type)" },
    { name: 'date: a number', sent: { birthday: 20000101 }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: birthday (value does not match the field's declared type)" },
    { name: 'checkbox: 1', sent: { newsletter: 1 }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: newsletter (value does not match the field's declared type)" },
    { name: 'checkbox: "true"', sent: { newsletter: 'true' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: newsletter (value does not match the field's declared type)" },
    { name: 'email: a number', sent: { altEmail: 5 }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: altEmail (value does not match the field's declared type)" },
    { name: 'phone: too short', sent: { altPhone: '+12345' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: altPhone (value does not match the field's declared type)" },
    // The "leading space is a + that a query string decoded" rule is for URLs, never for a JSON value.
    { name: 'phone: a national number with a stray leading space is not made E.164', sent: { altPhone: ' 0170 1234567' }, message: "CUSTOM_FIELD_VALUE_TYPE_MISMATCH: altPhone (value does not match the field's declared type)" },
  ];
  for (const c of refused) {
    for (const via of ['enroll', 'PATCH'] as const) {
      it(`custom field refused via ${via}: ${c.name}`, async () => {
        const existing = via === 'PATCH' ? await newStampCustomer({ memberNo: 1 }) : undefined;
        const before = snapshot(app.db);
        const res = existing ? await patch(existing.id, { customFields: c.sent }) : await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps, customFields: c.sent });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.message, c.message);
        assert.equal(res.body.statusCode, 400);
        if (c.keys) assert.deepEqual(res.body.keys, c.keys);
        assert.deepEqual(snapshot(app.db), before, 'nothing written');
      });
    }
  }

  it('a card without questions takes no custom fields', async () => {
    const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.points, customFields: { memberNo: 1 } });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'UNKNOWN_CUSTOM_FIELDS: memberNo');
  });

  it('PATCH needs customers:write', async () => {
    const c = await newStampCustomer();
    const res = await app.request('PATCH', `/api/v1/customers/${c.id}`, { key: org.keys.reader, body: { customFields: { nickname: 'x' } } });
    assert.equal(res.status, 403);
    assert.equal(res.body.message, 'Missing scope(s): customers:write');
  });
});
