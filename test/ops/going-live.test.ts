// The public address (docs/going-live.md): /healthz, the proxy's scheme and address under TRUST_PROXY,
// the console's warnings while PUBLIC_URL is not an address phones can use, and the settings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { VERSION } from '../../src/lib/version';
import { latestVersion } from '../../src/db/migrate';
import { startTestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg } from '../support/console';
import { readFileSync } from 'node:fs';
import { ROOT } from '../support/cli';

describe('GET /healthz', () => {
  it('answers 200 JSON without a key: status, versions, backlogs, the last backup and its error, replication, nothing else', async () => {
    const app = await startTestApp();
    try {
      const res = await app.request('GET', '/healthz');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^application\/json/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(res.body, {
        status: 'ok',
        version: VERSION,
        schemaVersion: latestVersion(),
        webhookBacklog: 0,
        passUpdateBacklog: 0,
        mailBacklog: 0,
        lastBackupAt: null,
        lastBackupError: null,
        replication: 'off',
      });
      assert.equal(VERSION, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    } finally {
      await app.close();
    }
  });

  it('counts pending webhook deliveries and pass updates', async () => {
    const app = await startTestApp();
    try {
      const org = app.seed({ orgs: [{ name: 'Backlog Café', cards: [{ name: 'S', passType: 'stamp_card' }], keys: [{ deviceName: 'k', mode: 'live' }] }] }).orgs[0]!;
      const key = org.keys[0]!.key;
      // No worker runs in the test app: what is written stays pending.
      assert.equal((await app.request('POST', '/api/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } })).status, 201);
      const enrolled = await app.request('POST', '/api/v1/customers', { key, body: { cardId: org.cards[0]!.cardId, externalCustomerId: 'c1' } });
      assert.equal(enrolled.status, 201);
      assert.equal((await app.request('POST', '/api/v1/customers/c1/earn', { key, body: { type: 'stamps', amount: 1 } })).status, 201);
      app.db.prepare('INSERT INTO wallet_pass_updates (customer_id, next_attempt_at, queued_at, updated_at) VALUES (?, 0, 0, 0)').run(enrolled.body.passUserId);
      const res = await app.request('GET', '/healthz');
      assert.equal(res.body.webhookBacklog, 2, 'customer.enrolled and balance.updated');
      assert.equal(res.body.passUpdateBacklog, 1);
    } finally {
      await app.close();
    }
  });

  it('is limited like every request without a key', async () => {
    const app = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '2' } });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await app.request('GET', '/healthz'));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 429]);
      assert.ok(answers[2]!.headers.get('retry-after'));
    } finally {
      await app.close();
    }
  });

  it('answers 503 with the reason when the database cannot be read', async () => {
    const app = await startTestApp();
    try {
      app.db.close();
      const res = await app.request('GET', '/healthz');
      assert.equal(res.status, 503);
      assert.equal(res.body.status, 'error');
      assert.match(res.body.reason, /^the database cannot be read: /);
      assert.deepEqual(Object.keys(res.body).sort(), ['reason', 'status']);
    } finally {
      await app.close().catch(() => {});
    }
  });
});

