import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { revokeApiKey } from '../src/keys/admin';
import { createApiKey } from '../src/keys/service';
import { createLogger } from '../src/lib/log';
import { seedStandardOrg, startTestApp, type RequestOptions, type StandardOrg, type TestApp, type TestResponse } from './support/app';

// Error shapes and the order of checks (docs/api.md#errors), over the wire.

const BODY_LIMIT = 64 * 1024;

/** Every error body: statusCode (= the HTTP status), error, message; never a stack trace. */
function assertErrorShape(res: TestResponse): void {
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(typeof res.body, 'object', res.text);
  assert.equal(res.body.statusCode, res.status);
  assert.equal(typeof res.body.error, 'string');
  assert.equal(typeof res.body.message, 'string');
  assertNoStack(res.text);
}

function assertNoStack(text: string): void {
  assert.doesNotMatch(text, /\n\s+at |\bat .*\.(ts|js|mjs):\d+|node_modules|stack/i, 'a stack trace reached the client');
}

/** A JSON body of exactly `size` bytes: {"identifierQuestionKey":null,"pad":"xxxx…"}. */
function jsonOfSize(size: number): string {
  const frame = '{"identifierQuestionKey":null,"pad":""}';
  return frame.replace('""', `"${'x'.repeat(size - frame.length)}"`);
}

