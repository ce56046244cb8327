// The unsubscribe link of the sweeps' emails (expiry reminders, birthday greetings): in the text,
// the HTML and List-Unsubscribe; its page asks first (a GET changes nothing), the button stops
// these emails for that customer only, even one queued before, while the card email they ask for
// still goes. A link that is not one of ours opens nothing, and a link never reaches the log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { customersRepo } from '../src/customers/repo';
import { inTransaction } from '../src/db/transaction';
import { createLogger } from '../src/lib/log';
import { queueCardEmail, queueNoticeEmail } from '../src/mail/service';
import { unsubscribeFromNotices } from '../src/mail/unsubscribe';
import { seedStandardOrg, type StandardOrg } from './support/app';
import { ConsoleClient } from './support/console';
import { decodeHeader, header, mimeParts, startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from './support/mail';
import { api, enrollWithConsent, runSweepJob, setTimeZone } from './support/programme';

const at = (iso: string) => Date.parse(iso);
const REQUIRED = { memberNo: 1, altEmail: 'x@example.org' };

let smtp: TestSmtpServer;
let app: MailTestApp;
let org: StandardOrg;
const lines: string[] = [];

before(async () => {
  smtp = await startSmtpServer();
  app = await startMailApp(smtp);
  app.deps.log = createLogger('info', (line) => lines.push(line));
  org = seedStandardOrg(app);
  setTimeZone(app, org.orgId, 'UTC');
  app.clock.set(at('2026-01-01T09:00:00Z'));
  await api(app, org.keys.live).patchCard(org.cards.stamps, { birthday: { questionKey: 'birthday', units: 3 } });
  await runSweepJob(app);
});
after(async () => {
  await app.close();
  await smtp.close();
});

const textOf = (raw: string) => mimeParts(raw).find((p) => p.type === 'text/plain')!.body.toString('utf8');
const htmlOf = (raw: string) => mimeParts(raw).find((p) => p.type === 'text/html')!.body.toString('utf8');
const mailTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
const unsubscribes = () => (app.db.prepare('SELECT count(*) AS n FROM mail_unsubscribes').get() as { n: number }).n;

let ada: { passUserId: string };
let link: string;

describe('the reminder and birthday emails', () => {
  it('carry the customer’s own unsubscribe link in the text, the HTML and List-Unsubscribe', async () => {
    ada = enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.stamps, { name: 'Ada', email: 'ada@example.org', customFields: { ...REQUIRED, birthday: '1990-03-01' } });
    enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.stamps, { name: 'Bob', email: 'bob@example.org', customFields: { ...REQUIRED, birthday: '1990-03-01' } });
    app.clock.set(at('2026-03-01T08:00:00Z'));
    await runSweepJob(app);
    await app.worker.idle();
    const [toAda] = mailTo('ada@example.org');
    const [toBob] = mailTo('bob@example.org');
    assert.ok(toAda && toBob, 'both were greeted');
    assert.equal(decodeHeader(header(toAda.raw, 'Subject')!), 'Happy birthday from Test Café!');

    link = /Unsubscribe: (\S+)/.exec(textOf(toAda.raw))![1]!;
    assert.ok(link.startsWith(`${app.config.installBaseUrl}/unsubscribe/${ada.passUserId}.`), link);
    assert.ok(htmlOf(toAda.raw).includes(`href="${link}"`), 'the same link in the HTML');
    assert.equal(header(toAda.raw, 'List-Unsubscribe'), `<${link}>`);
    const bobs = /Unsubscribe: (\S+)/.exec(textOf(toBob.raw))![1]!;
    assert.notEqual(bobs, link, 'each customer their own');
  });
});

