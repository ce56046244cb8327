import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createApiKey } from '../src/keys/service';
import { revokeApiKey } from '../src/keys/admin';
import { hashKey } from '../src/keys/key-format';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { runCli } from './support/cli';

// Authentication (docs/api.md#keys-modes-and-scopes): X-Api-Key, key modes, revocation, scopes, last_used_at.

describe('API keys', () => {
  let app: TestApp;
  let org: StandardOrg;
  let revoked: string;
  let wrongMode: string;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    const key = createApiKey(app.deps, { orgId: org.orgId, deviceName: 'old till', mode: 'live' });
    revokeApiKey(app.deps, key.id);
    revoked = key.key;
    // A real key with its mode segment flipped: well-formed, but no such key exists.
    wrongMode = org.keys.live.replace('psk_live_', 'psk_test_');
  });
  after(() => app.close());

  const unauthorized: { name: string; headers: Record<string, string>; message: string }[] = [
    { name: 'no header', headers: {}, message: 'MISSING_API_KEY' },
    { name: 'an empty header', headers: { 'X-Api-Key': '' }, message: 'MISSING_API_KEY' },
    { name: 'only spaces', headers: { 'X-Api-Key': '   ' }, message: 'MISSING_API_KEY' },
    { name: 'a malformed key', headers: { 'X-Api-Key': 'hello' }, message: 'INVALID_API_KEY' },
    { name: 'a bearer token instead', headers: { 'X-Api-Key': 'Bearer abc' }, message: 'INVALID_API_KEY' },
    { name: 'a well-formed unknown live key', headers: { 'X-Api-Key': `psk_live_${'A'.repeat(32)}` }, message: 'INVALID_API_KEY' },
    { name: 'a well-formed unknown legacy key', headers: { 'X-Api-Key': `psk_${'a'.repeat(40)}` }, message: 'INVALID_API_KEY' },
    { name: 'a key truncated by one character', headers: {}, message: 'INVALID_API_KEY' },
    { name: 'a revoked key', headers: {}, message: 'INVALID_API_KEY' },
    { name: 'a real key with another mode segment', headers: {}, message: 'INVALID_API_KEY' },
    { name: 'the key in Authorization instead of X-Api-Key', headers: {}, message: 'MISSING_API_KEY' },
  ];
  const dynamicHeaders = (name: string): Record<string, string> => {
    if (name === 'a key truncated by one character') return { 'X-Api-Key': org.keys.live.slice(0, -1) };
    if (name === 'a revoked key') return { 'X-Api-Key': revoked };
    if (name === 'a real key with another mode segment') return { 'X-Api-Key': wrongMode };
    if (name === 'the key in Authorization instead of X-Api-Key') return { Authorization: `Bearer ${org.keys.live}` };
    return {};
  };
  for (const c of unauthorized) {
    it(`401 for ${c.name}, with the documented body`, async () => {
      const res = await app.request('GET', '/api/v1/cards', { headers: { ...c.headers, ...dynamicHeaders(c.name) } });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { statusCode: 401, error: 'Unauthorized', message: c.message });
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    });
  }

  const modes: { name: string; key: (o: StandardOrg) => string; cardsStatus: number; patchStatus: number }[] = [
    { name: 'a live key (psk_live_…) reads and may change a card', key: (o) => o.keys.live, cardsStatus: 200, patchStatus: 200 },
    { name: 'a test key (psk_test_…) reads but is refused the live-only change', key: (o) => o.keys.test, cardsStatus: 200, patchStatus: 400 },
    { name: 'a legacy key (psk_<hex>) is a live key', key: (o) => o.keys.legacy, cardsStatus: 200, patchStatus: 200 },
  ];
  for (const c of modes) {
    it(`mode: ${c.name}`, async () => {
      const key = c.key(org);
      const list = await app.request('GET', '/api/v1/cards', { key });
      assert.equal(list.status, c.cardsStatus);
      assert.equal(list.body.length, 4);
      const patch = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key, body: { identifierQuestionKey: null } });
      assert.equal(patch.status, c.patchStatus, patch.text);
      if (c.patchStatus === 400) assert.match(patch.body.message, /^NOT_AVAILABLE_IN_TEST_MODE/);
    });
  }

  it('keys are psk_live_…, psk_test_… or the legacy psk_<hex>', () => {
    assert.match(org.keys.live, /^psk_live_[0-9A-Za-z]{32}$/);
    assert.match(org.keys.test, /^psk_test_[0-9A-Za-z]{32}$/);
    assert.match(org.keys.legacy, /^psk_[0-9a-f]{40}$/);
  });

  it('stores only a SHA-256 of each key, never the raw key', () => {
    const rows = app.db.prepare('SELECT * FROM api_keys WHERE org_id = ?').all(org.orgId) as Record<string, unknown>[];
    const dump = JSON.stringify(rows);
    for (const raw of Object.values(org.keys)) assert.ok(!dump.includes(raw), 'raw key stored');
    for (const row of rows) assert.match(String(row.key_hash), /^[0-9a-f]{64}$/);
  });

  const scopeCases: { name: string; scopes: string[]; method: string; path: (o: StandardOrg) => string; body?: unknown; missing?: string }[] = [
    { name: 'cards:read lists cards', scopes: ['cards:read'], method: 'GET', path: () => '/api/v1/cards' },
    { name: 'no cards:read: 403', scopes: ['customers:read', 'cards:write'], method: 'GET', path: () => '/api/v1/cards', missing: 'cards:read' },
    { name: 'cards:write changes a card', scopes: ['cards:write'], method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, body: { identifierQuestionKey: null } },
    { name: 'no cards:write: 403', scopes: ['cards:read'], method: 'PATCH', path: (o) => `/api/v1/cards/${o.cards.stamps}`, body: { identifierQuestionKey: null }, missing: 'cards:write' },
  ];
  for (const c of scopeCases) {
    it(`scopes: ${c.name}`, async () => {
      const key = createApiKey(app.deps, { orgId: org.orgId, deviceName: `scoped ${c.name}`, scopes: c.scopes as never }).key;
      const res = await app.request(c.method, c.path(org), { key, body: c.body });
      if (c.missing) {
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, { statusCode: 403, error: 'Forbidden', message: `Missing scope(s): ${c.missing}` });
      } else {
        assert.equal(res.status, 200, res.text);
      }
    });
  }

  // Valid keys are cached (keys/service.ts); revocation must still hold from the very next request.
  it('a key revoked after it was used is refused on its very next request', async () => {
    const key = createApiKey(app.deps, { orgId: org.orgId, deviceName: 'revoked in use' });
    assert.equal((await app.request('GET', '/api/v1/cards', { key: key.key })).status, 200);
    assert.equal((await app.request('GET', '/api/v1/cards', { key: key.key })).status, 200);
    revokeApiKey(app.deps, key.id);
    const res = await app.request('GET', '/api/v1/cards', { key: key.key });
    assert.equal(res.status, 401);
    assert.equal(res.body.message, 'INVALID_API_KEY');
  });

  it('a key revoked by `wallet-loyalty key revoke` in another process is refused on its very next request', async () => {
    const key = createApiKey(app.deps, { orgId: org.orgId, deviceName: 'revoked by the operator' });
    assert.equal((await app.request('GET', '/api/v1/cards', { key: key.key })).status, 200);
    const cli = await runCli(['key', 'revoke', key.id, '--data', app.config.dataDir]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal((await app.request('GET', '/api/v1/cards', { key: key.key })).status, 401);
    assert.equal((await app.request('GET', '/api/v1/cards', { key: org.keys.live })).status, 200, 'other keys still work');
  });

  // The gate remembers the last key of each connection (http/gate.ts). Behind a reverse proxy one
  // connection carries many clients: each request must still be answered for its own key.
  it('one kept-alive connection carrying several keys answers each request for its own key', async () => {
    const other = seedStandardOrg(app, 'Next door');
    const soonRevoked = createApiKey(app.deps, { orgId: org.orgId, deviceName: 'revoked mid-connection' });
    const lastCharFlipped = org.keys.live.slice(0, -1) + (org.keys.live.endsWith('A') ? 'B' : 'A');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const cardsWith = (key: string) =>
      new Promise<{ status: number; cardIds: string[] }>((resolve, reject) => {
        const req = http.get(`${app.url}/api/v1/cards`, { agent, headers: { 'X-Api-Key': key } }, (res) => {
          sockets.add(res.socket);
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => {
            const body = JSON.parse(text) as unknown;
            const cards = Array.isArray(body) ? (body as { cardId: string }[]) : [];
            resolve({ status: res.statusCode!, cardIds: cards.map((card) => card.cardId).sort() });
          });
        });
        req.on('error', reject);
      });
    const cardsOf = (o: StandardOrg) => Object.values(o.cards).sort();
    const steps: { name: string; key: () => string; before?: () => void; status: number; cards?: () => string[] }[] = [
      { name: 'the first key', key: () => org.keys.live, status: 200, cards: () => cardsOf(org) },
      { name: 'another org\'s key', key: () => other.keys.live, status: 200, cards: () => cardsOf(other) },
      { name: 'the first key again', key: () => org.keys.live, status: 200, cards: () => cardsOf(org) },
      { name: 'the first key with its last character changed', key: () => lastCharFlipped, status: 401 },
      { name: 'the first key after the wrong one', key: () => org.keys.live, status: 200, cards: () => cardsOf(org) },
      { name: 'a key of the same org', key: () => soonRevoked.key, status: 200, cards: () => cardsOf(org) },
      { name: 'that key once revoked', key: () => soonRevoked.key, before: () => revokeApiKey(app.deps, soonRevoked.id), status: 401 },
    ];
    try {
      for (const step of steps) {
        step.before?.();
        const res = await cardsWith(step.key());
        assert.equal(res.status, step.status, step.name);
        if (step.cards) assert.deepEqual(res.cardIds, step.cards(), step.name);
      }
    } finally {
      agent.destroy();
    }
    assert.equal(sockets.size, 1, 'every request went over one connection');
  });

  it('a key made without scopes has all six', async () => {
    const row = app.db.prepare("SELECT scopes FROM api_keys WHERE org_id = ? AND device_name = 'live'").get(org.orgId) as { scopes: string };
    assert.deepEqual(JSON.parse(row.scopes).sort(), ['cards:read', 'cards:write', 'customers:read', 'customers:write', 'loyalty:write', 'webhooks:manage']);
  });

  it('a key never reaches another org: the same card id is 403 CARD_NOT_IN_ORG', async () => {
    const other = seedStandardOrg(app, 'Elsewhere');
    const res = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: other.keys.live, body: { identifierQuestionKey: null } });
    assert.equal(res.status, 403);
    assert.match(res.body.message, /^CARD_NOT_IN_ORG/);
  });
});

