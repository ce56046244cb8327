import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { startReceiver, type Receiver } from './support/receiver';
import { createEndpoint, startWebhookApp, type WebhookTestApp } from './support/webhooks';
import { consentRepo } from '../src/customers/consent-repo';
import { mergeSearchIndexIfErased, searchMergeDue, searchMergeIdle } from '../src/privacy/search-merge';

// DELETE /api/v1/customers/{ref}: the right to erasure
// (docs/customer-data.md#deleting-personal-data-erasure). The personal values go from every table
// and from the database file; the ledger stays, the pass is voided, integrators hear it.

describe('DELETE /v1/customers/{ref}: erasure', () => {
  let app: WebhookTestApp;
  let org: StandardOrg;
  let receiver: Receiver;
  let n = 0;
  before(async () => {
    app = await startWebhookApp();
    org = seedStandardOrg(app);
    receiver = await startReceiver();
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  const api = (method: string, path: string, body?: unknown, key = org.keys.live) => app.request(method, `/api/v1${path}`, { key, ...(body === undefined ? {} : { body }) });
  /** A customer with every kind of personal value, a balance and an idempotent write behind them. */
  async function customer(tag = `${++n}`, shop = org, name = `Zebedee Quixotic${tag}`) {
    const person = {
      externalCustomerId: `crm-erase-${tag}`,
      name,
      email: `zebedee.q${tag}@example.org`,
      phone: `+44 20 7946 09${String(n).padStart(2, '0')}`,
    };
    const res = await app.request('POST', '/api/v1/customers', {
      key: shop.keys.live,
      headers: { 'Idempotency-Key': `enroll-${tag}` },
      body: { ...person, cardId: shop.cards.stamps, customFields: { memberNo: 4711, altEmail: `other.quixotic${tag}@example.net`, nickname: `Zeb${tag}` } },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal((await api('POST', `/customers/${person.externalCustomerId}/earn`, { type: 'stamps', amount: 3 }, shop.keys.live)).status, 201);
    return { ...person, passUserId: res.body.passUserId as string, installUrl: res.body.installUrl as string };
  }

  /** The database file and its WAL, as bytes, after the WAL's pages are copied into the file. */
  function fileBytes(): Buffer {
    app.db.pragma('wal_checkpoint(TRUNCATE)');
    const wal = (() => {
      try {
        return readFileSync(`${app.config.dbFile}-wal`);
      } catch {
        return Buffer.alloc(0);
      }
    })();
    return Buffer.concat([readFileSync(app.config.dbFile), wal]);
  }

  it('answers the passUserId; afterwards every ref of the customer is 404 and the ledger stays, anonymous', async () => {
    const c = await customer();
    // As the sign-up form records it: the agreement's wording and when it was ticked.
    const consent = consentRepo(app.db).record('I agree to the loyalty terms.', 1);
    app.db.prepare('UPDATE customers SET consent_sha256 = ?, consent_at = 1 WHERE id = ?').run(consent, c.passUserId);
    const res = await api('DELETE', `/customers/${c.externalCustomerId}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { passUserId: c.passUserId, deleted: true });

    for (const ref of [`pu_${c.passUserId}`, c.externalCustomerId, `email:${c.email}`, `phone:${encodeURIComponent(c.phone)}`]) {
      const read = await api('GET', `/customers/${ref}`);
      assert.equal(read.status, 404, ref);
      assert.match(read.body.message, /^CUSTOMER_NOT_FOUND/);
    }
    assert.equal((await api('GET', `/customers/pu_${c.passUserId}/transactions`)).status, 404);
    assert.equal((await api('POST', `/customers/pu_${c.passUserId}/earn`, { type: 'stamps', amount: 1 })).status, 404);
    assert.equal((await api('GET', `/customers/lookup?email=${encodeURIComponent(c.email)}`)).status, 404);
    const again = await api('DELETE', `/customers/pu_${c.passUserId}`);
    assert.equal(again.status, 404, 'a repeat: the customer is gone');

    const row = app.db.prepare('SELECT * FROM customers WHERE id = ?').get(c.passUserId) as Record<string, unknown>;
    for (const column of ['external_id', 'name', 'email', 'email_norm', 'phone', 'phone_norm', 'consent_sha256', 'consent_at']) assert.equal(row[column], null, column);
    assert.equal(row.custom_fields, '{}');
    assert.equal(typeof row.erased_at, 'number');
    const ledger = app.db.prepare('SELECT kind, change FROM transactions WHERE customer_id = ? ORDER BY created_at').all(c.passUserId);
    assert.deepEqual(ledger, [{ kind: 'earn', change: 300 }], 'the ledger stays for the books');
  });

  it('the install link and the web pass say the card was removed; the old codes open nothing', async () => {
    const c = await customer();
    const code = new URL(c.installUrl).searchParams.get('code')!;
    assert.equal((await app.request('GET', `/pass/${code}`)).status, 200);
    assert.equal((await api('DELETE', `/customers/pu_${c.passUserId}`)).status, 200);

    const install = await app.request('GET', new URL(c.installUrl).pathname + new URL(c.installUrl).search);
    assert.equal(install.status, 410);
    assert.match(install.text, /This card was removed/);
    const pass = await app.request('GET', `/pass/${code}`);
    assert.equal(pass.status, 410);
    assert.match(pass.text, /This card was removed/);
    const balance = await app.request('GET', `/pass/${code}/balance`);
    assert.equal(balance.status, 410);
    assert.match(balance.body.message, /^PASS_REMOVED/);
    // Another customer's wrong code stays "not found": only the erased card's own old code says "removed".
    assert.equal((await app.request('GET', `/pass/${code.slice(0, -1)}x`)).status, 404);
  });

  it('sends customer.deleted with the values before the erasure; earlier events no longer carry the external id', async () => {
    const endpoint = await createEndpoint(app, org.keys.live, receiver.url, ['customer.deleted', 'customer.enrolled']);
    const c = await customer();
    await app.worker.idle();
    const before = receiver.requests.length;
    assert.equal((await api('DELETE', `/customers/pu_${c.passUserId}`)).status, 200);
    await app.worker.idle();
    const sent = receiver.requests.slice(before).map((r) => JSON.parse(r.body));
    assert.equal(sent.length, 1);
    assert.equal(sent[0].type, 'customer.deleted');
    assert.deepEqual(sent[0].data, { passUserId: c.passUserId, externalCustomerId: c.externalCustomerId, cardId: org.cards.stamps });

    const enrolled = app.db.prepare("SELECT payload FROM events WHERE customer_id = ? AND type = 'customer.enrolled'").get(c.passUserId) as { payload: string };
    assert.equal(JSON.parse(enrolled.payload).data.externalCustomerId, null, 'a replay of the old event names nobody');
    assert.equal(JSON.parse(enrolled.payload).data.passUserId, c.passUserId);
    const deleted = app.db.prepare("SELECT payload FROM events WHERE customer_id = ? AND type = 'customer.deleted'").get(c.passUserId) as { payload: string };
    assert.equal(JSON.parse(deleted.payload).data.externalCustomerId, c.externalCustomerId, 'kept while an endpoint must receive it');
    assert.ok(endpoint.id);
  });

  it('leaves no trace of the personal values in the database file', async () => {
    // A shop without endpoints: customer.deleted has nobody to tell, so it keeps no external id either.
    const shop = seedStandardOrg(app, 'Shop without webhooks');
    // Words no other customer shares a beginning with: the search index stores a word after the
    // letters it shares with the one before it, so the test looks for the rest of each word.
    const c = await customer('file', shop, 'Xanthippe Wobblesworth');
    const values = [c.email, c.name, c.externalCustomerId, 'other.quixoticfile@example.net', 'Zebfile', c.phone.replace(/\s/g, '')];
    // The check can fail: before the erasure each value is in the file.
    const beforeBytes = fileBytes();
    for (const value of [c.email, c.externalCustomerId, 'other.quixoticfile@example.net', 'anthippe', 'obblesworth']) assert.ok(beforeBytes.includes(value), `${value} is in the file before`);

    assert.equal((await api('DELETE', `/customers/email:${c.email}`, undefined, shop.keys.live)).status, 200);
    // The search index drops the words in a merge that runs in steps after the answer.
    await searchMergeIdle(app.db);
    const bytes = fileBytes();
    for (const value of values) assert.ok(!bytes.includes(value), `${value} left the file`);
    for (const rest of ['anthippe', 'obblesworth']) assert.ok(!bytes.includes(rest), `nor the word ending in ${rest}, in the search index`);
  });

  it('the search index is merged in steps after the answer; a start finishes a merge a stop cut short', async () => {
    const c = await customer('steps');
    const lines: { msg: string; steps?: number }[] = [];
    const log = { ...app.deps.log, info: (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, ...fields }) };
    assert.equal((await app.request('DELETE', `/api/v1/customers/pu_${c.passUserId}`, { key: org.keys.live })).status, 200);
    await searchMergeIdle(app.db);
    // Nothing erased since that merge: the nightly run has nothing to do.
    assert.equal(mergeSearchIndexIfErased({ ...app.deps, log }), 'nothing erased since the last merge');
    // The rule a start follows (no whole merge yet in that process): any erasure of the last 7 days.
    const day = 86_400_000;
    const now = 100 * day;
    for (const [latest, merged, due] of [
      [null, undefined, false],
      [now - 1000, undefined, true],
      [now - 6 * day, undefined, true],
      [now - 8 * day, undefined, false],
      [now - 1000, now - 2000, true],
      [now - 3000, now - 2000, false],
      [now - 2000, now - 2000, false],
    ] as const) {
      assert.equal(searchMergeDue(latest, merged, now), due, `latest ${latest}, merged ${merged}`);
    }
  });

  it('refuses what it must: an unknown ref 404, a read-only key 403, ambiguity 409, nothing written', async () => {
    const unknown = await api('DELETE', '/customers/nobody-here');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.message, /^CUSTOMER_NOT_FOUND/);
    const c = await customer();
    const forbidden = await api('DELETE', `/customers/${c.externalCustomerId}`, undefined, org.keys.reader);
    assert.equal(forbidden.status, 403);
    assert.equal((await api('GET', `/customers/${c.externalCustomerId}`)).status, 200, 'still there');
    // One email on two cards: the ref names two people, so neither is erased.
    const shared = `shared.${++n}@example.org`;
    for (const card of [org.cards.points, org.cards.stamps]) {
      assert.equal((await api('POST', '/customers', { externalCustomerId: `twin-${card}-${n}`, cardId: card, name: 'Twin', email: shared })).status, 201);
    }
    const ambiguous = await api('DELETE', `/customers/email:${shared}`);
    assert.equal(ambiguous.status, 409);
    assert.match(ambiguous.body.message, /^AMBIGUOUS_CUSTOMER_MATCH/);
    assert.equal((await app.db.prepare('SELECT count(*) AS n FROM customers WHERE email = ? AND erased_at IS NULL').get(shared) as { n: number }).n, 2, 'both still there');
    const body = await app.request('DELETE', `/api/v1/customers/${c.externalCustomerId}`, { key: org.keys.live, body: { reason: 'x' } });
    assert.equal(body.status, 200, 'DELETE reads no body');
  });

  it('is in the OpenAPI document under customers:write', async () => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const op = doc.paths['/api/v1/customers/{ref}'].delete;
    assert.equal(op['x-required-scope'], 'customers:write');
    assert.deepEqual(op.responses['200'].content['application/json'].schema.required.sort(), ['deleted', 'passUserId']);
    assert.ok(op.responses['404'].description.includes('CUSTOMER_NOT_FOUND'));
    assert.ok(!op.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
  });
});