describe('the unsubscribe page', () => {
  it('asks first: opening the link changes nothing', async () => {
    const page = await app.request('GET', new URL(link).pathname);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h2>Stop reminder and birthday emails\?<\/h2>/);
    assert.match(page.text, /<button type="submit" class="button big">Unsubscribe<\/button>/);
    assert.match(page.text, /When you ask for your card by email, it is still sent to you/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(unsubscribes(), 0);
  });

  it('refuses a form without its token or from another site, and a link that is not ours; nothing is written', async () => {
    const client = new ConsoleClient(app);
    const path = new URL(link).pathname;
    const page = await client.request('GET', path);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    assert.equal((await client.request('POST', path, { form: {} })).status, 403, 'no token');
    assert.equal((await client.request('POST', path, { form: { _csrf: csrf }, origin: 'https://evil.example' })).status, 403, 'another site');
    const mac = path.split('.')[1]!;
    const otherMac = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const bobId = customersRepo(app.db).findByEmail({ orgId: org.orgId, livemode: true }, 'bob@example.org')[0]!.id;
    for (const wrong of [`/unsubscribe/${ada.passUserId}.${otherMac}`, `/unsubscribe/${bobId}.${mac}`, '/unsubscribe/nonsense', `/unsubscribe/${ada.passUserId}`]) {
      const res = await client.request('GET', wrong);
      assert.equal(res.status, 404, wrong);
      assert.match(res.text, /This link does not work/);
      assert.equal((await client.request('POST', wrong, { form: { _csrf: csrf } })).status, 404, wrong);
    }
    assert.equal(unsubscribes(), 0);
  });

  it('the button stops these emails for that customer, and the page says so', async () => {
    const client = new ConsoleClient(app);
    const path = new URL(link).pathname;
    const page = await client.request('GET', path);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const res = await client.request('POST', path, { form: { _csrf: csrf } });
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.get('location'), path);
    const done = await client.request('GET', path);
    assert.match(done.text, /<h2>You are unsubscribed<\/h2>/);
    assert.doesNotMatch(done.text, /<button/);
    assert.equal(unsubscribes(), 1);
    // A second press (another tab) changes nothing.
    assert.equal((await client.request('POST', path, { form: { _csrf: csrf } })).status, 303);
    assert.equal(unsubscribes(), 1);
  });

  it('next year only the others are greeted; the card email she asks for still goes', async () => {
    const before = smtp.received.length;
    app.clock.set(at('2027-03-01T08:00:00Z'));
    await runSweepJob(app);
    await app.worker.idle();
    assert.deepEqual(smtp.received.slice(before).map((m) => m.to), [['bob@example.org']]);

    const customer = customersRepo(app.db).findByPassUserId(ada.passUserId)!;
    queueCardEmail(app.deps, customer, 'console');
    await app.worker.idle();
    assert.deepEqual(smtp.received.slice(before + 1).map((m) => m.to), [['ada@example.org']]);
    assert.match(decodeHeader(header(smtp.received.at(-1)!.raw, 'Subject')!), /^Your .* card from Test Café$/);
    assert.equal(header(smtp.received.at(-1)!.raw, 'List-Unsubscribe'), undefined, 'the card email has nothing to unsubscribe from');
  });

  it('an email queued before the button is not sent', async () => {
    const bob = customersRepo(app.db).findByEmail({ orgId: org.orgId, livemode: true }, 'bob@example.org')[0]!;
    const before = smtp.received.length;
    // Queued, then unsubscribed (what the button does) before the worker, woken after the commit, takes the row.
    inTransaction(app.db, () => assert.ok(queueNoticeEmail(app.deps, bob, 'birthday')));
    unsubscribeFromNotices(app.deps, bob.id);
    await app.advanceAndSweep(0);
    assert.equal(smtp.received.length, before, 'nothing went out');
    const row = app.db.prepare("SELECT status, error FROM mail_sends WHERE customer_id = ? AND kind = 'birthday' ORDER BY created_at DESC, rowid DESC LIMIT 1").get(bob.id);
    assert.deepEqual(row, { status: 'failed', error: 'not sent: the customer unsubscribed from reminder and birthday emails' });
    assert.equal(queueNoticeEmail(app.deps, bob, 'birthday'), false, 'and none is queued any more');
  });

  it('the link of a customer whose data was erased says the card was removed', async () => {
    assert.equal((await app.request('DELETE', `/api/v1/customers/pu_${ada.passUserId}`, { key: org.keys.live })).status, 200);
    const res = await app.request('GET', new URL(link).pathname);
    assert.equal(res.status, 410);
    assert.match(res.text, /removed with your details/);
  });

  it('the request log names the route, never the link', () => {
    const token = new URL(link).pathname.split('/').pop()!;
    const paths = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request' && e.path.startsWith('/unsubscribe')).map((e) => e.path);
    assert.ok(paths.length > 0);
    assert.ok(paths.every((p) => p === '/unsubscribe/:token' || p === '/unsubscribe/nonsense'), paths.join(', '));
    assert.ok(!lines.join('\n').includes(token));
  });
});
