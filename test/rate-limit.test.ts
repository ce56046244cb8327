import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { loadConfig } from '../src/config';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp, type TestResponse } from './support/app';

// Rate limits (docs/api.md#rate-limits): per key per second, live 10 and test 5 by default, a
// token bucket refilled by the injected clock, headers on every /api response, 429 with
// Retry-After, and a per-address bucket for requests without a valid key.

const limitOf = (res: TestResponse) => Number(res.headers.get('x-ratelimit-limit'));
const remainingOf = (res: TestResponse) => Number(res.headers.get('x-ratelimit-remaining'));

describe('rate limits', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    // The documented defaults, set explicitly because startTestApp raises them for other tests.
    app = await startTestApp({ env: { RATE_LIMIT_LIVE: '10', RATE_LIMIT_TEST: '5', RATE_LIMIT_ANONYMOUS: '3' } });
  });
  // Every case starts with full buckets: a fresh org (fresh keys) and a clock far past any refill.
  beforeEach(() => {
    org = seedStandardOrg(app, `org ${Math.random()}`);
    app.clock.advance(60_000);
  });
  after(() => app.close());

  it('the defaults are live 10 and test 5 per second', () => {
    const config = loadConfig({});
    assert.equal(config.rateLimit.live, 10);
    assert.equal(config.rateLimit.test, 5);
  });

  const perMode: { name: string; key: (o: StandardOrg) => string; limit: number }[] = [
    { name: 'live key', key: (o) => o.keys.live, limit: 10 },
    { name: 'test key', key: (o) => o.keys.test, limit: 5 },
    { name: 'legacy key (live)', key: (o) => o.keys.legacy, limit: 10 },
  ];
  for (const c of perMode) {
    it(`${c.name}: ${c.limit} per second, counted down in the headers, then 429 with Retry-After`, async () => {
      const key = c.key(org);
      for (let i = 1; i <= c.limit; i++) {
        const res = await app.request('GET', '/api/v1/cards', { key });
        assert.equal(res.status, 200);
        assert.equal(limitOf(res), c.limit);
        assert.equal(remainingOf(res), c.limit - i);
      }
      const refused = await app.request('GET', '/api/v1/cards', { key });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(limitOf(refused), c.limit);
      assert.equal(remainingOf(refused), 0);
      assert.deepEqual(Object.keys(refused.body), ['statusCode', 'error', 'message']);
      assert.equal(refused.body.statusCode, 429);
      assert.equal(refused.body.error, 'RATE_LIMITED');
      assert.match(refused.body.message, new RegExp(`^RATE_LIMITED: .*\\b${c.limit} requests per second`));
    });
  }

  it('refills with the clock: one token per 1/limit s, a full bucket after a second, never more', async () => {
    const key = org.keys.live;
    for (let i = 0; i < 10; i++) await app.request('GET', '/api/v1/cards', { key });
    assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 429);

    app.clock.advance(99);
    assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 429, 'not yet a whole token');
    app.clock.advance(1);
    const one = await app.request('GET', '/api/v1/cards', { key });
    assert.equal(one.status, 200, 'a token after 100 ms');
    assert.equal(remainingOf(one), 0);
    assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 429);

    app.clock.advance(5_000); // far longer than a second: the bucket holds at most `limit`
    let allowed = 0;
    for (let i = 0; i < 12; i++) if ((await app.request('GET', '/api/v1/cards', { key })).status === 200) allowed++;
    assert.equal(allowed, 10);
  });

  it('counts per key: one key at its limit leaves the org’s other keys alone', async () => {
    for (let i = 0; i < 10; i++) await app.request('GET', '/api/v1/cards', { key: org.keys.live });
    assert.equal((await app.request('GET', '/api/v1/cards', { key: org.keys.live })).status, 429);
    const legacy = await app.request('GET', '/api/v1/cards', { key: org.keys.legacy });
    assert.equal(legacy.status, 200);
    assert.equal(remainingOf(legacy), 9);
  });

  // Every response of /api carries the headers, whatever its status.
  const everyResponse: { name: string; method: string; path: (o: StandardOrg) => string; key?: (o: StandardOrg) => string; body?: unknown; status: number; limit: number }[] = [
    { name: '200', method: 'GET', path: () => '/api/v1/cards', key: (o) => o.keys.test, status: 200, limit: 5 },
    { name: '400 VALIDATION_FAILED', method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, key: (o) => o.keys.live, body: { x: 1 }, status: 400, limit: 10 },
    { name: '403 missing scope', method: 'GET', path: () => '/api/v1/cards', key: (o) => o.keys.reader, status: 403, limit: 10 },
    { name: '404 CARD_NOT_FOUND', method: 'PATCH', path: () => '/api/v1/cards/card_nope', key: (o) => o.keys.live, body: { identifierQuestionKey: null }, status: 404, limit: 10 },
    { name: '401 without a key (per-address limit)', method: 'GET', path: () => '/api/v1/cards', status: 401, limit: 3 },
    { name: '404 ROUTE_NOT_FOUND (per-address limit)', method: 'GET', path: () => '/api/v1/nothing', key: (o) => o.keys.live, status: 404, limit: 3 },
    { name: '405 (per-address limit)', method: 'DELETE', path: () => '/api/v1/cards', key: (o) => o.keys.live, status: 405, limit: 3 },
    { name: 'the OpenAPI document (per-address limit)', method: 'GET', path: () => '/api/openapi.json', status: 200, limit: 3 },
  ];
  for (const c of everyResponse) {
    it(`X-RateLimit-Limit and X-RateLimit-Remaining on a ${c.name} response`, async () => {
      const res = await app.request(c.method, c.path(org), { key: c.key?.(org), body: c.body });
      assert.equal(res.status, c.status, res.text);
      assert.equal(limitOf(res), c.limit);
      assert.equal(remainingOf(res), c.limit - 1);
    });
  }

  it('the rate limit comes before the scope check', async () => {
    const key = org.keys.reader; // live, customers:read only
    for (let i = 0; i < 10; i++) assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 403);
    const res = await app.request('GET', '/api/v1/cards', { key });
    assert.equal(res.status, 429);
  });

  it('requests without a valid key are limited per client address', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await app.request('GET', '/api/v1/cards', { headers: { 'X-Api-Key': 'guess' } })).status, 401);
    const refused = await app.request('GET', '/api/v1/cards', { headers: { 'X-Api-Key': 'guess' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'RATE_LIMITED');
    assert.match(refused.body.message, /\b3 requests per second/);
    assert.equal(refused.headers.get('retry-after'), '1');

    // A valid key is not held back by its address's anonymous bucket …
    assert.equal((await app.request('GET', '/api/v1/cards', { key: org.keys.live })).status, 200);
    // … and another client address has its own bucket.
    const fromOther = await getFrom('127.0.0.2', `${app.url}/api/v1/cards`);
    assert.equal(fromOther.status, 401);
    assert.equal(fromOther.remaining, '2');
  });
});

