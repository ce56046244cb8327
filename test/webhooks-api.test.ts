import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { createEndpoint, produce, startWebhookApp, type WebhookTestApp } from './support/webhooks';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('webhook endpoints API', () => {
  let app: WebhookTestApp;
  let org: StandardOrg;
  let other: StandardOrg;
  before(async () => {
    app = await startWebhookApp();
    org = seedStandardOrg(app);
    other = seedStandardOrg(app, 'Other shop');
  });
  after(() => app.close());

  it('creates an endpoint: 201 with the record and a whsec_ secret shown only there', async () => {
    const res = await app.request('POST', '/api/v1/webhooks', { key: org.keys.live, body: { url: 'https://crm.example.com/hooks', events: ['balance.updated', 'customer.enrolled'] } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'events', 'id', 'livemode', 'secret', 'status', 'updatedAt', 'url']);
    assert.match(res.body.id, /^we_[0-9A-Za-z]{20}$/);
    assert.match(res.body.secret, /^whsec_[0-9A-Za-z]{32}$/);
    assert.equal(res.body.url, 'https://crm.example.com/hooks');
    assert.deepEqual(res.body.events, ['balance.updated', 'customer.enrolled']);
    assert.equal(res.body.status, 'active');
    assert.equal(res.body.livemode, true);
    assert.match(res.body.createdAt, ISO);
    assert.equal(res.body.createdAt, res.body.updatedAt);

    const one = await app.request('GET', `/api/v1/webhooks/${res.body.id}`, { key: org.keys.live });
    const list = await app.request('GET', '/api/v1/webhooks', { key: org.keys.live });
    const { secret: _secret, ...record } = res.body;
    assert.deepEqual(one.body, record);
    assert.ok(list.body.some((w: { id: string }) => w.id === res.body.id));
    assert.ok(!one.text.includes('whsec_') && !list.text.includes('whsec_'), 'the secret is never read back');
  });

  it('keeps modes and orgs apart: each key sees only its own mode’s endpoints', async () => {
    const live = await createEndpoint(app, org.keys.live, 'https://live.example.com/h');
    const test = await createEndpoint(app, org.keys.test, 'https://test.example.com/h');
    assert.equal(test.livemode, false);
    const ids = async (key: string) => (await app.request('GET', '/api/v1/webhooks', { key })).body.map((w: { id: string }) => w.id);
    assert.ok((await ids(org.keys.live)).includes(live.id));
    assert.ok(!(await ids(org.keys.live)).includes(test.id));
    assert.deepEqual(await ids(org.keys.test), [test.id]);
    assert.ok((await ids(org.keys.legacy)).includes(live.id), 'a legacy key is live');
    assert.deepEqual(await ids(other.keys.live), []);
    for (const [key, id] of [[org.keys.test, live.id], [org.keys.live, test.id], [other.keys.live, live.id]] as const) {
      for (const [method, path, body] of [['GET', `/api/v1/webhooks/${id}`], ['PATCH', `/api/v1/webhooks/${id}`, { status: 'disabled' }], ['DELETE', `/api/v1/webhooks/${id}`], ['GET', `/api/v1/webhooks/${id}/deliveries`]] as const) {
        const res = await app.request(method, path, { key, body });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.match(res.body.message, /^WEBHOOK_NOT_FOUND/);
      }
    }
    assert.equal((await app.request('GET', `/api/v1/webhooks/${live.id}`, { key: org.keys.live })).body.status, 'active', 'nothing was changed by the refused calls');
  });

  const createCases: { name: string; body: unknown; message: RegExp }[] = [
    { name: 'a relative url', body: { url: '/hooks', events: ['*'] }, message: /^VALIDATION_FAILED: url$/ },
    { name: 'an ftp url', body: { url: 'ftp://example.com/x', events: ['*'] }, message: /^VALIDATION_FAILED: url$/ },
    // A password in the URL would be read back by every GET and list, unlike the secret (shown once).
    { name: 'a url with a user name and password', body: { url: 'https://crm:hunter2@example.com/h', events: ['*'] }, message: /^VALIDATION_FAILED: url$/ },
    { name: 'a url with a user name', body: { url: 'https://token@example.com/h', events: ['*'] }, message: /^VALIDATION_FAILED: url$/ },
    { name: 'a url that is not a string', body: { url: 42, events: ['*'] }, message: /^VALIDATION_FAILED: url$/ },
    { name: 'no url', body: { events: ['*'] }, message: /^VALIDATION_FAILED: url$/ },
    { name: 'no events', body: { url: 'https://a.example.com' }, message: /^VALIDATION_FAILED: events$/ },
    { name: 'empty events', body: { url: 'https://a.example.com', events: [] }, message: /^VALIDATION_FAILED: events$/ },
    { name: 'an unknown event type', body: { url: 'https://a.example.com', events: ['balance.updated', 'customer.vanished'] }, message: /^VALIDATION_FAILED: events\[1\]$/ },
    { name: '"*" mixed with names', body: { url: 'https://a.example.com', events: ['*', 'balance.updated'] }, message: /^VALIDATION_FAILED: events$/ },
    { name: 'an unknown field', body: { url: 'https://a.example.com', events: ['*'], secret: 'mine' }, message: /^VALIDATION_FAILED: secret$/ },
  ];
  for (const c of createCases) {
    it(`POST /v1/webhooks refuses ${c.name} (400, nothing created)`, async () => {
      const before = await app.request('GET', '/api/v1/webhooks', { key: other.keys.test });
      const res = await app.request('POST', '/api/v1/webhooks', { key: other.keys.test, body: c.body });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, c.message);
      assert.ok(Array.isArray(res.body.issues) && res.body.issues.length > 0);
      assert.ok(!res.text.includes('hunter2'), 'a refused password is not echoed');
      assert.deepEqual((await app.request('GET', '/api/v1/webhooks', { key: other.keys.test })).body, before.body);
    });
  }

  it('accepts http and duplicate event names (kept once)', async () => {
    const res = await app.request('POST', '/api/v1/webhooks', { key: other.keys.test, body: { url: 'http://10.0.0.5:8080/till', events: ['reward.redeemed', 'reward.redeemed'] } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.events, ['reward.redeemed']);
    await app.request('DELETE', `/api/v1/webhooks/${res.body.id}`, { key: other.keys.test });
  });

  it('PATCH changes url, events and status, answers 200 with the record, and moves updatedAt', async () => {
    const created = await createEndpoint(app, org.keys.live, 'https://old.example.com/h', ['balance.updated']);
    app.clock.advance(5_000);
    const res = await app.request('PATCH', `/api/v1/webhooks/${created.id}`, { key: org.keys.live, body: { url: 'https://new.example.com/h', events: ['*'], status: 'disabled' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.url, 'https://new.example.com/h');
    assert.deepEqual(res.body.events, ['*']);
    assert.equal(res.body.status, 'disabled');
    assert.equal(Date.parse(res.body.updatedAt) - Date.parse(res.body.createdAt), 5_000);
    assert.equal(res.body.secret, undefined);
    const back = await app.request('PATCH', `/api/v1/webhooks/${created.id}`, { key: org.keys.live, body: { status: 'active' } });
    assert.equal(back.body.status, 'active');
    assert.equal(back.body.url, 'https://new.example.com/h', 'fields not sent stay as they were');
  });

  const patchCases: { name: string; body: unknown; message: RegExp }[] = [
    { name: 'an unknown status', body: { status: 'paused' }, message: /^VALIDATION_FAILED: status$/ },
    { name: 'a bad url', body: { url: 'not a url' }, message: /^VALIDATION_FAILED: url$/ },
    { name: 'a url with credentials', body: { url: 'https://crm:hunter2@example.com/h' }, message: /^VALIDATION_FAILED: url$/ },
    { name: 'empty events', body: { events: [] }, message: /^VALIDATION_FAILED: events$/ },
    { name: 'an unknown field', body: { secret: 'x' }, message: /^VALIDATION_FAILED: secret$/ },
  ];
  for (const c of patchCases) {
    it(`PATCH /v1/webhooks/{id} refuses ${c.name}`, async () => {
      const created = await createEndpoint(app, other.keys.live, 'https://p.example.com/h');
      const res = await app.request('PATCH', `/api/v1/webhooks/${created.id}`, { key: other.keys.live, body: c.body });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, c.message);
      const { secret: _s, ...record } = created as unknown as Record<string, unknown>;
      assert.deepEqual((await app.request('GET', `/api/v1/webhooks/${created.id}`, { key: other.keys.live })).body, record);
      await app.request('DELETE', `/api/v1/webhooks/${created.id}`, { key: other.keys.live });
    });
  }

  it('DELETE answers 200 with the record, then the endpoint is gone', async () => {
    const created = await createEndpoint(app, org.keys.test, 'https://gone.example.com/h');
    const res = await app.request('DELETE', `/api/v1/webhooks/${created.id}`, { key: org.keys.test });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, created.id);
    assert.equal(res.body.url, 'https://gone.example.com/h');
    assert.equal((await app.request('GET', `/api/v1/webhooks/${created.id}`, { key: org.keys.test })).status, 404);
    assert.equal((await app.request('DELETE', `/api/v1/webhooks/${created.id}`, { key: org.keys.test })).status, 404);
  });

  it('allows 20 endpoints per org and mode, then 400 WEBHOOK_LIMIT_REACHED; the other mode is counted apart', async () => {
    const fresh = seedStandardOrg(app, 'Busy shop');
    for (let i = 0; i < 20; i++) await createEndpoint(app, fresh.keys.live, `https://h${i}.example.com/`);
    const res = await app.request('POST', '/api/v1/webhooks', { key: fresh.keys.live, body: { url: 'https://h20.example.com/', events: ['*'] } });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /^WEBHOOK_LIMIT_REACHED/);
    assert.equal((await app.request('GET', '/api/v1/webhooks', { key: fresh.keys.live })).body.length, 20);
    assert.equal((await app.request('POST', '/api/v1/webhooks', { key: fresh.keys.test, body: { url: 'https://t.example.com/', events: ['*'] } })).status, 201);
  });

  const accessCases: { name: string; method: string; path: string; key: (o: StandardOrg) => string | undefined; status: number; message: RegExp }[] = [
    { name: 'no key', method: 'GET', path: '/api/v1/webhooks', key: () => undefined, status: 401, message: /^MISSING_API_KEY/ },
    { name: 'a wrong key', method: 'GET', path: '/api/v1/webhooks', key: () => 'psk_live_nope', status: 401, message: /^INVALID_API_KEY/ },
    { name: 'a key without webhooks:manage', method: 'GET', path: '/api/v1/webhooks', key: (o) => o.keys.reader, status: 403, message: /^Missing scope\(s\): webhooks:manage$/ },
    { name: 'scope on replay too', method: 'POST', path: '/api/v1/webhooks/deliveries/wd_x/replay', key: (o) => o.keys.reader, status: 403, message: /^Missing scope\(s\): webhooks:manage$/ },
    { name: 'an unknown endpoint', method: 'GET', path: '/api/v1/webhooks/we_unknown', key: (o) => o.keys.live, status: 404, message: /^WEBHOOK_NOT_FOUND: we_unknown$/ },
    { name: 'deliveries of an unknown endpoint', method: 'GET', path: '/api/v1/webhooks/we_unknown/deliveries', key: (o) => o.keys.live, status: 404, message: /^WEBHOOK_NOT_FOUND/ },
    { name: 'replay of an unknown delivery', method: 'POST', path: '/api/v1/webhooks/deliveries/wd_unknown/replay', key: (o) => o.keys.live, status: 404, message: /^DELIVERY_NOT_FOUND: wd_unknown$/ },
    { name: 'limit 0', method: 'GET', path: '/api/v1/webhooks/{id}/deliveries?limit=0', key: (o) => o.keys.live, status: 400, message: /^VALIDATION_FAILED: limit$/ },
    { name: 'limit 101', method: 'GET', path: '/api/v1/webhooks/{id}/deliveries?limit=101', key: (o) => o.keys.live, status: 400, message: /^VALIDATION_FAILED: limit$/ },
    { name: 'limit not a number', method: 'GET', path: '/api/v1/webhooks/{id}/deliveries?limit=ten', key: (o) => o.keys.live, status: 400, message: /^VALIDATION_FAILED: limit$/ },
  ];
  for (const c of accessCases) {
    it(`answers ${c.status} for ${c.name}`, async () => {
      const endpoint = await createEndpoint(app, org.keys.live, 'https://access.example.com/h');
      const res = await app.request(c.method, c.path.replace('{id}', endpoint.id), { key: c.key(org) });
      assert.equal(res.status, c.status, res.text);
      assert.match(res.body.message, c.message);
      await app.request('DELETE', `/api/v1/webhooks/${endpoint.id}`, { key: org.keys.live });
    });
  }

  it('lists deliveries newest first with ?limit (default 50, max 100); replaying another mode’s delivery is 404', async () => {
    const fresh = seedStandardOrg(app, 'Many events');
    // An endpoint nobody listens on: the deliveries stay pending (the worker is never swept here).
    const endpoint = await createEndpoint(app, fresh.keys.test, 'https://listing.example.com/h');
    const events = [];
    for (let i = 0; i < 60; i++) {
      app.clock.advance(1_000);
      events.push(produce(app.deps, { orgId: fresh.orgId, livemode: false, type: 'balance.updated', cardId: fresh.cards.stamps }));
    }
    const page = await app.request('GET', `/api/v1/webhooks/${endpoint.id}/deliveries`, { key: fresh.keys.test });
    assert.equal(page.status, 200);
    assert.equal(page.body.length, 50);
    assert.deepEqual(page.body.slice(0, 3).map((d: { eventId: string }) => d.eventId), [events[59]!.id, events[58]!.id, events[57]!.id]);
    const d = page.body[0];
    assert.deepEqual(Object.keys(d).sort(), ['attempts', 'createdAt', 'eventId', 'eventType', 'id', 'nextAttemptAt', 'replayOf', 'status', 'webhookId']);
    assert.match(d.id, /^wd_/);
    assert.equal(d.webhookId, endpoint.id);
    assert.equal(d.eventType, 'balance.updated');
    assert.equal(d.status, 'pending');
    assert.deepEqual(d.attempts, []);
    assert.equal(d.nextAttemptAt, d.createdAt, 'due at once');
    assert.equal(d.replayOf, null);
    assert.equal((await app.request('GET', `/api/v1/webhooks/${endpoint.id}/deliveries?limit=100`, { key: fresh.keys.test })).body.length, 60);
    assert.equal((await app.request('GET', `/api/v1/webhooks/${endpoint.id}/deliveries?limit=2`, { key: fresh.keys.test })).body.length, 2);

    const replayByLive = await app.request('POST', `/api/v1/webhooks/deliveries/${d.id}/replay`, { key: fresh.keys.live });
    assert.equal(replayByLive.status, 404);
    assert.match(replayByLive.body.message, /^DELIVERY_NOT_FOUND/);
    const replayByOtherOrg = await app.request('POST', `/api/v1/webhooks/deliveries/${d.id}/replay`, { key: other.keys.test });
    assert.equal(replayByOtherOrg.status, 404);
  });

  it('describes every webhook route in the OpenAPI document with its response schema', async () => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const expected: [string, string, string][] = [
      ['/api/v1/webhooks', 'post', '201'],
      ['/api/v1/webhooks', 'get', '200'],
      ['/api/v1/webhooks/{id}', 'get', '200'],
      ['/api/v1/webhooks/{id}', 'patch', '200'],
      ['/api/v1/webhooks/{id}', 'delete', '200'],
      ['/api/v1/webhooks/{id}/deliveries', 'get', '200'],
      ['/api/v1/webhooks/deliveries/{deliveryId}/replay', 'post', '201'],
    ];
    for (const [path, method, status] of expected) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path}`);
      assert.equal(op['x-required-scope'], 'webhooks:manage');
      assert.ok(op.responses[status].content['application/json'].schema, `${method} ${path} ${status} has a schema`);
    }
    // What an integrator can only learn from the document: the page bounds and what "*" means.
    const limit = doc.paths['/api/v1/webhooks/{id}/deliveries'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    assert.equal(limit.in, 'query');
    assert.equal(limit.required, false);
    assert.match(limit.description ?? '', /default 50/);
    assert.match(limit.description ?? '', /at most 100/);
    for (const method of ['post', 'patch'] as const) {
      const path = method === 'post' ? '/api/v1/webhooks' : '/api/v1/webhooks/{id}';
      const events = doc.paths[path][method].requestBody.content['application/json'].schema.properties.events;
      assert.match(events.description ?? '', /\["\*"\] for all/, `${method} events says what "*" means`);
    }
    assert.ok(doc.paths['/api/v1/webhooks'].post.responses['201'].content['application/json'].schema.properties.secret);
    assert.ok(!doc.paths['/api/v1/webhooks'].get.responses['200'].content['application/json'].schema.items.properties.secret);
  });
});