describe('error shapes', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  const json = { 'Content-Type': 'application/json' };
  const cases: { name: string; method: string; path: (o: StandardOrg) => string; options: (o: StandardOrg) => RequestOptions; status: number; error: string; message: RegExp; check?: (res: TestResponse) => void }[] = [
    {
      name: 'VALIDATION_FAILED lists every issue with its path',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, body: { identifierQuestionKey: 7, name: 'x' } }),
      status: 400,
      error: 'Bad Request',
      message: /^VALIDATION_FAILED: identifierQuestionKey, name$/,
      check: (res) => {
        assert.deepEqual(Object.keys(res.body), ['statusCode', 'error', 'message', 'issues']);
        assert.deepEqual(res.body.issues.map((i: { path: string }) => i.path), ['identifierQuestionKey', 'name']);
        assert.equal(res.body.issues[1].message, 'unknown field');
        for (const issue of res.body.issues) assert.equal(typeof issue.message, 'string');
      },
    },
    {
      name: 'VALIDATION_FAILED for a missing field says it is required',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, body: {} }),
      status: 400,
      error: 'Bad Request',
      message: /^VALIDATION_FAILED: identifierQuestionKey$/,
      check: (res) => assert.deepEqual(res.body.issues, [{ path: 'identifierQuestionKey', message: 'required' }]),
    },
    {
      name: 'VALIDATION_FAILED for a JSON array where an object belongs',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, body: [] }),
      status: 400,
      error: 'Bad Request',
      message: /^VALIDATION_FAILED: \(body\)$/,
      check: (res) => assert.deepEqual(res.body.issues, [{ path: '', message: 'must be a JSON object' }]),
    },
    {
      name: 'VALIDATION_FAILED for a path parameter',
      method: 'PATCH',
      path: () => `/api/v1/cards/${'c'.repeat(101)}`,
      options: (o) => ({ key: o.keys.live, body: { identifierQuestionKey: null } }),
      status: 400,
      error: 'Bad Request',
      message: /^VALIDATION_FAILED: cardId$/,
    },
    {
      name: 'INVALID_JSON for malformed JSON',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: '{"identifierQuestionKey": nul', headers: json }),
      status: 400,
      error: 'Bad Request',
      message: /^INVALID_JSON/,
    },
    {
      name: 'INVALID_JSON naming a __proto__ key, which the parser refuses',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: '{"identifierQuestionKey": null, "__proto__": {"x": 1}}', headers: json }),
      status: 400,
      error: 'Bad Request',
      message: /^INVALID_JSON: a "__proto__" key is not accepted/,
    },
    {
      name: 'INVALID_JSON for a bare JSON scalar',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: 'null', headers: json }),
      status: 400,
      error: 'Bad Request',
      message: /^INVALID_JSON/,
    },
    {
      name: '413 PAYLOAD_TOO_LARGE one byte over 64 KiB',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: jsonOfSize(BODY_LIMIT + 1), headers: json }),
      status: 413,
      error: 'Payload Too Large',
      message: /^PAYLOAD_TOO_LARGE/,
    },
    {
      name: 'exactly 64 KiB is read (and then judged on its fields)',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: jsonOfSize(BODY_LIMIT), headers: json }),
      status: 400,
      error: 'Bad Request',
      message: /^VALIDATION_FAILED: pad$/,
    },
    {
      name: '415 UNSUPPORTED_MEDIA_TYPE for text/plain',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: '{"identifierQuestionKey":null}', headers: { 'Content-Type': 'text/plain' } }),
      status: 415,
      error: 'Unsupported Media Type',
      message: /^UNSUPPORTED_MEDIA_TYPE/,
    },
    {
      name: '415 UNSUPPORTED_MEDIA_TYPE for a form',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: 'identifierQuestionKey=', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      status: 415,
      error: 'Unsupported Media Type',
      message: /^UNSUPPORTED_MEDIA_TYPE/,
    },
    {
      name: '415 UNSUPPORTED_MEDIA_TYPE for a body without a content type',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: '{"identifierQuestionKey":null}' }),
      status: 415,
      error: 'Unsupported Media Type',
      message: /^UNSUPPORTED_MEDIA_TYPE/,
    },
    {
      name: '415 UNSUPPORTED_MEDIA_TYPE for an unknown Content-Encoding',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: '{"identifierQuestionKey":null}', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' } }),
      status: 415,
      error: 'Unsupported Media Type',
      message: /^UNSUPPORTED_MEDIA_TYPE/,
    },
    {
      // JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset would be read wrongly.
      name: '415 UNSUPPORTED_MEDIA_TYPE for JSON declared in another charset',
      method: 'PATCH',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live, rawBody: '{"identifierQuestionKey":null}', headers: { 'Content-Type': 'application/json; charset=latin1' } }),
      status: 415,
      error: 'Unsupported Media Type',
      message: /^UNSUPPORTED_MEDIA_TYPE: .*UTF-8/,
    },
    {
      name: '404 ROUTE_NOT_FOUND for an unknown path',
      method: 'GET',
      path: () => '/api/v1/nothing-here',
      options: (o) => ({ key: o.keys.live }),
      status: 404,
      error: 'Not Found',
      message: /^ROUTE_NOT_FOUND/,
    },
    {
      name: '404 ROUTE_NOT_FOUND for /api itself',
      method: 'GET',
      path: () => '/api',
      options: () => ({}),
      status: 404,
      error: 'Not Found',
      message: /^ROUTE_NOT_FOUND/,
    },
    {
      name: '405 METHOD_NOT_ALLOWED with Allow for a known path',
      method: 'DELETE',
      path: () => '/api/v1/cards',
      options: (o) => ({ key: o.keys.live }),
      status: 405,
      error: 'Method Not Allowed',
      message: /^METHOD_NOT_ALLOWED/,
      check: (res) => assert.equal(res.headers.get('allow'), 'GET'),
    },
    {
      name: '405 METHOD_NOT_ALLOWED for GET on a PATCH-only path',
      method: 'GET',
      path: (o) => `/api/v1/cards/${o.cards.stamps}`,
      options: (o) => ({ key: o.keys.live }),
      status: 405,
      error: 'Method Not Allowed',
      message: /^METHOD_NOT_ALLOWED/,
      check: (res) => assert.equal(res.headers.get('allow'), 'PATCH'),
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const res = await app.request(c.method, c.path(org), c.options(org));
      assert.equal(res.status, c.status, res.text);
      assertErrorShape(res);
      assert.equal(res.body.error, c.error);
      assert.match(res.body.message, c.message);
      c.check?.(res);
    });
  }

  it('a JSON body under a +json media type is read as JSON', async () => {
    const res = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, {
      key: org.keys.live,
      rawBody: '{"identifierQuestionKey":"memberNo"}',
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.questions.find((q: { key: string }) => q.key === 'memberNo').isIdentifier, true);
  });

  it('JSON declared as UTF-8 (any spelling) is read', async () => {
    for (const charset of ['utf-8', 'UTF-8', 'utf8']) {
      const res = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, {
        key: org.keys.live,
        rawBody: '{"identifierQuestionKey":null}',
        headers: { 'Content-Type': `application/json; charset=${charset}` },
      });
      assert.equal(res.status, 200, `${charset}: ${res.text}`);
    }
  });

  it('a response carries X-Request-Id', async () => {
    const res = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
    assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9A-Za-z]{16}$/);
  });
});

