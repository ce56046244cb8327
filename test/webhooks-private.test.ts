import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../src/lib/ids';
import { webhooksRepo } from '../src/webhooks/repo';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';

// WEBHOOK_BLOCK_PRIVATE=true (docs/webhooks.md#operator-settings): a URL that is, or resolves to, a private or loopback
// address is refused when it is registered or changed, besides the check at send time
// (webhooks-worker.test.ts). The name is resolved before the write, never inside its transaction.

const REFUSAL = 'points to a private, loopback or otherwise internal address; this server sends webhooks to public addresses only (WEBHOOK_BLOCK_PRIVATE)';

describe('WEBHOOK_BLOCK_PRIVATE at registration', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp({ env: { WEBHOOK_BLOCK_PRIVATE: 'true' } });
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  const webhookCount = () => (app.db.prepare('SELECT count(*) AS n FROM webhooks').get() as { n: number }).n;
  const create = (url: string) => app.request('POST', '/api/v1/webhooks', { key: org.keys.live, body: { url, events: ['*'] } });

  const blocked = [
    'http://localhost:9/hook',
    'http://127.0.0.1:9/hook',
    'http://127.1/hook', // the URL parser reads it as 127.0.0.1
    'http://2130706433/hook', // 127.0.0.1 as one number
    'http://0x7f.0.0.1/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/',
    'http://[64:ff9b::a00:5]/hook',
    'http://0.0.0.0/hook',
  ];
  for (const url of blocked) {
    it(`POST refuses ${url}: 400 VALIDATION_FAILED on url, nothing written`, async () => {
      const before = webhookCount();
      const res = await create(url);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.message, 'VALIDATION_FAILED: url');
      assert.deepEqual(res.body.issues, [{ path: 'url', message: REFUSAL }]);
      assert.equal(webhookCount(), before);
    });
  }

  it('the refusal of a name does not echo the address it resolved to', async () => {
    const res = await create('http://localhost:9/hook');
    assert.doesNotMatch(res.text, /127\.0\.0\.1|::1/);
  });

  it('accepts a public address, and a name that does not resolve (the send-time check still judges it)', async () => {
    for (const url of ['http://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'https://nothing-here.invalid/hook']) {
      const res = await create(url);
      assert.equal(res.status, 201, `${url}: ${res.text}`);
    }
  });

  it('PATCH refuses a private url and leaves the endpoint as it was; a PATCH without url is not judged', async () => {
    const created = await create('http://8.8.4.4/hook');
    assert.equal(created.status, 201, created.text);
    for (const url of ['http://localhost:8080/hook', 'http://10.0.0.1/hook']) {
      const res = await app.request('PATCH', `/api/v1/webhooks/${created.body.id}`, { key: org.keys.live, body: { url } });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body.issues, [{ path: 'url', message: REFUSAL }]);
    }
    const read = await app.request('GET', `/api/v1/webhooks/${created.body.id}`, { key: org.keys.live });
    assert.equal(read.body.url, 'http://8.8.4.4/hook');

    // An endpoint registered before the operator turned the setting on keeps working for the rest.
    const now = app.clock.now();
    const legacy = { id: newId('we'), orgId: org.orgId, livemode: true, url: 'http://127.0.0.1:9/old', events: ['*'], status: 'active' as const, secret: 'whsec_x', createdAt: now, updatedAt: now };
    webhooksRepo(app.db).insert(legacy);
    const disabled = await app.request('PATCH', `/api/v1/webhooks/${legacy.id}`, { key: org.keys.live, body: { status: 'disabled' } });
    assert.equal(disabled.status, 200, disabled.text);
  });

  it('is off by default: a till on the local network is a fine receiver', async () => {
    const open = await startTestApp();
    try {
      const local = seedStandardOrg(open);
      const res = await open.request('POST', '/api/v1/webhooks', { key: local.keys.live, body: { url: 'http://localhost:9/hook', events: ['*'] } });
      assert.equal(res.status, 201, res.text);
    } finally {
      await open.close();
    }
  });
});