describe('TRUST_PROXY: the scheme of the proxy', () => {
  const cases: { name: string; env: Record<string, string>; proto: string | undefined; secure: boolean }[] = [
    { name: 'https PUBLIC_URL', env: { PUBLIC_URL: 'https://shop.example' }, proto: undefined, secure: true },
    { name: 'a trusted proxy that says https', env: { PUBLIC_URL: 'http://shop.example', TRUST_PROXY: 'true' }, proto: 'https', secure: true },
    { name: 'a trusted proxy that says http', env: { PUBLIC_URL: 'http://shop.example', TRUST_PROXY: 'true' }, proto: 'http', secure: false },
    { name: 'X-Forwarded-Proto without TRUST_PROXY (ignored)', env: { PUBLIC_URL: 'http://shop.example' }, proto: 'https', secure: false },
  ];
  for (const c of cases) {
    it(`${c.name}: cookies ${c.secure ? 'are' : 'are not'} Secure`, async () => {
      const app = await startTestApp({ env: c.env });
      try {
        const res = await app.request('GET', '/console/sign-in', { headers: c.proto ? { 'X-Forwarded-Proto': c.proto } : {} });
        const cookie = res.headers.getSetCookie().find((line) => line.startsWith('wl_form='))!;
        assert.equal(/; Secure/.test(cookie), c.secure, cookie);
      } finally {
        await app.close();
      }
    });
  }

  it('links are built on PUBLIC_URL whatever the request says', async () => {
    const app = await startTestApp({ env: { PUBLIC_URL: 'https://shop.example', TRUST_PROXY: 'true' } });
    try {
      const org = app.seed({ orgs: [{ name: 'Link Café', cards: [{ ref: 's', name: 'S', passType: 'stamp_card' }], keys: [{ deviceName: 'k', mode: 'live' }] }] }).orgs[0]!;
      const res = await app.request('POST', '/api/v1/customers', { key: org.keys[0]!.key, body: { cardId: org.cards[0]!.cardId, externalCustomerId: 'c1' }, headers: { 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'evil.example' } });
      assert.match(res.body.installUrl, /^https:\/\/shop\.example\/get-pass\//);
    } finally {
      await app.close();
    }
  });
});

describe('the console while PUBLIC_URL is not a public HTTPS address', () => {
  const cases = [
    { name: 'localhost', url: 'http://localhost:3000', banner: /Customers' phones can't open links to this computer/, note: /This code won't work on customers' phones/ },
    { name: '127.0.0.1', url: 'http://127.0.0.1:3000', banner: /Customers' phones can't open links to this computer/, note: /This code won't work on customers' phones/ },
    { name: '[::1]', url: 'http://[::1]:3000', banner: /Customers' phones can't open links to this computer/, note: /This code won't work on customers' phones/ },
    { name: 'shop Wi-Fi (plain http)', url: 'http://192.168.1.20:3000', banner: /Plain http:.*Apple Wallet passes need HTTPS.*camera/s, note: /works on your shop's network, but Apple Wallet and the camera need HTTPS/ },
    { name: 'https', url: 'https://loyalty.example.com', banner: null, note: null },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.banner ? 'every page says so, and the QR pages beside the code' : 'no warning'}`, async () => {
      const app = await startTestApp({ env: { PUBLIC_URL: c.url } });
      try {
        const org = await seedConsoleOrg(app, 'Address Café');
        const client = new ConsoleClient(app);
        // The Origin a browser on PUBLIC_URL would send.
        const csrf = await client.csrfFrom('/console/sign-in');
        await client.request('POST', '/console/sign-in', { form: { _csrf: csrf, email: org.admin.email, password: org.admin.password, next: '/console' }, origin: new URL(c.url).origin });
        for (const page of ['/console/dashboard', '/console/customers', '/console/settings', '/console/staff', `/console/cards/${org.cards.stamps}/poster`]) {
          const res = await client.request('GET', page);
          assert.equal(res.status, 200, page);
          const banner = /<aside class="test-banner address-banner" aria-label="Public address">(.*?)<\/aside>/s.exec(res.text)?.[1];
          if (c.banner) {
            assert.match(banner ?? '', c.banner, page);
            assert.match(banner!, /href="\/console\/going-live"/);
          } else assert.equal(banner, undefined, page);
        }
        for (const page of ['/console/staff', `/console/cards/${org.cards.stamps}/poster`]) {
          const res = await client.request('GET', page);
          if (c.note) assert.match(res.text, c.note, page);
          else assert.doesNotMatch(res.text, /notice warn no-print/, page);
        }
        const help = await client.request('GET', '/console/going-live');
        assert.equal(help.status, 200);
        assert.match(help.text, /Caddy/);
        assert.match(help.text, /tunnel/);
        assert.match(help.text, /HOST=0\.0\.0\.0/);
      } finally {
        await app.close();
      }
    });
  }
});

describe('backup settings', () => {
  it('BACKUP_HOUR, BACKUP_DIR and BACKUP_KEEP: defaults, off, and a bad value named in one line', () => {
    const base = loadConfig({ DATA_DIR: '/srv/wl' });
    assert.deepEqual(base.backups, { hour: 3, dir: '/srv/wl/backups', keep: 7 });
    assert.equal(loadConfig({ BACKUP_HOUR: 'off' }).backups.hour, null);
    assert.equal(loadConfig({ BACKUP_HOUR: 'OFF' }).backups.hour, null);
    assert.equal(loadConfig({ BACKUP_HOUR: '0' }).backups.hour, 0);
    assert.equal(loadConfig({ BACKUP_DIR: '/mnt/usb/backups' }).backups.dir, '/mnt/usb/backups');
    for (const [name, value, message] of [
      ['BACKUP_HOUR', '24', /Invalid setting BACKUP_HOUR: expected a whole number from 0 to 23 or off, got "24"/],
      ['BACKUP_HOUR', 'never', /BACKUP_HOUR/],
      ['BACKUP_KEEP', '0', /Invalid setting BACKUP_KEEP: expected a whole number from 1 to 1000, got "0"/],
    ] as const) {
      assert.throws(() => loadConfig({ [name]: value }), (err: unknown) => err instanceof ConfigError && message.test(err.message));
    }
  });
});
