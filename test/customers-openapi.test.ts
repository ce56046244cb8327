import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { enroll } from './support/customers';

describe('customer endpoints in the OpenAPI document', () => {
  let app: TestApp;
  let doc: any;
  before(async () => {
    app = await startTestApp();
    doc = (await app.request('GET', '/api/openapi.json')).body;
  });
  after(() => app.close());

  const operations: { path: string; method: string; scope: string; success: string; responseFields: string[]; requestFields?: string[]; params?: string[]; idempotent?: boolean }[] = [
    { path: '/api/v1/customers', method: 'post', scope: 'customers:write', success: '201', requestFields: ['externalCustomerId', 'cardId', 'name', 'email', 'phone', 'initialPoints', 'customFields'], responseFields: ['passUserId', 'externalCustomerId', 'cardId', 'result', 'matchedBy', 'linked', 'linkSkippedReason', 'installUrl', 'status'], idempotent: true },
    { path: '/api/v1/customers/lookup', method: 'get', scope: 'customers:read', success: '200', params: ['email', 'phone'], responseFields: ['externalCustomerId', 'passUserId', 'cardId', 'cardType', 'balance', 'nextReward', 'installed', 'installUrl', 'status', 'name', 'email', 'phone', 'customFields', 'livemode', 'createdAt', 'expiring'] },
    { path: '/api/v1/customers/{ref}', method: 'get', scope: 'customers:read', success: '200', params: ['ref'], responseFields: ['externalCustomerId', 'passUserId', 'cardId', 'cardType', 'balance', 'nextReward', 'installed', 'installUrl', 'status', 'name', 'email', 'phone', 'customFields', 'livemode', 'createdAt', 'expiring'] },
    { path: '/api/v1/customers/{ref}', method: 'patch', scope: 'customers:write', success: '200', params: ['ref'], requestFields: ['externalCustomerId', 'customFields'], responseFields: ['passUserId', 'externalCustomerId', 'cardId', 'updated'], idempotent: true },
  ];
  for (const op of operations) {
    it(`${op.method.toUpperCase()} ${op.path}`, () => {
      const operation = doc.paths[op.path]?.[op.method];
      assert.ok(operation, 'documented');
      assert.equal(operation['x-required-scope'], op.scope);
      assert.deepEqual(Object.keys(operation.responses[op.success].content['application/json'].schema.properties), op.responseFields);
      if (op.requestFields) {
        const schema = operation.requestBody.content['application/json'].schema;
        assert.deepEqual(Object.keys(schema.properties), op.requestFields);
        assert.equal(schema.additionalProperties, false, 'strict body');
      } else assert.equal(operation.requestBody, undefined);
      if (op.requestFields?.includes('customFields')) {
        const customFields = operation.requestBody.content['application/json'].schema.properties.customFields;
        assert.equal(customFields.type, 'object');
        assert.deepEqual(customFields.additionalProperties, { type: ['string', 'number', 'boolean'] }, 'values are scalars');
      }
      // A route's own codes add to the ones every route can answer; they never hide them.
      const said = (status: string) => operation.responses[status]?.description ?? '';
      assert.match(said('403'), /Missing scope\(s\): <scope>/);
      assert.match(said('401'), /MISSING_API_KEY/);
      assert.match(said('400'), /VALIDATION_FAILED/);
      if (op.requestFields) {
        assert.match(said('400'), /INVALID_JSON/);
        assert.match(said('413'), /^PAYLOAD_TOO_LARGE/);
        assert.match(said('415'), /^UNSUPPORTED_MEDIA_TYPE/);
        assert.match(said('400'), /CUSTOM_FIELD_VALUE_TYPE_MISMATCH/);
      }
      if (op.path === '/api/v1/customers') assert.match(said('403'), /CARD_NOT_IN_ORG/);
      const names = operation.parameters.map((p: { name: string }) => p.name);
      assert.deepEqual(names, [...(op.params ?? []), ...(op.idempotent ? ['Idempotency-Key'] : [])]);
    });
  }

  describe('the schemas match what the server sends and refuses', () => {
    let org: StandardOrg;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // Nested schemas carry their own $schema; Ajv accepts it only at the root it compiles.
    const compile = (schema: unknown) => ajv.compile(JSON.parse(JSON.stringify(schema, (key, value) => (key === '$schema' ? undefined : value))));
    const responseSchema = (path: string, method: string, status: number) => doc.paths[path][method].responses[status].content['application/json'].schema;
    before(() => {
      org = seedStandardOrg(app);
    });

    it('real responses of every customer endpoint validate against their documented schema', async () => {
      const key = org.keys.live;
      const checks: [string, string, number, () => Promise<{ status: number; body: unknown }>][] = [
        ['/api/v1/customers', 'post', 201, () => enroll(app, key, { externalCustomerId: 'oa-1', cardId: org.cards.levels, email: 'oa@example.com', initialPoints: 150 })],
        ['/api/v1/customers', 'post', 201, () => enroll(app, key, { externalCustomerId: 'oa-2', cardId: org.cards.levels, email: 'oa@example.com' })],
        ['/api/v1/customers', 'post', 201, () => enroll(app, key, { externalCustomerId: 'oa-3', cardId: org.cards.stamps, initialPoints: 2, customFields: { memberNo: 5, newsletter: true, size: 'S' } })],
        ['/api/v1/customers', 'post', 201, () => enroll(app, key, { externalCustomerId: 'oa-4', cardId: org.cards.prepaid, initialPoints: 2.5 })],
        ['/api/v1/customers/{ref}', 'get', 200, () => app.request('GET', '/api/v1/customers/oa-1', { key })],
        ['/api/v1/customers/{ref}', 'get', 200, () => app.request('GET', '/api/v1/customers/oa-3', { key })],
        ['/api/v1/customers/{ref}', 'get', 200, () => app.request('GET', '/api/v1/customers/oa-4', { key })],
        ['/api/v1/customers/lookup', 'get', 200, () => app.request('GET', '/api/v1/customers/lookup?email=oa%40example.com', { key })],
        ['/api/v1/customers/{ref}', 'patch', 200, () => app.request('PATCH', '/api/v1/customers/oa-3', { key, body: { externalCustomerId: 'oa-3b', customFields: { nickname: 'Jo' } } })],
      ];
      for (const [path, method, status, send] of checks) {
        const res = await send();
        assert.equal(res.status, status);
        const validate = compile(responseSchema(path, method, status));
        assert.ok(validate(res.body), `${method} ${path}: ${ajv.errorsText(validate.errors)}`);
      }
    });

    const requests: { path: string; method: string; name: string; body: Record<string, unknown>; valid: boolean }[] = [
      { path: '/api/v1/customers', method: 'post', name: 'a plain enroll', body: { externalCustomerId: 'x', cardId: 'c', customFields: { a: 1, b: 'x', c: true } }, valid: true },
      { path: '/api/v1/customers', method: 'post', name: 'an id that only contains a prefix later', body: { externalCustomerId: 'a-pu_1', cardId: 'c' }, valid: true },
      ...['pu_x', 'email:a@b.c', 'phone:+4917012345'].map((id) => ({ path: '/api/v1/customers', method: 'post', name: `an id with a ref prefix (${id})`, body: { externalCustomerId: id, cardId: 'c' }, valid: false })),
      { path: '/api/v1/customers', method: 'post', name: 'a 256-character id', body: { externalCustomerId: 'x'.repeat(256), cardId: 'c' }, valid: false },
      { path: '/api/v1/customers', method: 'post', name: 'a null custom field', body: { externalCustomerId: 'x', cardId: 'c', customFields: { a: null } }, valid: false },
      { path: '/api/v1/customers', method: 'post', name: 'initialPoints past 1,000,000,000', body: { externalCustomerId: 'x', cardId: 'c', initialPoints: 1_000_000_001 }, valid: false },
      { path: '/api/v1/customers', method: 'post', name: 'an unknown field', body: { externalCustomerId: 'x', cardId: 'c', nope: 1 }, valid: false },
      { path: '/api/v1/customers/{ref}', method: 'patch', name: 'PATCH an id starting pu_', body: { externalCustomerId: 'pu_x' }, valid: false },
      { path: '/api/v1/customers/{ref}', method: 'patch', name: 'PATCH name', body: { name: 'x' }, valid: false },
    ];
    for (const r of requests) {
      it(`the ${r.method.toUpperCase()} request schema ${r.valid ? 'accepts' : 'refuses'} ${r.name}, as the server does`, () => {
        const validate = compile(doc.paths[r.path][r.method].requestBody.content['application/json'].schema);
        assert.equal(validate(r.body), r.valid, ajv.errorsText(validate.errors));
      });
    }
  });
});