describe('last_used_at', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  const lastUsed = (raw: string): number | null => {
    const row = app.db.prepare('SELECT last_used_at FROM api_keys WHERE key_hash = ?').get(hashKey(raw)) as { last_used_at: number | null } | undefined;
    assert.ok(row, 'key row');
    return row.last_used_at;
  };

  it('is set on first use, kept within a minute, refreshed after it — not written on every request', async () => {
    const key = org.keys.live;
    assert.equal(lastUsed(key), null);
    const start = app.clock.now();

    await app.request('GET', '/api/v1/cards', { key });
    assert.equal(lastUsed(key), start);

    const changesBefore = (app.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    for (let i = 0; i < 5; i++) {
      app.clock.advance(10_000);
      assert.equal((await app.request('GET', '/api/v1/cards', { key })).status, 200);
    }
    assert.equal(lastUsed(key), start, 'within a minute the stored time stays');
    const changesAfter = (app.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    assert.equal(changesAfter, changesBefore, 'five authenticated reads wrote nothing');

    app.clock.advance(10_000); // 60 s after the first use
    await app.request('GET', '/api/v1/cards', { key });
    assert.equal(lastUsed(key), start + 60_000);
  });

  it('waits like any write while another process holds the write lock: the read is answered, not failed', async () => {
    const key = org.keys.legacy;
    assert.equal(lastUsed(key), null);
    // As the CLI may: another connection holds the write lock for 300 ms.
    const holder = spawn(process.execPath, ['-e', `
      const db = new (require('better-sqlite3'))(process.argv[1]);
      db.pragma('busy_timeout = 5000');
      db.exec('BEGIN IMMEDIATE');
      db.prepare('UPDATE orgs SET name = name').run();
      console.log('locked');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      db.exec('COMMIT');
    `, app.config.dbFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const res = await app.request('GET', '/api/v1/cards', { key });
    await new Promise((resolve) => holder.once('exit', resolve));
    assert.equal(res.status, 200, res.text);
    assert.equal(lastUsed(key), app.clock.now(), 'written once the lock was released');
  });

  it('is not touched by a refused request', async () => {
    const key = org.keys.test;
    await app.request('GET', '/api/v1/cards', { headers: { 'X-Api-Key': key.slice(0, -1) } });
    assert.equal(lastUsed(key), null);
  });
});