describe('order of checks: route → key → rate limit → scope → body → the operation', () => {
  let app: TestApp;
  let org: StandardOrg;
  let revoked: string;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    const key = createApiKey(app.deps, { orgId: org.orgId, deviceName: 'gone' });
    revokeApiKey(app.deps, key.id);
    revoked = key.key;
  });
  after(() => app.close());

  const badJson = { rawBody: '{oops', headers: { 'Content-Type': 'application/json' } };
  const cases: { name: string; method: string; path: (o: StandardOrg) => string; options: (o: StandardOrg) => RequestOptions; status: number; message: RegExp }[] = [
    { name: 'unknown route without a key: 404, not 401', method: 'GET', path: () => '/api/v2/cards', options: () => ({}), status: 404, message: /^ROUTE_NOT_FOUND/ },
    { name: 'unknown route with a bad key: 404', method: 'POST', path: () => '/api/v1/nope', options: () => ({ headers: { 'X-Api-Key': 'junk' } }), status: 404, message: /^ROUTE_NOT_FOUND/ },
    { name: 'unknown route with a revoked key: 404', method: 'GET', path: () => '/api/v1/nope', options: () => ({ key: revoked }), status: 404, message: /^ROUTE_NOT_FOUND/ },
    { name: 'wrong method without a key: 405, not 401', method: 'POST', path: () => '/api/v1/cards', options: () => ({}), status: 405, message: /^METHOD_NOT_ALLOWED/ },
    { name: 'no key and a malformed body: 401, not 400', method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, options: () => ({ ...badJson }), status: 401, message: /^MISSING_API_KEY$/ },
    { name: 'revoked key, missing scope and a bad body: 401', method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, options: () => ({ key: revoked, ...badJson }), status: 401, message: /^INVALID_API_KEY$/ },
    { name: 'missing scope and a malformed body: 403, not 400', method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, options: (o) => ({ key: o.keys.reader, ...badJson }), status: 403, message: /^Missing scope\(s\): cards:write$/ },
    { name: 'missing scope on an unknown card: 403 scope, not 404', method: 'PATCH', path: () => '/api/v1/cards/card_nope', options: (o) => ({ key: o.keys.reader, body: { identifierQuestionKey: null } }), status: 403, message: /^Missing scope/ },
    { name: 'malformed body on an unknown card: 400, not 404', method: 'PATCH', path: () => '/api/v1/cards/card_nope', options: (o) => ({ key: o.keys.live, ...badJson }), status: 400, message: /^INVALID_JSON/ },
    { name: 'wrong media type with a test key: 415 before the live-only rule', method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, options: (o) => ({ key: o.keys.test, rawBody: 'x', headers: { 'Content-Type': 'text/plain' } }), status: 415, message: /^UNSUPPORTED_MEDIA_TYPE/ },
    { name: 'invalid body with a test key: 400 VALIDATION_FAILED before NOT_AVAILABLE_IN_TEST_MODE', method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, options: (o) => ({ key: o.keys.test, body: { identifierQuestionKey: 3 } }), status: 400, message: /^VALIDATION_FAILED/ },
    { name: 'a route without a body refuses a field in one (strict bodies): 400 before 404', method: 'POST', path: () => '/api/v1/webhooks/deliveries/wd_nope/replay', options: (o) => ({ key: o.keys.live, body: { force: true } }), status: 400, message: /^VALIDATION_FAILED: force$/ },
    { name: 'a route without a body takes an empty object: the operation’s own rule', method: 'POST', path: () => '/api/v1/webhooks/deliveries/wd_nope/replay', options: (o) => ({ key: o.keys.live, body: {} }), status: 404, message: /^DELIVERY_NOT_FOUND/ },
    { name: 'valid body with a test key: the operation’s own rule', method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, options: (o) => ({ key: o.keys.test, body: { identifierQuestionKey: null } }), status: 400, message: /^NOT_AVAILABLE_IN_TEST_MODE/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const res = await app.request(c.method, c.path(org), c.options(org));
      assert.equal(res.status, c.status, res.text);
      assertErrorShape(res);
      assert.match(res.body.message, c.message);
    });
  }
});

