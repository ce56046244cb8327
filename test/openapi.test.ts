import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type Router from '@koa/router';
import { createApp } from '../src/http/app';
import { openApiPath } from '../src/http/openapi';
import { apiRoutes } from '../src/http/routes';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';

// GET /api/openapi.json: a valid OpenAPI 3.1 document, generated from the route definitions,
// covering every registered /api route with its request and response schemas.

type Json = Record<string, any>;

describe('OpenAPI document', () => {
  let app: TestApp;
  let org: StandardOrg;
  let doc: Json;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    const res = await app.request('GET', '/api/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    doc = res.body;
  });
  after(() => app.close());

  it('is served without a key and is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.deepEqual(result, { valid: true });
    assert.equal(validator.version, '3.1');
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.servers[0].url, app.config.publicUrl);
    assert.deepEqual(doc.components.securitySchemes.ApiKey, { type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  });

  it('documents every route the app registers under /api', () => {
    // Walk the routers actually mounted on the Koa app, not a list kept beside it.
    const koa = createApp(app.deps);
    const routers = koa.middleware.map((mw) => (mw as unknown as { router?: Router }).router).filter((r): r is Router => r !== undefined);
    assert.ok(routers.length > 0, 'found the mounted routers');
    const registered = routers.flatMap((router) =>
      router.stack
        .filter((layer) => typeof layer.path === 'string' && layer.path.startsWith('/api'))
        .flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => ({ method: m.toLowerCase(), path: openApiPath((layer.path as string).replace(/^\/api/, '')) }))),
    );
    assert.ok(registered.length >= apiRoutes().length + 1, 'the definitions and the document route are all mounted');
    const missing = registered.filter((r) => !doc.paths[r.path]?.[r.method]).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    assert.deepEqual(missing, [], 'registered /api routes missing from the OpenAPI document');

    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as Json).map((m) => `${m} ${p}`));
    const extra = documented.filter((d) => !registered.some((r) => `${r.method} ${r.path}` === d));
    assert.deepEqual(extra, [], 'documented operations that no route serves');
  });

  it('gives each operation its scope, parameters, request schema and response schemas', () => {
    const operationIds = new Set<string>();
    for (const def of apiRoutes()) {
      const path = openApiPath(def.path);
      const op = doc.paths[path]?.[def.method.toLowerCase()];
      const name = `${def.method} ${path}`;
      assert.ok(op, name);
      assert.ok(!operationIds.has(op.operationId), `${name}: operationId unique`);
      operationIds.add(op.operationId);
      assert.equal(op['x-required-scope'], def.scope, `${name}: scope`);
      assert.deepEqual(op.security, [{ ApiKey: [] }], `${name}: needs the key`);

      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = op.parameters.filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
      assert.deepEqual(declared, pathParams, `${name}: path parameters`);
      for (const p of op.parameters) assert.ok(p.schema && typeof p.schema === 'object', `${name}: parameter ${p.name} has a schema`);

      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (def.body) {
        // One object, or a oneOf of complete objects (earn, redeem, adjust): each strict.
        const shapes: Json[] = schema?.oneOf ?? [schema];
        for (const shape of shapes) {
          assert.equal(shape?.type, 'object', `${name}: request body schema`);
          assert.equal(shape.additionalProperties, false, `${name}: bodies are strict`);
          assert.ok(Array.isArray(shape.required), `${name}: each shape names its required fields`);
        }
        // A missing body is read as `{}`: required where `{}` fits no shape (PATCH bodies may be left out),
        // for want of a required field or of any field at all (minProperties).
        const needsFields = shapes.every((shape) => shape.required.length > 0 || (shape.minProperties ?? 0) > 0);
        assert.equal(op.requestBody.required, needsFields, `${name}: the body is required where {} is refused`);
      } else if (def.method === 'POST' || def.method === 'PATCH') {
        // A write without fields says so, rather than leaving the body undescribed.
        assert.equal(op.requestBody?.required, false, `${name}: the body is optional`);
        assert.match(op.requestBody.description, /Takes no body/, `${name}`);
        assert.deepEqual(schema, { type: 'object', properties: {}, required: [], additionalProperties: false }, `${name}: at most {}`);
      } else {
        assert.equal(op.requestBody, undefined, `${name}: no request body`);
      }

      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      assert.ok(success.length > 0, `${name}: a success response`);
      for (const s of success) assert.ok(op.responses[s].content?.['application/json']?.schema, `${name}: ${s} has a schema`);
      for (const s of ['401', '403', '429']) {
        assert.equal(op.responses[s]?.content?.['application/json']?.schema?.$ref, '#/components/schemas/Error', `${name}: ${s} documented`);
      }
      for (const [s, response] of Object.entries(op.responses as Record<string, Json>)) {
        assert.ok(response.headers?.['X-RateLimit-Limit'] && response.headers?.['X-RateLimit-Remaining'], `${name}: ${s} documents the rate-limit headers`);
      }
    }
  });

  it('documents on every operation the errors its route really answers, without dropping the common ones', async () => {
    const documented = (op: Json, status: number): string => op.responses[String(status)]?.description ?? '';
    for (const def of apiRoutes()) {
      const name = `${def.method} ${openApiPath(def.path)}`;
      const op = doc.paths[openApiPath(def.path)][def.method.toLowerCase()];
      const url = `/api${def.path.replace(/:([A-Za-z]+)/g, 'x')}`;
      const takesBody = def.method === 'POST' || def.method === 'PATCH';

      // 403 from the scope check, whatever else the route answers with 403.
      const scoped = await app.request(def.method, url, { key: org.keys.reader, body: takesBody ? {} : undefined });
      if (def.scope !== 'customers:read') {
        assert.equal(scoped.status, 403, `${name}: ${scoped.text}`);
        assert.match(documented(op, 403), /Missing scope\(s\)/, `${name}: 403 Missing scope(s) documented`);
      }
      if (takesBody) {
        const wrongType = await app.request(def.method, url, { key: org.keys.live, rawBody: '{}', headers: { 'Content-Type': 'text/plain' } });
        assert.equal(wrongType.status, 415, `${name}: ${wrongType.text}`);
        assert.match(documented(op, 415), /UNSUPPORTED_MEDIA_TYPE/, `${name}: 415 documented`);
        const tooLarge = await app.request(def.method, url, { key: org.keys.live, rawBody: `{"pad":"${'x'.repeat(70_000)}"}`, headers: { 'Content-Type': 'application/json' } });
        assert.equal(tooLarge.status, 413, `${name}: ${tooLarge.text}`);
        assert.match(documented(op, 413), /PAYLOAD_TOO_LARGE/, `${name}: 413 documented`);
        const badJson = await app.request(def.method, url, { key: org.keys.live, rawBody: '{oops', headers: { 'Content-Type': 'application/json' } });
        assert.equal(badJson.status, 400, `${name}: ${badJson.text}`);
        assert.match(documented(op, 400), /INVALID_JSON/, `${name}: INVALID_JSON documented`);
        const unknownField = await app.request(def.method, url, { key: org.keys.live, body: { surelyUnknown: 1 } });
        assert.match(unknownField.body.message, /^VALIDATION_FAILED: .*surelyUnknown/, `${name}: ${unknownField.text}`);
        assert.match(documented(op, 400), /VALIDATION_FAILED/, `${name}: VALIDATION_FAILED documented`);
      } else {
        assert.equal(op.responses['413'], undefined, `${name}: reads no body, so no 413`);
        assert.equal(op.responses['415'], undefined, `${name}: reads no body, so no 415`);
        assert.doesNotMatch(documented(op, 400), /INVALID_JSON/, `${name}: reads no body, so no INVALID_JSON`);
      }
      if (!def.params && !def.query && !def.body && !def.errors?.[400]) assert.equal(op.responses['400'], undefined, `${name}: takes no input, so no 400`);
    }
  });

  it('gives every {ref} the one rule, documented and enforced alike: up to 300 characters, counted as a client counts them', async () => {
    // DELETE erases the customer the others act on: it goes last.
    const refRoutes = apiRoutes()
      .filter((def) => def.path.includes(':ref'))
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    assert.ok(refRoutes.length >= 6, 'customers and loyalty routes take a ref');
    const schemas = refRoutes.map((def) => doc.paths[openApiPath(def.path)][def.method.toLowerCase()].parameters.find((p: Json) => p.name === 'ref').schema);
    for (const schema of schemas) assert.deepEqual(schema, schemas[0]);
    assert.equal(schemas[0].maxLength, 300);

    // 255 emoji: a valid externalCustomerId, 510 UTF-16 units long.
    const emojiId = '😀'.repeat(255);
    const created = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: emojiId, cardId: org.cards.points } });
    assert.equal(created.status, 201, created.text);
    const bodies: Record<string, unknown> = { earn: { type: 'points', amount: 5 }, redeem: { type: 'points', amount: 1 }, adjust: { balanceCorrection: 1 } };
    for (const def of refRoutes) {
      const op = def.path.split('/').pop()!;
      const body = def.method === 'PATCH' ? {} : bodies[op];
      const res = await app.request(def.method, `/api${def.path.replace(':ref', encodeURIComponent(emojiId))}`, { key: org.keys.live, body });
      assert.ok(res.status < 300, `${def.method} ${def.path} with a 255-emoji ref: ${res.status} ${res.text}`);
      const tooLong = await app.request(def.method, `/api${def.path.replace(':ref', 'x'.repeat(301))}`, { key: org.keys.live, body });
      assert.equal(tooLong.status, 400, `${def.method} ${def.path} with a 301-character ref: ${tooLong.text}`);
      assert.match(tooLong.body.message, /^VALIDATION_FAILED: ref$/);
    }
  });

  it('documents the headers clients branch on: Retry-After on 429, Idempotent-Replayed on idempotent writes', () => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops as Record<string, Json>)) {
        assert.ok(op.responses['429'].headers?.['Retry-After']?.schema, `${method} ${path}: 429 Retry-After`);
      }
    }
    for (const def of apiRoutes().filter((d) => d.idempotent)) {
      const op = doc.paths[openApiPath(def.path)][def.method.toLowerCase()];
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (Number(status) < 500 && ![401, 403, 429].includes(Number(status))) {
          assert.ok(response.headers?.['Idempotent-Replayed']?.schema, `${def.method} ${def.path}: ${status} Idempotent-Replayed`);
        }
      }
    }
  });

  it('describes the bodies the server really sends', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components } as Json);
    const check = (schema: Json, body: unknown, what: string) => {
      const validate = ajv.compile(withoutDialect(schema));
      assert.ok(validate(body), `${what}: ${ajv.errorsText(validate.errors)}`);
    };
    const responseSchema = (method: string, path: string, status: number) => doc.paths[path][method].responses[status].content['application/json'].schema;
    const errorSchema = doc.components.schemas.Error;

    const list = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
    assert.equal(list.status, 200);
    check(responseSchema('get', '/api/v1/cards', 200), list.body, 'GET /v1/cards 200');

    const patchPath = '/api/v1/cards/{cardId}';
    const body = { identifierQuestionKey: 'memberNo' };
    check(doc.paths[patchPath].patch.requestBody.content['application/json'].schema, body, 'PATCH body');
    const patched = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body });
    assert.equal(patched.status, 200);
    check(responseSchema('patch', patchPath, 200), patched.body, 'PATCH /v1/cards/{cardId} 200');

    const refusals = [
      await app.request('GET', '/api/v1/cards'),
      await app.request('GET', '/api/v1/cards', { key: org.keys.reader }),
      await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body: { nope: 1 } }),
      await app.request('PATCH', '/api/v1/cards/card_nope', { key: org.keys.live, body: { identifierQuestionKey: null } }),
    ];
    assert.deepEqual(refusals.map((r) => r.status), [401, 403, 400, 404]);
    for (const r of refusals) check(errorSchema, r.body, `error ${r.status}`);

    // And the request schema refuses what the server refuses.
    const validateBody = ajv.compile(withoutDialect(doc.paths[patchPath].patch.requestBody.content['application/json'].schema));
    assert.equal(validateBody({ nope: 1 }), false);
    assert.equal(validateBody({ identifierQuestionKey: 5 }), false);
  });
});

