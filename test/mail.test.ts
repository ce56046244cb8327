import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { customersRepo } from '../src/customers/repo';
import { mailRepo } from '../src/mail/repo';
import { IMPORT_EMAILS_PER_MINUTE, queueCardEmail, queueCardEmails } from '../src/mail/service';
import { MAIL_RETRY_DELAYS_MS } from '../src/mail/worker';
import { ConsoleClient, seedConsoleOrg, type ConsoleOrg } from './support/console';
import { insertCustomer } from './support/customers';
import { decodeHeader, header, mimeParts, startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from './support/mail';

// Transactional mail against a real SMTP server (smtp-server on a local port): the card email's
// content, the worker after the commit, failures as rows with their retries (driven by the fake
// clock), the sign-up page's limit (more in signup/email-limits.test.ts), the import batch's
// throttle, and the features off without SMTP settings.

describe('email: a customer’s card', () => {
  let smtp: TestSmtpServer;
  let app: MailTestApp;
  let org: ConsoleOrg;
  let consoleClient: ConsoleClient;
  let n = 0;
  before(async () => {
    smtp = await startSmtpServer();
    app = await startMailApp(smtp);
    org = await seedConsoleOrg(app, 'Mail Café');
    consoleClient = new ConsoleClient(app);
    assert.equal((await consoleClient.signIn(org.admin.email, org.admin.password)).status, 303);
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  async function enroll(extra: Record<string, unknown> = {}): Promise<{ passUserId: string; installUrl: string; email: string }> {
    const email = `member${++n}@example.org`;
    const res = await app.request('POST', '/api/v1/customers', {
      key: org.keys.live,
      body: { externalCustomerId: `mail-${n}`, cardId: org.cards.stamps, name: `Member ${n}`, email, customFields: { memberNo: n, altEmail: 'x@example.net' }, ...extra },
    });
    assert.equal(res.status, 201, res.text);
    return { passUserId: res.body.passUserId, installUrl: res.body.installUrl, email };
  }
  const rowsOf = (passUserId: string) => mailRepo(app.db).ofCustomer(passUserId);
  const sendFromConsole = async (passUserId: string) => {
    const csrf = await consoleClient.csrfFrom(`/console/customers/${passUserId}`);
    return consoleClient.request('POST', `/console/customers/${passUserId}/send-card`, { form: { _csrf: csrf } });
  };

  it('the console’s "Send card by email": after the commit, the worker delivers it; subject, from, to, both parts with the install link', async () => {
    smtp.answer(() => ({}));
    const c = await enroll();
    const before = smtp.received.length;
    const res = await sendFromConsole(c.passUserId);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/console/customers/${c.passUserId}?sent=1#emails-heading`);
    await app.worker.idle();

    assert.equal(smtp.received.length, before + 1);
    const mail = smtp.received.at(-1)!;
    assert.deepEqual(mail.to, [c.email]);
    assert.equal(mail.from, 'cafe@example.com');
    assert.equal(mail.user, 'shop-user', 'logged in with the credentials of SMTP_URL');
    assert.equal(decodeHeader(header(mail.raw, 'Subject')!), 'Your Coffee stamps card from Mail Café');
    assert.match(header(mail.raw, 'From')!, /cafe@example\.com/);
    assert.equal(header(mail.raw, 'Auto-Submitted'), 'auto-generated');
    const parts = mimeParts(mail.raw);
    const text = parts.find((p) => p.type === 'text/plain')!.body.toString('utf8');
    const htmlPart = parts.find((p) => p.type === 'text/html')!.body.toString('utf8');
    assert.ok(text.includes(c.installUrl), 'the install link in the text part');
    assert.ok(htmlPart.includes(`href="${c.installUrl.replace(/&/g, '&amp;')}"`), 'the install link in the HTML part');
    assert.match(htmlPart, /Mail Café/);
    assert.match(text, /Stamps: 0/);
    const qr = parts.find((p) => p.cid === 'card-qr');
    assert.ok(qr && qr.type === 'image/png' && qr.body.subarray(1, 4).toString() === 'PNG', 'the QR code travels inline');
    assert.match(htmlPart, /src="cid:card-qr"/);

    const [row] = rowsOf(c.passUserId);
    assert.deepEqual([row!.kind, row!.via, row!.status, row!.recipient, row!.attempts, row!.error], ['card', 'console', 'sent', c.email, 1, null]);
    const page = await consoleClient.request('GET', `/console/customers/${c.passUserId}?sent=1`);
    assert.match(page.text, /The card is on its way by email/);
    assert.match(page.text, /<h2 id="emails-heading">Emails<\/h2>[\s\S]*Their card[\s\S]*the console[\s\S]*Sent/);
  });

  it('a failing server leaves the row pending with the error and a retry at the scheduled time; the retry delivers it', async () => {
    const c = await enroll();
    smtp.answer(() => ({ refuse: { code: 451, message: 'Mailbox busy, try later' } }));
    const start = app.clock.now();
    assert.equal((await sendFromConsole(c.passUserId)).status, 303, 'the request does not wait for the mail server');
    await app.worker.idle();

    let [row] = rowsOf(c.passUserId);
    assert.equal(row!.status, 'pending');
    assert.equal(row!.attempts, 1);
    assert.match(row!.error!, /451/);
    assert.equal(row!.nextAttemptAt, start + MAIL_RETRY_DELAYS_MS[0]);
    const page = await consoleClient.request('GET', `/console/customers/${c.passUserId}`);
    assert.match(page.text, /Retrying[\s\S]*attempt 1 failed: [^<]*451/);

    smtp.answer(() => ({}));
    const before = smtp.received.length;
    assert.equal(await app.advanceAndSweep(MAIL_RETRY_DELAYS_MS[0] - 1), 0, 'not before it is due');
    assert.equal(await app.advanceAndSweep(1), 1);
    assert.equal(smtp.received.length, before + 1);
    [row] = rowsOf(c.passUserId);
    assert.deepEqual([row!.status, row!.attempts, row!.error, row!.nextAttemptAt], ['sent', 2, null, null]);
  });

  it('a permanent refusal (5xx) fails at once; a server that never answers is retried, then given up after the last wait', async () => {
    const refused = await enroll();
    smtp.answer(() => ({ refuse: { code: 550, message: 'No such mailbox' } }));
    await sendFromConsole(refused.passUserId);
    await app.worker.idle();
    let [row] = rowsOf(refused.passUserId);
    assert.deepEqual([row!.status, row!.attempts, row!.nextAttemptAt], ['failed', 1, null]);
    assert.match(row!.error!, /550/);

    smtp.answer(() => ({ refuse: { code: 421, message: 'Service not available' } }));
    const flaky = await enroll();
    await sendFromConsole(flaky.passUserId);
    await app.worker.idle();
    for (const wait of MAIL_RETRY_DELAYS_MS) await app.advanceAndSweep(wait);
    [row] = rowsOf(flaky.passUserId);
    assert.deepEqual([row!.status, row!.attempts, row!.nextAttemptAt], ['failed', MAIL_RETRY_DELAYS_MS.length + 1, null]);
    smtp.answer(() => ({}));
  });

  it('the page after sign-up: "Email me my card" for the holder of the link, once a day to one address', async () => {
    const c = await enroll();
    const installPath = new URL(c.installUrl).pathname + new URL(c.installUrl).search;
    const jar = new ConsoleClient(app);
    const page = await jar.request('GET', installPath);
    assert.equal(page.status, 200);
    assert.match(page.text, /<button type="submit" class="button secondary">Email me my card<\/button>/);
    assert.match(page.text, /To m\*\*\*\d@example\.org/, 'the address is shown masked');
    assert.match(page.headers.get('content-security-policy')!, /form-action 'self'/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const code = new URL(c.installUrl).searchParams.get('code')!;
    const post = (form: Record<string, string>) => jar.request('POST', `/get-pass/${org.cards.stamps}/email`, { form });

    const before = smtp.received.length;
    const first = await post({ _csrf: csrf, code });
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), `${installPath}&emailed=1`);
    await app.worker.idle();
    assert.equal(smtp.received.length, before + 1);
    const held = await post({ _csrf: csrf, code });
    assert.equal(held.headers.get('location'), `${installPath}&emailed=held`);
    assert.equal(rowsOf(c.passUserId).length, 1, 'the held-back request wrote no email');
    assert.match((await jar.request('GET', `${installPath}&emailed=held`)).text, /We could not send your card by email just now\. Your card is here/);
    app.clock.advance(24 * 3600_000);
    assert.equal((await post({ _csrf: csrf, code })).headers.get('location'), `${installPath}&emailed=1`, 'a day later it can be asked again');

    assert.equal((await post({ _csrf: csrf, code: `${code.slice(0, -1)}${code.endsWith('x') ? 'y' : 'x'}` })).status, 404, 'a wrong code sends nothing');
    assert.equal((await post({ _csrf: 'forged', code })).status, 403, 'the form is CSRF-checked');
    const noEmail = await enroll({ email: undefined, phone: '+44 20 7946 0000' });
    assert.doesNotMatch((await jar.request('GET', new URL(noEmail.installUrl).pathname + new URL(noEmail.installUrl).search)).text, /Email me my card/);
  });

  it('the welcome after the sign-up form offers it too, and comes back to the welcome', async () => {
    const c = await enroll();
    const code = new URL(c.installUrl).searchParams.get('code')!;
    const welcome = `/get-pass/${org.cards.stamps}/welcome?code=${code}`;
    const jar = new ConsoleClient(app);
    const page = await jar.request('GET', welcome);
    assert.equal(page.status, 200);
    assert.match(page.text, /<button type="submit" class="button secondary">Email me my card<\/button>/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const res = await jar.request('POST', `/get-pass/${org.cards.stamps}/email`, { form: { _csrf: csrf, code, page: 'welcome' } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${welcome}&emailed=1`);
    assert.match((await jar.request('GET', `${welcome}&emailed=1`)).text, /Your card is on its way to m\*\*\*\d@example\.org/);
    assert.equal(rowsOf(c.passUserId).length, 1);
  });

  it('queueCardEmails (the import’s button): skips customers without email and those already sent, throttled as rows', async () => {
    const withEmail = Array.from({ length: IMPORT_EMAILS_PER_MINUTE + 2 }, (_, i) => insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, email: `batch${i}@example.org` }).id);
    const noEmail = insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, phone: '+44 20 7946 0999' }).id;
    const alreadySent = withEmail[0]!;
    queueCardEmail(app.deps, customersRepo(app.db).findByPassUserId(alreadySent)!, 'console');
    await app.worker.idle();
    const now = app.clock.now();

    const result = await queueCardEmails(app.deps, [...withEmail, noEmail, 'nobody'], { namespace: { orgId: org.orgId, livemode: true } });
    assert.deepEqual(result, { off: false, queued: IMPORT_EMAILS_PER_MINUTE + 1, skippedNoEmail: 1, skippedAlreadySent: 1, notFound: 1, lastDueAt: now + 60_000 });
    const due = withEmail.slice(1).map((id) => rowsOf(id)[0]!.nextAttemptAt);
    assert.equal(due.filter((t) => t === now).length, IMPORT_EMAILS_PER_MINUTE, `${IMPORT_EMAILS_PER_MINUTE} go out in the first minute`);
    assert.equal(due.at(-1), now + 60_000, 'the rest a minute later');

    const again = await queueCardEmails(app.deps, withEmail);
    assert.equal(again.queued, 0, 'never twice unless asked');
    assert.equal(again.skippedAlreadySent, withEmail.length);
    const resent = await queueCardEmails(app.deps, [alreadySent], { resend: true });
    assert.equal(resent.queued, 1);
    assert.equal(mailRepo(app.db).ofCustomer(alreadySent)[0]!.nextAttemptAt, now + 2 * 60_000, 'a new batch follows the one still queued');

    await app.worker.idle();
    await app.advanceAndSweep(2 * 60_000);
    for (let i = 0; i < 40 && withEmail.some((id) => rowsOf(id)[0]!.status === 'pending'); i++) await app.advanceAndSweep(0);
    assert.ok(withEmail.every((id) => rowsOf(id)[0]!.status === 'sent'));
  });

  it('Settings → Email shows the server without its password, and "Send a test email" goes through the queue', async () => {
    // The clock moved on by a day above: the session needs a new sign-in.
    assert.equal((await consoleClient.signIn(org.admin.email, org.admin.password)).status, 303);
    const page = await consoleClient.request('GET', '/console/settings/email');
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`smtp://shop-user:\\*\\*\\*@127\\.0\\.0\\.1:${smtp.port}`));
    assert.doesNotMatch(page.text, /s3cret-pass/);
    assert.match(page.text, /aria-current="page">Email</);
    const csrf = await consoleClient.csrfFrom('/console/settings/email');
    const bad = await consoleClient.request('POST', '/console/settings/email/test', { form: { _csrf: csrf, to: 'not an address' } });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /Enter an email address such as name@example\.com/);
    const before = smtp.received.length;
    const res = await consoleClient.request('POST', '/console/settings/email/test', { form: { _csrf: csrf, to: 'owner@example.org' } });
    assert.equal(res.status, 303);
    await app.worker.idle();
    assert.equal(smtp.received.length, before + 1);
    assert.deepEqual(smtp.received.at(-1)!.to, ['owner@example.org']);
    assert.equal(decodeHeader(header(smtp.received.at(-1)!.raw, 'Subject')!), 'Test email from Mail Café');
    assert.match((await consoleClient.request('GET', '/console/settings/email?queued=1')).text, /Recent test emails[\s\S]*owner@example\.org[\s\S]*Sent/);
  });
});

describe('email: off without SMTP settings', () => {
  let app: MailTestApp;
  let org: ConsoleOrg;
  before(async () => {
    app = await startMailApp(null);
    org = await seedConsoleOrg(app, 'Quiet Café');
  });
  after(() => app.close());

  it('shows the features as off and never fails a request', async () => {
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, org.admin.password);
    const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'quiet-1', cardId: org.cards.points, email: 'quiet@example.org' } });
    const id = res.body.passUserId as string;
    const page = await client.request('GET', `/console/customers/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Email is off on this server/);
    assert.doesNotMatch(page.text, /Send card by email/);
    const settings = await client.request('GET', '/console/settings/email');
    assert.match(settings.text, /Off<\/span> This server sends no email/);
    assert.doesNotMatch(settings.text, /Send a test email/);
    const install = await app.request('GET', new URL(res.body.installUrl).pathname + new URL(res.body.installUrl).search);
    assert.doesNotMatch(install.text, /Email me my card/);
    assert.deepEqual(await queueCardEmails(app.deps, [id]), { off: true, queued: 0, skippedNoEmail: 0, skippedAlreadySent: 0, notFound: 0, lastDueAt: null });
    const csrf = await client.csrfFrom(`/console/customers/${id}`);
    const refused = await client.request('POST', `/console/customers/${id}/send-card`, { form: { _csrf: csrf } });
    assert.equal(refused.status, 409);
    assert.match(refused.text, /Email is not set up on this server/);
  });
});