describe('logs', () => {
  it('write one JSON line per request with its request id, method, path, status and time', async () => {
    const lines: string[] = [];
    const app = await startTestApp({ log: createLogger('info', (line) => lines.push(line)) });
    try {
      const org = seedStandardOrg(app);
      const ok = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
      const refused = await app.request('GET', '/api/v1/cards');
      const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
      assert.equal(entries.length, 2);
      assert.deepEqual(
        entries.map((e) => [e.level, e.requestId, e.method, e.path, e.status, typeof e.ms, typeof e.time]),
        [
          ['info', ok.headers.get('x-request-id'), 'GET', '/api/v1/cards', 200, 'number', 'string'],
          ['info', refused.headers.get('x-request-id'), 'GET', '/api/v1/cards', 401, 'number', 'string'],
        ],
      );
      assert.ok(!lines.join('\n').includes(org.keys.live), 'keys never reach the log');
    } finally {
      await app.close();
    }
  });

  it('never hold a secret: API keys, webhook secrets, install codes (also in a web-pass path), Apple device library ids', async () => {
    const lines: string[] = [];
    const app = await startTestApp({ log: createLogger('debug', (line) => lines.push(line)) });
    try {
      const org = seedStandardOrg(app);
      const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'log-1', cardId: org.cards.stamps } });
      assert.equal(enrolled.status, 201, enrolled.text);
      const code = new URL(enrolled.body.installUrl).searchParams.get('code')!;
      const hook = await app.request('POST', '/api/v1/webhooks', { key: org.keys.live, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
      assert.equal(hook.status, 201, hook.text);
      for (const path of [`/get-pass/${org.cards.stamps}?code=${code}`, `/pass/${code}`, `/pass/${code}/balance`]) {
        assert.equal((await app.request('GET', path)).status, 200, path);
      }
      let requests = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
      assert.deepEqual(requests.slice(-2).map((e) => e.path), ['/pass/:code', '/pass/:code/balance'], 'the code is replaced by its name');
      // Apple's web service treats the device library identifier as the device's secret: the
      // list of a device's passes needs nothing else.
      const device = 'a1b2c3d4e5f6a7b8c9d0';
      for (const [method, path] of [['GET', `/wallet/v1/devices/${device}/registrations/pass.example`], ['POST', `/wallet/v1/devices/${device}/registrations/pass.example/serial-1`], ['DELETE', `/wallet/v1/devices/${device}/registrations/pass.example/serial-1`]] as const) {
        await app.request(method, path);
      }
      requests = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
      assert.deepEqual(requests.slice(-3).map((e) => e.path), [
        '/wallet/v1/devices/:deviceLibraryId/registrations/pass.example',
        '/wallet/v1/devices/:deviceLibraryId/registrations/pass.example/serial-1',
        '/wallet/v1/devices/:deviceLibraryId/registrations/pass.example/serial-1',
      ]);
      const log = lines.join('\n');
      for (const [what, secret] of [['API key', org.keys.live], ['webhook secret', hook.body.secret], ['install code', code], ['device library id', device]] as const) {
        assert.ok(!log.includes(secret), `the ${what} reached the log`);
      }
    } finally {
      await app.close();
    }
  });

  it('never hold a customer ref that names the person (email, phone, external id): an erasure could not reach it there', async () => {
    const lines: string[] = [];
    const app = await startTestApp({ log: createLogger('info', (line) => lines.push(line)) });
    try {
      const org = seedStandardOrg(app);
      const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'crm-ada-4711', cardId: org.cards.points, email: 'ada.lovelace@example.org', phone: '+44 20 7946 0958' } });
      assert.equal(enrolled.status, 201, enrolled.text);
      const id = enrolled.body.passUserId as string;
      const paths = [
        ['/api/v1/customers/email:ada.lovelace@example.org', 200],
        [`/api/v1/customers/phone:${encodeURIComponent('+442079460958')}`, 200],
        ['/api/v1/customers/crm-ada-4711/transactions', 200],
        [`/api/v1/customers/pu_${id}`, 200],
        // No route matches: the path is logged as it came, but the email still is not.
        ['/api/v1/customers/email%3Aada.lovelace%40example.org/no-such-thing', 404],
      ] as const;
      for (const [path, status] of paths) assert.equal((await app.request('GET', path, { key: org.keys.live })).status, status, path);
      const logged = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request').slice(-paths.length).map((e) => e.path);
      assert.deepEqual(logged, ['/api/v1/customers/:ref', '/api/v1/customers/:ref', '/api/v1/customers/:ref/transactions', `/api/v1/customers/pu_${id}`, '/api/v1/customers/:ref/no-such-thing']);
      const log = lines.join('\n');
      for (const value of ['ada.lovelace', '7946', 'crm-ada-4711']) assert.ok(!log.includes(value), `${value} reached the log`);
    } finally {
      await app.close();
    }
  });

  it('stay quiet below LOG_LEVEL', async () => {
    const lines: string[] = [];
    const app = await startTestApp({ log: createLogger('warn', (line) => lines.push(line)) });
    try {
      await app.request('GET', '/api/v1/cards');
      assert.deepEqual(lines, []);
    } finally {
      await app.close();
    }
  });
});