// What an integrator's validator makes of the document must match what the server decides:
// a request the server refuses as VALIDATION_FAILED fails the documented schema, and one it
// accepts passes it. Amount decimals are left out: JSON Schema's multipleOf cannot say "at most
// 2 decimals" reliably with binary numbers, so the document states them as extensions by card
// type, which test/openapi-contract.test.ts applies.
describe('OpenAPI request schemas are truthful', () => {
  let app: TestApp;
  let org: StandardOrg;
  let doc: Json;
  let ajv: Ajv2020;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    doc = (await app.request('GET', '/api/openapi.json')).body;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const ref of ['points-1', 'stamps-1']) {
      const cardId = ref.startsWith('points') ? org.cards.points : org.cards.stamps;
      const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: ref, cardId, initialPoints: 50 } });
      assert.equal(res.status, 201, res.text);
    }
  });
  after(() => app.close());

  const bodyCases: { route: string; path: string; valid: unknown[]; invalid: unknown[] }[] = [
    {
      route: 'POST /api/v1/customers/{ref}/earn',
      path: '/api/v1/customers/points-1/earn',
      valid: [{ type: 'points', amount: 5 }, { type: 'points', from: 'spend', spend: { amount: 10, currency: 'EUR' } }, { type: 'points', from: 'spend', spend: { amount: 10, currency: 'eur' } }],
      invalid: [
        { type: 'points', amount: 0 },
        { type: 'points', amount: -5 },
        { type: 'points', amount: 2_000_000_000 },
        { type: 'points' },
        { type: 'points', amount: 5, from: 'spend', spend: { amount: 1, currency: 'EUR' } },
        { type: 'points', from: 'spend' },
        { type: 'points', from: 'items', spend: { amount: 1, currency: 'EUR' } },
        { type: 'points', amount: 5, items: [{ key: 'latte', quantity: 1 }] },
        { type: 'points', from: 'spend', spend: { amount: 0, currency: 'EUR' } },
        { type: 'points', from: 'spend', spend: { amount: 1, currency: 'EURO' } },
      ],
    },
    {
      route: 'POST /api/v1/customers/{ref}/redeem',
      path: '/api/v1/customers/points-1/redeem',
      valid: [{ type: 'points', amount: 1 }, { type: 'reward' }],
      invalid: [{ type: 'points' }, { type: 'reward', amount: 5 }, { type: 'points', amount: 0 }, { type: 'points', amount: 2_000_000_000 }],
    },
    {
      route: 'POST /api/v1/customers/{ref}/adjust',
      path: '/api/v1/customers/points-1/adjust',
      valid: [{ balanceCorrection: 1 }, { balanceCorrection: -1 }, { setPoints: 0 }],
      invalid: [{}, { note: 'x' }, { balanceCorrection: 1, setPoints: 2 }, { balanceCorrection: 0 }, { setPoints: -1 }, { balanceCorrection: -2_000_000_000 }, { setPoints: 2_000_000_000 }],
    },
    {
      route: 'POST /api/v1/customers',
      path: '/api/v1/customers',
      valid: [{ externalCustomerId: 'new-1', cardId: 'CARD' }, { externalCustomerId: 'upu_x', cardId: 'CARD' }],
      invalid: [{ externalCustomerId: 'pu_abc', cardId: 'CARD' }, { externalCustomerId: 'email:a@b.c', cardId: 'CARD' }, { externalCustomerId: 'phone:+4912345678', cardId: 'CARD' }, { externalCustomerId: '', cardId: 'CARD' }, { cardId: 'CARD' }, { externalCustomerId: 'x', cardId: 'CARD', initialPoints: -1 }],
    },
    {
      route: 'PATCH /api/v1/customers/{ref}',
      path: '/api/v1/customers/stamps-1',
      valid: [{}, { externalCustomerId: 'stamps-renamed' }],
      invalid: [{ externalCustomerId: 'pu_x' }, { externalCustomerId: 'phone:+4912345678' }, { name: 'x' }],
    },
    {
      route: 'POST /api/v1/webhooks',
      path: '/api/v1/webhooks',
      valid: [{ url: 'https://example.com/hook', events: ['*'] }, { url: 'HTTP://example.com/hook', events: ['balance.updated', 'reward.redeemed'] }],
      invalid: [{ url: 'ftp://example.com/hook', events: ['*'] }, { url: 'example.com/hook', events: ['*'] }, { url: 'https://example.com/hook', events: ['*', 'balance.updated'] }, { url: 'https://example.com/hook', events: [] }, { url: 'https://example.com/hook', events: ['balance.changed'] }],
    },
  ];

  for (const c of bodyCases) {
    it(`${c.route}: the documented body schema accepts and refuses what the server does`, async () => {
      const [method, path] = c.route.split(' ') as [string, string];
      const validate = ajv.compile(withoutDialect(doc.paths[path][method.toLowerCase()].requestBody.content['application/json'].schema));
      const withCard = (body: unknown) => JSON.parse(JSON.stringify(body).replaceAll('"CARD"', JSON.stringify(org.cards.stamps)));
      for (const [expected, bodies] of [[true, c.valid], [false, c.invalid]] as const) {
        for (const raw of bodies) {
          const body = withCard(raw);
          const res = await app.request(method, c.path, { key: org.keys.live, body });
          const serverAccepts = !(res.status === 400 && /^VALIDATION_FAILED/.test(res.body.message));
          assert.equal(serverAccepts, expected, `server on ${JSON.stringify(raw)}: ${res.text}`);
          assert.equal(validate(body), expected, `document on ${JSON.stringify(raw)}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    });
  }

  it('GET /api/v1/customers/lookup: email and phone are documented as single strings (repeating one is 400)', async () => {
    const op = doc.paths['/api/v1/customers/lookup'].get;
    for (const name of ['email', 'phone']) {
      const validate = ajv.compile(withoutDialect(op.parameters.find((p: Json) => p.in === 'query' && p.name === name).schema));
      assert.equal(validate('ada@example.com'), true, name);
      assert.equal(validate(['a@example.com', 'b@example.com']), false, `${name}: an array is not documented as accepted`);
      const res = await app.request('GET', `/api/v1/customers/lookup?${name}=a&${name}=b`, { key: org.keys.live });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, new RegExp(`^${name.toUpperCase()}_MUST_BE_A_SINGLE_VALUE`));
    }
  });

  // A query value is documented as the client's typed value (limit: an integer), which its library
  // writes out; validators of requests read it back the same way, as Ajv's coerceTypes does.
  const queryCases: { route: string; path: string; name: string; valid: string[]; invalid: string[] }[] = [
    { route: 'GET /api/v1/customers/{ref}/transactions', path: '/api/v1/customers/points-1/transactions', name: 'limit', valid: ['1', '25', '100'], invalid: ['0', '101', '999', 'ten', '', '2.5', '-1'] },
    { route: 'GET /api/v1/webhooks/{id}/deliveries', path: '/api/v1/webhooks/WEBHOOK/deliveries', name: 'limit', valid: ['1', '50', '100'], invalid: ['0', '101', '5000', 'ten', '2.5'] },
  ];
  for (const c of queryCases) {
    it(`${c.route}: the documented ${c.name} parameter accepts and refuses what the server does`, async () => {
      const hook = await app.request('POST', '/api/v1/webhooks', { key: org.keys.live, body: { url: 'https://example.com/h', events: ['*'] } });
      const [method, path] = c.route.split(' ') as [string, string];
      const param = doc.paths[path][method.toLowerCase()].parameters.find((p: Json) => p.in === 'query' && p.name === c.name);
      assert.equal(param.schema.type, 'integer', `${c.name} is an integer, not a string pattern`);
      assert.equal(param.schema.pattern, undefined);
      const queryAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
      const validate = queryAjv.compile(withoutDialect(param.schema));
      for (const [expected, values] of [[true, c.valid], [false, c.invalid]] as const) {
        for (const value of values) {
          const res = await app.request(method, `${c.path.replace('WEBHOOK', hook.body.id)}?${c.name}=${value}`, { key: org.keys.live });
          assert.equal(res.status === 200, expected, `server on ${c.name}=${value}: ${res.text}`);
          assert.equal(validate(value), expected, `document on ${c.name}=${value}: ${queryAjv.errorsText(validate.errors)}`);
        }
      }
    });
  }
});

/** Nested schemas carry their own $schema; Ajv accepts it only at a root it compiles. */
function withoutDialect(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === '$schema' ? undefined : value)).replaceAll('"#/components/', '"doc#/components/'));
}
