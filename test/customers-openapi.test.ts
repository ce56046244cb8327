import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './support/app';

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
    { path: '/api/v1/customers/lookup', method: 'get', scope: 'customers:read', success: '200', params: ['email', 'phone'], responseFields: ['externalCustomerId', 'passUserId', 'cardId', 'cardType', 'balance', 'installed', 'installUrl', 'status', 'name', 'email', 'phone', 'customFields', 'livemode', 'createdAt'] },
    { path: '/api/v1/customers/{ref}', method: 'get', scope: 'customers:read', success: '200', params: ['ref'], responseFields: ['externalCustomerId', 'passUserId', 'cardId', 'cardType', 'balance', 'installed', 'installUrl', 'status', 'name', 'email', 'phone', 'customFields', 'livemode', 'createdAt'] },
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
        assert.deepEqual(customFields.additionalProperties, { type: ['string', 'number', 'boolean'] }, 'values are scalars (spec 4.13)');
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
});