/** A GET sent from a chosen loopback source address (fetch cannot choose one). */
function getFrom(localAddress: string, url: string): Promise<{ status: number; remaining: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, remaining: res.headers['x-ratelimit-remaining'] as string | undefined }));
    });
    req.on('error', reject);
  });
}

// Behind the reverse proxy the README recommends, every client reaches the server from the
// proxy's address: without a way to trust X-Forwarded-For, all unauthenticated traffic (bad-key
// API calls, install pages, every open web pass polling its balance) shares one bucket.
describe('client addresses behind a reverse proxy', () => {
  const anonymous = (app: TestApp, forwardedFor: string) => app.request('GET', '/api/v1/cards', { headers: { 'X-Api-Key': 'guess', 'X-Forwarded-For': forwardedFor } });

  it('TRUST_PROXY=true tells clients apart by the address the proxy appended to X-Forwarded-For', async () => {
    const app = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '2', TRUST_PROXY: 'true' } });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await anonymous(app, '203.0.113.7')).status, 401);
      assert.equal((await anonymous(app, '203.0.113.7')).status, 429);
      assert.equal((await anonymous(app, '203.0.113.8')).status, 401, 'another client has its own bucket');
      // A client cannot choose its bucket: the proxy appends the real address, and that one counts.
      assert.equal((await anonymous(app, '198.51.100.1, 203.0.113.7')).status, 429);
    } finally {
      await app.close();
    }
  });

  it('without TRUST_PROXY the header is ignored: a client cannot escape its bucket by sending it', async () => {
    const app = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '2' } });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await anonymous(app, `203.0.113.${i}`)).status, 401);
      assert.equal((await anonymous(app, '203.0.113.99')).status, 429);
    } finally {
      await app.close();
    }
  });
});