describe('unexpected errors', () => {
  it('are logged with the request id and answered as an opaque 500', async () => {
    const lines: string[] = [];
    const app = await startTestApp({ log: createLogger('error', (line) => lines.push(line)) });
    try {
      const org = seedStandardOrg(app);
      app.db.exec('DROP TABLE cards'); // the next query fails in a way no route expects
      const res = await app.request('GET', '/api/v1/cards', { key: org.keys.live });

      assert.equal(res.status, 500);
      assertErrorShape(res);
      const requestId = res.headers.get('x-request-id');
      assert.ok(requestId);
      assert.deepEqual(Object.keys(res.body), ['statusCode', 'error', 'message', 'requestId']);
      assert.equal(res.body.error, 'Internal Server Error');
      assert.equal(res.body.requestId, requestId);
      assert.match(res.body.message, new RegExp(`^INTERNAL_ERROR: .*${requestId}`));
      assert.doesNotMatch(res.text, /cards|sqlite|no such table/i, 'the cause stays on the server');

      const logged = lines.map((l) => JSON.parse(l)).find((entry) => entry.msg === 'unhandled error');
      assert.ok(logged, 'the error was logged');
      assert.equal(logged.requestId, requestId);
      assert.match(logged.err.message, /no such table: cards/);
      assert.match(logged.err.stack, /\n\s+at /, 'the stack goes to the log');
    } finally {
      await app.close();
    }
  });
});

// /api answers hold customer data and install links: no cache (browser, proxy, CDN) may keep one.
// Errors too, wherever they arise; only the OpenAPI document, the same for everyone, is cacheable.
describe('Cache-Control', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  const enrollBody = (o: StandardOrg) => ({ externalCustomerId: 'cache-1', cardId: o.cards.stamps });
  const cases: { name: string; method: string; path: (o: StandardOrg) => string; options: (o: StandardOrg) => RequestOptions; status: number }[] = [
    { name: 'a list', method: 'GET', path: () => '/api/v1/cards', options: (o) => ({ key: o.keys.live }), status: 200 },
    { name: 'an enroll (201, with the install link)', method: 'POST', path: () => '/api/v1/customers', options: (o) => ({ key: o.keys.live, body: enrollBody(o), headers: { 'Idempotency-Key': 'cache-key' } }), status: 201 },
    { name: 'its idempotent replay', method: 'POST', path: () => '/api/v1/customers', options: (o) => ({ key: o.keys.live, body: enrollBody(o), headers: { 'Idempotency-Key': 'cache-key' } }), status: 201 },
    { name: 'a customer read', method: 'GET', path: () => '/api/v1/customers/cache-1', options: (o) => ({ key: o.keys.live }), status: 200 },
    { name: '401', method: 'GET', path: () => '/api/v1/cards', options: () => ({}), status: 401 },
    { name: '404 ROUTE_NOT_FOUND', method: 'GET', path: () => '/api/v1/nothing', options: () => ({}), status: 404 },
    { name: '404 of an operation', method: 'GET', path: () => '/api/v1/customers/nobody', options: (o) => ({ key: o.keys.live }), status: 404 },
    { name: '405', method: 'DELETE', path: () => '/api/v1/cards', options: (o) => ({ key: o.keys.live }), status: 405 },
    { name: '415', method: 'POST', path: () => '/api/v1/customers', options: (o) => ({ key: o.keys.live, rawBody: 'x', headers: { 'Content-Type': 'text/plain' } }), status: 415 },
    { name: '400 INVALID_JSON', method: 'POST', path: () => '/api/v1/customers', options: (o) => ({ key: o.keys.live, rawBody: '{', headers: { 'Content-Type': 'application/json' } }), status: 400 },
  ];
  for (const c of cases) {
    it(`no-store on ${c.name}`, async () => {
      const res = await app.request(c.method, c.path(org), c.options(org));
      assert.equal(res.status, c.status, res.text);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    });
  }

  it('no-store on a 500, and on a 429 also outside /api; the OpenAPI document is no-store, as it documents', async () => {
    const strict = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '1' } });
    try {
      const doc = await strict.request('GET', '/api/openapi.json');
      assert.equal(doc.status, 200);
      assert.equal(doc.headers.get('cache-control'), 'no-store');
      for (const path of ['/api/openapi.json', '/pass/some-code']) {
        const limited = await strict.request('GET', path);
        assert.equal(limited.status, 429, path);
        assert.equal(limited.headers.get('cache-control'), 'no-store', path);
      }
      const other = seedStandardOrg(strict);
      strict.db.exec('DROP TABLE cards');
      const res = await strict.request('GET', '/api/v1/cards', { key: other.keys.live });
      assert.equal(res.status, 500);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    } finally {
      await strict.close();
    }
  });
});
