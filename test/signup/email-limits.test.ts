// "Email me my card" on the sign-up pages is open to anyone, who can sign up with someone else's
// address and any text as a name. So its emails go out at most once a day to one mailbox
// (whichever shop asks) and twenty an hour from one client address; a held-back email still
// leaves the customer created and their card on the screen, and the console counts it. The
// subject never carries what the customer typed. Behind a proxy (TRUST_PROXY), so each client
// has its own address; a real SMTP server receives what is sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mailRepo } from '../../src/mail/repo';
import { ConsoleClient, seedConsoleOrg, type ConsoleOrg } from '../support/console';
import { decodeHeader, header, startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from '../support/mail';
import { countCustomers, GOOD_STAMPS_ANSWERS, SignupClient } from './support';

let smtp: TestSmtpServer;
let app: MailTestApp;
let cafe: ConsoleOrg;
let bakery: ConsoleOrg;
before(async () => {
  smtp = await startSmtpServer();
  app = await startMailApp(smtp, { TRUST_PROXY: 'true' });
  cafe = await seedConsoleOrg(app, 'Limits Café');
  bakery = await seedConsoleOrg(app, 'Limits Bakery');
});
after(async () => {
  await app.close();
  await smtp.close();
});

const HOUR = 3_600_000;
const SPAM_NAME = 'Claim your prize at prize-claims.example';

/** Signs up on the card's form from `address` and opens the welcome page, as a browser does. */
async function signUp(org: ConsoleOrg, address: string, answers: Record<string, string>) {
  const client = new SignupClient(app);
  const headers = { 'X-Forwarded-For': address };
  const form = await client.http.request('GET', `/get-pass/${org.cards.stamps}`, { headers });
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(form.text)![1]!;
  const sent = await client.http.request('POST', `/get-pass/${org.cards.stamps}`, { headers, form: { ...GOOD_STAMPS_ANSWERS, phone: '', _csrf: field('_csrf'), submission: field('submission'), ...answers } });
  assert.equal(sent.status, 303, sent.text.slice(0, 500));
  const welcomePath = sent.headers.get('location')!;
  const welcome = await client.http.request('GET', welcomePath, { headers });
  assert.equal(welcome.status, 200);
  return {
    welcomePath,
    welcome,
    /** Presses "Email me my card" on the welcome page; resolves with the page it leads back to. */
    async emailMe() {
      const code = new URL(welcomePath, app.url).searchParams.get('code')!;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(welcome.text)![1]!;
      const res = await client.http.request('POST', `/get-pass/${org.cards.stamps}/email`, { headers, form: { _csrf: csrf, code, page: 'welcome' } });
      assert.equal(res.status, 303);
      const location = res.headers.get('location')!;
      return { emailed: new URL(location, app.url).searchParams.get('emailed'), page: await client.http.request('GET', location, { headers }) };
    },
  };
}

const sendsTo = (address: string) => (app.db.prepare("SELECT count(*) AS n FROM mail_sends WHERE recipient = ? COLLATE NOCASE AND requested_via = 'signup'").get(address) as { n: number }).n;

async function heldBackOnConsole(org: ConsoleOrg): Promise<string> {
  const owner = new ConsoleClient(app);
  assert.equal((await owner.signIn(org.admin.email, org.admin.password)).status, 303);
  const page = await owner.request('GET', '/console/settings/email');
  return /<dl class="facts" id="held-back">([\s\S]*?)<\/dl>/.exec(page.text)![1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

describe('sign-up emails: the abuse limits', () => {
  it('one mailbox gets one sign-up email a day, whichever shop; a held-back sign-up still has its customer and card', async () => {
    const first = await signUp(cafe, '203.0.113.1', { name: SPAM_NAME, email: 'victim@example.org' });
    assert.equal((await first.emailMe()).emailed, '1');
    await app.worker.idle();
    const mail = smtp.received.at(-1)!;
    assert.deepEqual(mail.to, ['victim@example.org']);
    const subject = decodeHeader(header(mail.raw, 'Subject')!);
    assert.equal(subject, 'Your Coffee stamps card from Limits Café', 'the shop’s words only');
    assert.doesNotMatch(subject, /prize/i);

    // The same mailbox, spelled another way, at another shop, from another address.
    const customersBefore = countCustomers(app, bakery.cards.stamps);
    const second = await signUp(bakery, '198.51.100.2', { name: SPAM_NAME, email: 'Victim+again@Example.org' });
    assert.equal(countCustomers(app, bakery.cards.stamps), customersBefore + 1, 'the sign-up created the customer');
    const received = smtp.received.length;
    const held = await second.emailMe();
    assert.equal(held.emailed, 'held');
    assert.equal(held.page.status, 200);
    assert.match(held.page.text, /We could not send your card by email just now\. Your card is here: add it to your phone or open it with the buttons on this page, or ask at the counter\./);
    assert.match(held.page.text, /<a class="button big" href="\/pass\/[^"]+">Open my card<\/a>/, 'the card is on the screen');
    assert.doesNotMatch(held.page.text, /already|today/i, 'nothing tells a stranger that the address had an email today');
    await app.worker.idle();
    assert.equal(smtp.received.length, received, 'nothing sent');
    assert.equal(sendsTo('victim+again@example.org'), 0, 'nothing queued');

    assert.equal(await heldBackOnConsole(bakery), 'Today 1 sign-up email held back (1 to an address that already had one today) Last 7 days 1 sign-up email held back');
    assert.equal(await heldBackOnConsole(cafe), 'Today None held back Last 7 days None held back', 'each shop counts its own');

    app.clock.advance(24 * HOUR);
    assert.equal((await second.emailMe()).emailed, '1', 'a day later the card can be emailed again');
  });

  it('one client address gets 20 sign-up emails an hour; the 21st is held back, another address still gets its own', async () => {
    const signups = [];
    for (let i = 0; i < 21; i++) signups.push(await signUp(cafe, '192.0.2.50', { name: `Guest ${i}`, email: `guest-${i}@example.net` }));
    const outcomes = [];
    for (const s of signups) outcomes.push((await s.emailMe()).emailed);
    assert.deepEqual(outcomes, [...Array<string>(20).fill('1'), 'held']);
    assert.equal(sendsTo('guest-20@example.net'), 0);
    assert.equal(countCustomers(app, cafe.cards.stamps) >= 21, true);

    const elsewhere = await signUp(cafe, '192.0.2.51', { name: 'Neighbour', email: 'neighbour@example.net' });
    assert.equal((await elsewhere.emailMe()).emailed, '1');
    assert.equal(await heldBackOnConsole(cafe), `Today 1 sign-up email held back (1 from a network that asked for more than 20 in an hour) Last 7 days 1 sign-up email held back`);

    app.clock.advance(HOUR);
    assert.equal((await signups[20]!.emailMe()).emailed, '1', 'an hour later the address may ask again');
    await app.worker.idle();
    assert.equal(mailRepo(app.db).ofCustomer(app.db.prepare("SELECT id FROM customers WHERE email = 'guest-20@example.net'").pluck().get() as string).length, 1);
  });
});
