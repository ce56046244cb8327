import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mailRepo } from '../src/mail/repo';
import { NO_TLS_ERROR } from '../src/mail/transport';
import { runCli } from './support/cli';
import { ConsoleClient, seedConsoleOrg, type ConsoleOrg } from './support/console';
import { startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from './support/mail';

// The SMTP password and the customers' emails are encrypted on the way: on smtp:// the connection
// must be upgraded with STARTTLS before AUTH, unless SMTP_URL says ?tls=off (which the console
// shows as a warning). Against real SMTP servers on local ports, one with STARTTLS and one without.

async function sendTestEmail(app: MailTestApp, client: ConsoleClient): Promise<void> {
  const csrf = await client.csrfFrom('/console/settings/email');
  const res = await client.request('POST', '/console/settings/email/test', { form: { _csrf: csrf, to: 'owner@example.org' } });
  assert.equal(res.status, 303, res.text);
  await app.worker.idle();
}

describe('email: TLS before the password', () => {
  let withTls: TestSmtpServer;
  let plain: TestSmtpServer;
  before(async () => {
    withTls = await startSmtpServer();
    plain = await startSmtpServer({ starttls: false });
  });
  after(async () => {
    await withTls.close();
    await plain.close();
  });

  async function appOn(smtp: TestSmtpServer, env: Record<string, string> = {}): Promise<{ app: MailTestApp; org: ConsoleOrg; client: ConsoleClient }> {
    const app = await startMailApp(smtp, env);
    const org = await seedConsoleOrg(app, 'TLS Café');
    const client = new ConsoleClient(app);
    assert.equal((await client.signIn(org.admin.email, org.admin.password)).status, 303);
    return { app, org, client };
  }

  it('a server with STARTTLS: the session is encrypted before AUTH, and the page says encryption is required', async () => {
    const { app, client } = await appOn(withTls);
    try {
      await sendTestEmail(app, client);
      assert.deepEqual(withTls.logins, [{ user: 'shop-user', secure: true }]);
      assert.equal(withTls.received.at(-1)?.secure, true);
      const page = await client.request('GET', '/console/settings/email');
      assert.match(page.text, /<dt>Encryption<\/dt><dd>Required<\/dd>/);
      assert.doesNotMatch(page.text, /Email may travel unencrypted/);
    } finally {
      await app.close();
    }
  });

  it('a server without STARTTLS: nothing is sent, no AUTH in clear, the row says why and is retried later', async () => {
    const { app, org, client } = await appOn(plain, { SMTP_URL: `smtp://shop-user:s3cret-pass@127.0.0.1:${plain.port}` });
    try {
      const before = plain.received.length;
      await sendTestEmail(app, client);
      assert.deepEqual(plain.logins, [], 'the password never reached the server');
      assert.equal(plain.received.length, before);
      const [row] = mailRepo(app.db).recent(org.orgId, true, 'test');
      assert.equal(row?.status, 'pending', 'retried: the mail goes out once the setting is fixed');
      assert.equal(row?.error, NO_TLS_ERROR);
      const page = await client.request('GET', '/console/settings/email');
      assert.match(page.text, /offers no encryption \(STARTTLS\)/);
    } finally {
      await app.close();
    }
  });

  it('?tls=off: the same server gets the email, and Settings → Email warns', async () => {
    const { app, client } = await appOn(plain, { SMTP_URL: `smtp://shop-user:s3cret-pass@127.0.0.1:${plain.port}?tls=off` });
    try {
      const before = plain.received.length;
      await sendTestEmail(app, client);
      assert.equal(plain.received.length, before + 1);
      assert.equal(plain.received.at(-1)?.secure, false);
      const page = await client.request('GET', '/console/settings/email');
      assert.match(page.text, /role="alert"><p><strong>Email may travel unencrypted\.<\/strong> SMTP_URL says \?tls=off/);
      assert.match(page.text, /<dt>Encryption<\/dt><dd><span class="badge warn">Not required<\/span>/);
      assert.match(page.text, /<code>smtp:\/\/shop-user:\*\*\*@127\.0\.0\.1:\d+<\/code>/, 'shown without the password and without our parameter');
    } finally {
      await app.close();
    }
  });
});

describe('a malformed SMTP_URL at start', () => {
  const cases = [
    'shop-user:s3cret-pass@mail.example.com',
    'smtp:shop-user:s3cret-pass@mail.example.com',
    's3cret-pass',
    'smtp://shop-user:s3cret-pass@mail.example.com:99999',
    'smtp://shop-user:s3cret-pass@mail.example.com?tls=maybe',
    'smtp://shop-user:s3cret-pass@mail.example.com?requireTLS=false',
    'smtps://shop-user:s3cret-pass@mail.example.com?tls=off',
  ];
  for (const value of cases) {
    it(`stops with one line that never shows the password: ${value.replace('s3cret-pass', '…')}`, async () => {
      const result = await runCli(['serve', '--port', '0', '--data', '/nonexistent/never-created'], { env: { SMTP_URL: value, MAIL_FROM: 'shop@example.com' } });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^wallet-loyalty: Invalid setting SMTP_URL: [^\n]*\n$/);
      assert.doesNotMatch(result.stderr, /s3cret/);
    });
  }
});
