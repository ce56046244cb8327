import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, loadConfig, mailServerLabel } from '../src/config';

// Operator settings (docs/operator.md#settings): read once from env and flags, validated, frozen.

describe('config', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.dbFile, path.join(path.resolve('./data'), 'wallet-loyalty.db'));
    assert.equal(config.publicUrl, 'http://localhost:3000');
    assert.equal(config.installBaseUrl, 'http://localhost:3000');
    assert.deepEqual(config.rateLimit, { live: 10, test: 5, anonymous: 20 });
    assert.equal(config.webhooks.timeoutMs, 5000);
    assert.deepEqual(config.webhooks.retryDelaysMs, [10_000, 60_000]);
    assert.equal(config.webhooks.blockPrivate, false);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.dbSynchronous, 'NORMAL');
    assert.equal(config.trustProxy, false);
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/loyalty',
      PUBLIC_URL: 'https://loyalty.example.com/',
      INSTALL_BASE_URL: 'https://wallet.example.com',
      RATE_LIMIT_LIVE: '50',
      RATE_LIMIT_TEST: '2',
      RATE_LIMIT_ANONYMOUS: '7',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_RETRY_DELAYS_MS: '100, 200',
      WEBHOOK_BLOCK_PRIVATE: 'true',
      LOG_LEVEL: 'WARN',
      DB_SYNCHRONOUS: 'full',
      TRUST_PROXY: 'true',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.dbFile, '/srv/loyalty/wallet-loyalty.db');
    assert.equal(config.publicUrl, 'https://loyalty.example.com', 'no trailing slash');
    assert.equal(config.installBaseUrl, 'https://wallet.example.com');
    assert.deepEqual(config.rateLimit, { live: 50, test: 2, anonymous: 7 });
    assert.equal(config.webhooks.timeoutMs, 2500);
    assert.deepEqual(config.webhooks.retryDelaysMs, [100, 200]);
    assert.equal(config.webhooks.blockPrivate, true);
    assert.equal(config.logLevel, 'warn');
    assert.equal(config.dbSynchronous, 'FULL');
    assert.equal(config.trustProxy, true);
  });

  it('lets a flag win over the environment, and derives the public URL from the port', () => {
    const config = loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATA_DIR: '/a' }, { port: '9090', host: '::1', data: '/b' });
    assert.equal(config.port, 9090);
    assert.equal(config.host, '::1');
    assert.equal(config.dataDir, '/b');
    assert.equal(config.publicUrl, 'http://localhost:9090');
    assert.equal(config.installBaseUrl, 'http://localhost:9090', 'INSTALL_BASE_URL defaults to PUBLIC_URL');
  });

  it('treats an empty value as unset', () => {
    assert.equal(loadConfig({ PORT: '', LOG_LEVEL: '  ' }).port, 3000);
  });

  it('is frozen', () => {
    const config = loadConfig({});
    assert.throws(() => {
      (config.rateLimit as { live: number }).live = 1;
    }, TypeError);
  });

  const bad: { name: string; env?: Record<string, string>; flags?: Record<string, string>; names: string }[] = [
    { name: 'PORT not a number', env: { PORT: 'eighty' }, names: 'PORT' },
    { name: 'PORT out of range', env: { PORT: '70000' }, names: 'PORT' },
    { name: 'PORT negative', env: { PORT: '-1' }, names: 'PORT' },
    { name: '--port flag', flags: { port: '3.5' }, names: '--port' },
    { name: 'HOST with a space', env: { HOST: 'my host' }, names: 'HOST' },
    { name: '--host flag', flags: { host: 'http://x' }, names: '--host' },
    { name: 'PUBLIC_URL not a URL', env: { PUBLIC_URL: 'loyalty.example.com' }, names: 'PUBLIC_URL' },
    { name: 'PUBLIC_URL not http(s)', env: { PUBLIC_URL: 'ftp://example.com' }, names: 'PUBLIC_URL' },
    { name: 'INSTALL_BASE_URL', env: { INSTALL_BASE_URL: '/relative' }, names: 'INSTALL_BASE_URL' },
    { name: 'RATE_LIMIT_LIVE zero', env: { RATE_LIMIT_LIVE: '0' }, names: 'RATE_LIMIT_LIVE' },
    { name: 'RATE_LIMIT_LIVE decimal', env: { RATE_LIMIT_LIVE: '2.5' }, names: 'RATE_LIMIT_LIVE' },
    { name: 'RATE_LIMIT_TEST word', env: { RATE_LIMIT_TEST: 'many' }, names: 'RATE_LIMIT_TEST' },
    { name: 'RATE_LIMIT_ANONYMOUS', env: { RATE_LIMIT_ANONYMOUS: '1e3' }, names: 'RATE_LIMIT_ANONYMOUS' },
    { name: 'WEBHOOK_TIMEOUT_MS', env: { WEBHOOK_TIMEOUT_MS: '5s' }, names: 'WEBHOOK_TIMEOUT_MS' },
    { name: 'WEBHOOK_RETRY_DELAYS_MS one value', env: { WEBHOOK_RETRY_DELAYS_MS: '10000' }, names: 'WEBHOOK_RETRY_DELAYS_MS' },
    { name: 'WEBHOOK_RETRY_DELAYS_MS three values', env: { WEBHOOK_RETRY_DELAYS_MS: '1,2,3' }, names: 'WEBHOOK_RETRY_DELAYS_MS' },
    { name: 'WEBHOOK_RETRY_DELAYS_MS words', env: { WEBHOOK_RETRY_DELAYS_MS: '10s,60s' }, names: 'WEBHOOK_RETRY_DELAYS_MS' },
    { name: 'WEBHOOK_BLOCK_PRIVATE', env: { WEBHOOK_BLOCK_PRIVATE: 'maybe' }, names: 'WEBHOOK_BLOCK_PRIVATE' },
    { name: 'LOG_LEVEL', env: { LOG_LEVEL: 'verbose' }, names: 'LOG_LEVEL' },
    { name: 'DB_SYNCHRONOUS', env: { DB_SYNCHRONOUS: 'OFF' }, names: 'DB_SYNCHRONOUS' },
    { name: 'TRUST_PROXY', env: { TRUST_PROXY: 'sometimes' }, names: 'TRUST_PROXY' },
    { name: 'a value holding a newline', env: { LOG_LEVEL: 'info\nrm -rf /' }, names: 'LOG_LEVEL' },
    { name: 'APNS_URL', env: { APNS_URL: 'nope' }, names: 'APNS_URL' },
    { name: 'SMTP_URL that does not parse', env: { SMTP_URL: 'smtp://user:pa ss@', MAIL_FROM: 'shop@example.com' }, names: 'SMTP_URL' },
    { name: 'SMTP_URL of another scheme', env: { SMTP_URL: 'https://mail.example.com', MAIL_FROM: 'shop@example.com' }, names: 'SMTP_URL' },
    { name: 'SMTP_URL with a tls other than off', env: { SMTP_URL: 'smtp://mail.example.com?tls=on', MAIL_FROM: 'shop@example.com' }, names: 'SMTP_URL' },
    { name: 'SMTP_URL that turns off requireTLS itself', env: { SMTP_URL: 'smtp://mail.example.com?ignoreTLS=true', MAIL_FROM: 'shop@example.com' }, names: 'SMTP_URL' },
    { name: 'SMTP_URL without MAIL_FROM', env: { SMTP_URL: 'smtp://mail.example.com' }, names: 'MAIL_FROM' },
    { name: 'MAIL_FROM', env: { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'Shop <not an address>' }, names: 'MAIL_FROM' },
  ];
  for (const c of bad) {
    it(`refuses a bad ${c.name} with one line naming it`, () => {
      assert.throws(
        () => loadConfig(c.env ?? {}, c.flags ?? {}),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.ok(!err.message.includes('\n'), `one line: ${JSON.stringify(err.message)}`);
          assert.ok(err.message.startsWith(`Invalid setting ${c.names}:`), err.message);
          return true;
        },
      );
    });
  }

  it('reads the mail settings; without SMTP_URL mail is off; an error never shows the password', () => {
    assert.equal(loadConfig({}).mail, null);
    assert.equal(loadConfig({ MAIL_FROM: 'shop@example.com' }).mail, null);
    assert.deepEqual(loadConfig({ SMTP_URL: 'smtps://user:secret@mail.example.com:465', MAIL_FROM: 'Shop <shop@example.com>' }).mail, {
      smtpUrl: 'smtps://user:secret@mail.example.com:465',
      tlsRequired: true,
      from: 'Shop <shop@example.com>',
    });
    // ?tls=off is ours: it allows a server without STARTTLS, and nodemailer never sees it.
    assert.deepEqual(loadConfig({ SMTP_URL: 'smtp://user:secret@relay.local:25?tls=off&tls.servername=relay', MAIL_FROM: 'shop@example.com' }).mail, {
      smtpUrl: 'smtp://user:secret@relay.local:25?tls.servername=relay',
      tlsRequired: false,
      from: 'shop@example.com',
    });
    for (const [url, shown] of [
      ['smtps://user:secret@mail.example.com:465', 'smtps://user:***@mail.example.com:465'],
      // A password holding an @ or a /: nothing of it shows.
      ['smtp://user:p@ssw0rd@mail.example.com:587', 'smtp://user:***@mail.example.com:587'],
      ['smtp://user:p%40ss%2Fw0rd@mail.example.com', 'smtp://user:***@mail.example.com'],
      ['smtp://mail.example.com:25', 'smtp://mail.example.com:25'],
      // Not a URL with a host: the password could be anywhere in it, so nothing is shown.
      ['user:secret@mail.example.com', 'a value that is not shown (it may hold a password)'],
      ['secret', 'a value that is not shown (it may hold a password)'],
    ]) {
      assert.equal(mailServerLabel(url!), shown);
    }
    assert.throws(
      () => loadConfig({ SMTP_URL: 'ftp://user:secret@mail.example.com', MAIL_FROM: 'shop@example.com' }),
      (err: unknown) => err instanceof ConfigError && err.message.includes('ftp://user:***@mail.example.com') && !err.message.includes('secret'),
    );
  });
});
