import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { runJob } from '../src/jobs/jobs';
import { serverJobs } from '../src/jobs/list';

import { silentLogger } from './support/fakes';
import { NO_WORKERS, seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { count, enroll, ledgerOf, snapshot, subscribeToEvery } from './support/customers';

describe('idempotency of POST /v1/customers and PATCH /v1/customers/{ref}', () => {
  let app: TestApp;
  let org: StandardOrg;
  let n = 0;
  const uid = (p = 'idem') => `${p}-${++n}`;
  const patch = (ref: string, body: unknown, key: string) => app.request('PATCH', `/api/v1/customers/${ref}`, { key: org.keys.live, body, headers: { 'Idempotency-Key': key } });
  const sweepIdempotency = () => runJob(serverJobs(app.deps, NO_WORKERS).find((j) => j.name === 'idempotency-sweep')!, silentLogger);
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    subscribeToEvery(app, org.orgId);
  });
  after(() => app.close());

  it('enroll: a retry returns the first response byte for byte with Idempotent-Replayed: true and writes once', async () => {
    const key = uid('key');
    const body = { externalCustomerId: uid(), cardId: org.cards.points, initialPoints: 10, email: 'idem@example.com' };
    const first = await enroll(app, org.keys.live, body, key);
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('Idempotent-Replayed'), null);
    const before = snapshot(app.db);
    const again = await enroll(app, org.keys.live, { email: 'idem@example.com', initialPoints: 10, cardId: org.cards.points, externalCustomerId: body.externalCustomerId }, key);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.equal(again.text, first.text, 'byte-identical, whatever the key order of the retried body');
    assert.deepEqual(snapshot(app.db), before, 'applied once');
    assert.deepEqual(ledgerOf(app.db, first.body.passUserId).map((r) => [r.kind, r.idempotencyKey]), [['initial', key]], 'the ledger row carries the key');
  });

  it('enroll: a refusal is kept and replayed too (409 EXTERNAL_ID_ON_OTHER_CARD)', async () => {
    const id = uid();
    await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps });
    const key = uid('key');
    const first = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.points }, key);
    const again = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.points }, key);
    assert.deepEqual([first.status, again.status, again.headers.get('Idempotent-Replayed')], [409, 409, 'true']);
    assert.equal(again.text, first.text);
  });

  it('PATCH: a retry is replayed byte for byte and writes once, even after the customer changed', async () => {
    const id = uid();
    await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps });
    const key = uid('key');
    const first = await patch(id, { customFields: { nickname: 'A' } }, key);
    assert.deepEqual([first.status, first.body.updated], [200, ['customFields']]);
    await patch(id, { customFields: { nickname: 'B' } }, uid('key'));
    const again = await patch(id, { customFields: { nickname: 'A' } }, key);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.equal(again.text, first.text);
    const read = await app.request('GET', `/api/v1/customers/${id}`, { key: org.keys.live });
    assert.equal(read.body.customFields.nickname, 'B', 'the replay did not write A again');
  });

  it('a 403 (CARD_NOT_IN_ORG) is not kept: the same key then runs the corrected request', async () => {
    const other = seedStandardOrg(app, 'Elsewhere');
    const key = uid('key');
    const id = uid();
    const refused = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: other.cards.stamps }, key);
    const again = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: other.cards.stamps }, key);
    assert.deepEqual([refused.status, again.status, again.headers.get('Idempotent-Replayed')], [403, 403, null], 'run again, not replayed');
    const corrected = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps }, key);
    assert.deepEqual([corrected.status, corrected.body.result, corrected.headers.get('Idempotent-Replayed')], [201, 'created', null]);
  });

  it('a 5xx is not kept and leaves nothing behind: the retry with the same key runs again', async () => {
    const key = uid('key');
    const body = { externalCustomerId: uid('boom'), cardId: org.cards.points, initialPoints: 3 };
    // An unexpected failure inside the write: the insert aborts, as a full disk or a bug would.
    app.db.exec(`CREATE TRIGGER fail_once BEFORE INSERT ON customers WHEN NEW.external_id = '${body.externalCustomerId}' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    const before = snapshot(app.db);
    const failed = await enroll(app, org.keys.live, body, key);
    app.db.exec('DROP TRIGGER fail_once');
    assert.equal(failed.status, 500);
    assert.doesNotMatch(failed.text, /disk on fire/, 'no internals in the answer');
    assert.deepEqual(snapshot(app.db), before, 'nothing written');
    const retry = await enroll(app, org.keys.live, body, key);
    assert.deepEqual([retry.status, retry.body.result, retry.headers.get('Idempotent-Replayed')], [201, 'created', null]);
    const replay = await enroll(app, org.keys.live, body, key);
    assert.deepEqual([replay.headers.get('Idempotent-Replayed'), replay.text], ['true', retry.text], 'the success is kept');
  });

  const reuseCases: { name: string; first: () => Promise<unknown>; second: () => Promise<{ status: number; body: any; headers: Headers }> }[] = [
    {
      name: 'enroll with another body',
      first: () => enroll(app, org.keys.live, { externalCustomerId: 'reuse-1', cardId: org.cards.stamps }, 'reuse-key-1'),
      second: () => enroll(app, org.keys.live, { externalCustomerId: 'reuse-2', cardId: org.cards.stamps }, 'reuse-key-1'),
    },
    {
      name: 'PATCH with another body',
      first: () => patch('reuse-1', { customFields: { nickname: 'x' } }, 'reuse-key-2'),
      second: () => patch('reuse-1', { customFields: { nickname: 'y' } }, 'reuse-key-2'),
    },
    {
      name: 'PATCH with another customer (path)',
      first: async () => {
        await enroll(app, org.keys.live, { externalCustomerId: 'reuse-3', cardId: org.cards.stamps });
        return patch('reuse-1', { customFields: { nickname: 'z' } }, 'reuse-key-3');
      },
      second: () => patch('reuse-3', { customFields: { nickname: 'z' } }, 'reuse-key-3'),
    },
  ];
  for (const c of reuseCases) {
    it(`422 IDEMPOTENCY_KEY_REUSED: ${c.name}, nothing written`, async () => {
      await c.first();
      const before = snapshot(app.db);
      const res = await c.second();
      assert.equal(res.status, 422);
      assert.match(res.body.message, /^IDEMPOTENCY_KEY_REUSED/);
      assert.deepEqual(snapshot(app.db), before);
    });
  }

  it('the same key in another mode or on the other endpoint is a different key', async () => {
    const key = uid('key');
    const live = await enroll(app, org.keys.live, { externalCustomerId: 'mode-key', cardId: org.cards.stamps }, key);
    const test = await enroll(app, org.keys.test, { externalCustomerId: 'mode-key', cardId: org.cards.stamps }, key);
    const other = await patch('mode-key', { customFields: { nickname: 'n' } }, key);
    assert.deepEqual([live.status, test.status, other.status], [201, 201, 200]);
    assert.equal(test.headers.get('Idempotent-Replayed'), null);
    assert.notEqual(test.body.passUserId, live.body.passUserId);
  });

  it('400 VALIDATION_FAILED for a key over 255 characters, nothing written', async () => {
    const before = snapshot(app.db);
    const res = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps }, 'k'.repeat(256));
    assert.equal(res.status, 400);
    assert.match(res.body.message, /^VALIDATION_FAILED: Idempotency-Key/);
    assert.deepEqual(snapshot(app.db), before);
  });

  it('a deeply nested customFields value under a key is the usual 400, never a 500 from fingerprinting the body', async () => {
    const id = uid();
    await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps });
    // 20,000 levels fit easily in a 64 KiB body.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const sends = [
      () => app.request('PATCH', `/api/v1/customers/${id}`, { key: org.keys.live, rawBody: `{"customFields":{"memberNo":${deep}}}`, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': uid('key') } }),
      () => app.request('POST', '/api/v1/customers', { key: org.keys.live, rawBody: `{"externalCustomerId":"${uid()}","cardId":"${org.cards.stamps}","customFields":{"memberNo":${deep}}}`, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': uid('key') } }),
    ];
    for (const send of sends) {
      const before = snapshot(app.db);
      const res = await send();
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, /^INVALID_CUSTOM_FIELD_VALUES: memberNo/);
      assert.deepEqual(snapshot(app.db), before);
    }
  });

  it('keys expire after 24 hours: the sweep removes them and the key runs afresh', async () => {
    const key = uid('key');
    const id = uid();
    const first = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps }, key);
    app.clock.advance(24 * 3600_000 - 1000);
    await sweepIdempotency();
    const stillKept = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps }, key);
    assert.equal(stillKept.status, 422, 'kept until 24 h have passed');

    app.clock.advance(2000);
    await sweepIdempotency();
    const rerun = await enroll(app, org.keys.live, { externalCustomerId: id, cardId: org.cards.stamps }, key);
    assert.equal(rerun.status, 201);
    assert.equal(rerun.headers.get('Idempotent-Replayed'), null, 'not a replay: the record was swept');
    assert.deepEqual([rerun.body.passUserId, rerun.body.result], [first.body.passUserId, 'matched']);
    const reused = await enroll(app, org.keys.live, { externalCustomerId: uid(), cardId: org.cards.stamps }, key);
    assert.equal(reused.status, 422, 'the new run stored its own record under the key');
  });

  it('409 IDEMPOTENCY_KEY_IN_USE while the first request with the key is still running; nothing written by the second', async () => {
    const key = uid('key');
    const body = JSON.stringify({ externalCustomerId: uid(), cardId: org.cards.stamps });
    // The first request announces its body and waits for "100 Continue": Node hands the request to
    // the app (which authenticates and claims the key) before that answer goes out, so once the
    // client sees it, the first request is provably in flight and holds the key.
    const { port } = new URL(app.url);
    const firstReq = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/api/v1/customers',
      headers: { 'X-Api-Key': org.keys.live, 'Idempotency-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
    });
    const firstDone = new Promise<{ status: number; text: string }>((resolve, reject) => {
      firstReq.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      firstReq.on('error', reject);
    });
    await new Promise<void>((resolve) => firstReq.on('continue', () => resolve()));

    const before = snapshot(app.db);
    const second = await app.request('POST', '/api/v1/customers', { key: org.keys.live, rawBody: body, headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' } });
    assert.equal(second.status, 409);
    assert.match(second.body.message, /^IDEMPOTENCY_KEY_IN_USE/);
    assert.deepEqual(snapshot(app.db), before);

    firstReq.end(body);
    const first = await firstDone;
    assert.equal(first.status, 201);
    const third = await app.request('POST', '/api/v1/customers', { key: org.keys.live, rawBody: body, headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' } });
    assert.deepEqual([third.status, third.headers.get('Idempotent-Replayed'), third.text], [201, 'true', first.text], 'the 409 was not kept: the retry gets the first answer');
  });

  it('50 concurrent identical enrolls create exactly one customer; the others replay or get 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const key = uid('key');
    const body = { externalCustomerId: uid(), cardId: org.cards.points, initialPoints: 5 };
    const customersBefore = count(app.db, 'customers');
    const responses = await Promise.all(Array.from({ length: 50 }, () => enroll(app, org.keys.live, body, key)));

    const created = responses.filter((r) => r.status === 201 && r.headers.get('Idempotent-Replayed') === null);
    const replayed = responses.filter((r) => r.status === 201 && r.headers.get('Idempotent-Replayed') === 'true');
    const inUse = responses.filter((r) => r.status === 409);
    assert.equal(created.length, 1, 'exactly one request ran the write');
    assert.equal(created.length + replayed.length + inUse.length, 50, `unexpected answers: ${responses.map((r) => r.status).join(',')}`);
    for (const r of replayed) assert.equal(r.text, created[0]!.text);
    for (const r of inUse) assert.match(r.body.message, /^IDEMPOTENCY_KEY_IN_USE/);
    assert.equal(count(app.db, 'customers') - customersBefore, 1);
    assert.equal(count(app.db, 'events', "customer_id = ? AND type = 'customer.enrolled'", created[0]!.body.passUserId), 1);
    assert.equal(ledgerOf(app.db, created[0]!.body.passUserId).length, 1);

    const later = await enroll(app, org.keys.live, body, key);
    assert.deepEqual([later.status, later.headers.get('Idempotent-Replayed'), later.text], [201, 'true', created[0]!.text]);
  });
});
