// The sign-up form over HTTP (issue 12): what a browser without JavaScript — or a program — can
// send, and that every refusal comes back as the form with its messages and writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inTransaction } from '../../src/db/transaction';
import { writeOrgSettings } from '../../src/orgs/settings';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from '../support/app';
import { withoutNonce } from '../support/wallet-app';
import { countCustomers, GOOD_STAMPS_ANSWERS, SignupClient, snapshot, tagOf, textOf } from './support';

let app: TestApp;
let org: StandardOrg;
/** A card that asks no name, an optional email, a required phone, and a work email as its identifier. */
let modesCard: string;

before(async () => {
  app = await startTestApp();
  org = seedStandardOrg(app);
  // No country (UTC gives none), whatever the machine's zone: a phone number needs its country code.
  setCountry('UTC', null);
  const seeded = app.seed({
    orgs: [
      {
        name: 'Modes Bakery',
        cards: [
          {
            name: 'Bread club',
            passType: 'point_card',
            dataCollectionEnabled: true,
            signupFields: { name: 'off', email: 'optional', phone: 'required' },
            questions: [{ key: 'work', label: 'Work email', type: 'email', required: true, isIdentifier: true }],
          },
        ],
      },
    ],
  });
  modesCard = seeded.orgs[0]!.cards[0]!.cardId;
});
after(async () => {
  await app?.close();
});

const stamps = () => org.cards.stamps;
const setCountry = (timeZone: string, country: string | null) => inTransaction(app.db, () => writeOrgSettings(app.db, org.orgId, { timeZone, country }));

describe('the form page', () => {
  it('a card with data collection shows the form, with a pre-session cookie and no script', async () => {
    const client = new SignupClient(app);
    const res = await client.http.request('GET', `/get-pass/${stamps()}`);
    assert.equal(res.status, 200);
    assert.match(res.text, /<form method="post" action="\/get-pass\/card_[A-Za-z0-9]+" class="signup-form" novalidate>/);
    assert.doesNotMatch(res.text, /<script/);
    const cookie = res.setCookies.find((c) => c.startsWith('wl_form='))!;
    assert.match(cookie, /; Path=\/get-pass; HttpOnly; SameSite=Strict/);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /form-action 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('a card without data collection keeps "ask at the counter", and a wrong code looks like no code', async () => {
    const res = await app.request('GET', `/get-pass/${org.cards.points}`);
    assert.equal(res.status, 200);
    assert.match(res.text, /ask at the counter/);
    assert.doesNotMatch(res.text, /<form/);
    const withWrongCode = await app.request('GET', `/get-pass/${stamps()}?code=${'x'.repeat(32)}`);
    assert.match(withWrongCode.text, /class="signup-form"/);
  });

  it('the contact fields follow the card: off is not shown, optional and required are marked', async () => {
    const { text } = await new SignupClient(app).open(modesCard);
    assert.equal(tagOf(text, 'f-name'), undefined);
    assert.match(tagOf(text, 'f-email')!, /type="email"/);
    assert.doesNotMatch(tagOf(text, 'f-email')!, / required/);
    assert.match(text, /Email <span class="muted small">\(optional\)<\/span>/);
    assert.match(tagOf(text, 'f-phone')!, /type="tel".* required/);
  });
});

describe('refusals come back inline and write nothing', () => {
  const cases: { name: string; change: Record<string, string>; field: string; message: RegExp }[] = [
    { name: 'letters in a number', change: { 'q.memberNo': '12a' }, field: 'f-q-memberNo', message: /Enter a number, such as 42/ },
    { name: 'a number with a decimal comma', change: { 'q.memberNo': '4,5' }, field: 'f-q-memberNo', message: /Enter a number/ },
    { name: 'a value outside the select', change: { 'q.size': 'XL' }, field: 'f-q-size', message: /Choose one of the options/ },
    { name: 'a select value in another case', change: { 'q.size': 'l' }, field: 'f-q-size', message: /Choose one of the options/ },
    { name: 'a date that does not exist', change: { 'q.birthday': '2023-02-29' }, field: 'f-q-birthday', message: /Enter a real date/ },
    { name: 'a date in another format', change: { 'q.birthday': '10/12/1815' }, field: 'f-q-birthday', message: /Enter a real date/ },
    { name: 'a malformed email answer', change: { 'q.altEmail': 'ada@' }, field: 'f-q-altEmail', message: /Enter an email address such as/ },
    { name: 'a phone answer without its country code', change: { 'q.altPhone': '0170 1234567' }, field: 'f-q-altPhone', message: /Enter a phone number with the country code, such as \+44 20 7946 0958\./ },
    { name: 'a checkbox sent with another value', change: { 'q.newsletter': 'yes' }, field: 'f-q-newsletter', message: /Tick the box or leave it empty/ },
    { name: 'a missing required answer', change: { 'q.memberNo': '   ' }, field: 'f-q-memberNo', message: /Enter a number\./ },
    { name: 'a missing required email answer', change: { 'q.altEmail': '' }, field: 'f-q-altEmail', message: /Enter an email address\./ },
    { name: 'a missing name', change: { name: '' }, field: 'f-name', message: /Enter your name/ },
    { name: 'a malformed email', change: { email: 'ada@example' }, field: 'f-email', message: /Enter an email address such as name@example\.com/ },
    { name: 'a phone without its country code', change: { phone: '020 7946 0958' }, field: 'f-phone', message: /Enter a phone number with the country code, such as \+44 20 7946 0958\./ },
    { name: 'a name over 200 characters', change: { name: 'A'.repeat(201) }, field: 'f-name', message: /At most 200 characters/ },
    { name: 'no consent', change: { consent: '' }, field: 'f-consent', message: /Tick the box to agree/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const before = snapshot(app);
      const res = await new SignupClient(app).signUp(stamps(), { ...GOOD_STAMPS_ANSWERS, email: `refused-${Math.random()}@example.com`, ...c.change });
      assert.equal(res.status, 400);
      assert.match(res.text, /Please check one answer/);
      assert.match(textOf(res.text, `${c.field}-error`) ?? '', c.message);
      const tag = tagOf(res.text, c.field)!;
      assert.match(tag, /aria-invalid="true"/);
      assert.match(tag, new RegExp(`aria-describedby="[^"]*${c.field}-error`));
      // What was typed is kept (the select shows its placeholder for a value it does not offer).
      if (c.change['q.memberNo'] === '12a') assert.match(tag, /value="12a"/);
      if (c.change.email) assert.match(tag, /value="ada@example"/);
      assert.match(tagOf(res.text, 'f-q-nickname')!, /value="Countess"/);
      assert.equal(snapshot(app), before, 'nothing written');
    });
  }

  it('several bad answers are listed together, in the order of the form', async () => {
    const before = snapshot(app);
    const res = await new SignupClient(app).signUp(stamps(), { ...GOOD_STAMPS_ANSWERS, consent: '', 'q.size': 'XL', email: 'x', 'q.memberNo': 'abc' });
    assert.equal(res.status, 400);
    assert.match(res.text, /Please check 4 answers/);
    const order = [...res.text.matchAll(/<li><a href="#(f-[^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(order, ['f-email', 'f-q-memberNo', 'f-q-size', 'f-consent']);
    assert.equal(snapshot(app), before);
  });

  it('a required phone on a card that asks for it, and a name sent to a card that does not ask it is not kept', async () => {
    const client = new SignupClient(app);
    const missing = await client.signUp(modesCard, { phone: '', 'q.work': 'bo@work.example', consent: 'yes' });
    assert.equal(missing.status, 400);
    assert.match(textOf(missing.text, 'f-phone-error')!, /Enter your phone number/);

    const ok = await client.signUp(modesCard, { name: 'Not asked', phone: '+1 415 555 2671', 'q.work': 'bo@work.example', consent: 'yes' });
    assert.equal(ok.status, 303);
    const row = app.db.prepare('SELECT name, email, phone, phone_norm, source, livemode, external_id FROM customers WHERE card_id = ?').get(modesCard);
    assert.deepEqual(row, { name: null, email: null, phone: '+1 415 555 2671', phone_norm: '+14155552671', source: 'signup', livemode: 1, external_id: null });
  });
});

describe('a shop with a country', () => {
  before(() => setCountry('Europe/Berlin', 'DE'));
  after(() => setCountry('UTC', null));

  it('shows a number of that country as the example, under the phone and the phone question', async () => {
    const { text } = await new SignupClient(app).open(stamps());
    assert.equal(textOf(text, 'f-phone-hint'), 'Such as 01512 3456789, or with the country code: +49 1512 3456789.');
    assert.equal(textOf(text, 'f-q-altPhone-hint'), 'Such as 01512 3456789, or with the country code: +49 1512 3456789.');
  });

  it('reads a number typed without its country code as one of that country and stores E.164; the same number with +49 is the same member', async () => {
    const client = new SignupClient(app);
    const res = await client.signUp(stamps(), { ...GOOD_STAMPS_ANSWERS, email: 'jana@example.de', phone: '0151 2345678', 'q.altPhone': '030 1234567' });
    assert.equal(res.status, 303, res.text);
    const row = app.db.prepare("SELECT phone, phone_norm AS phoneNorm, custom_fields FROM customers WHERE email_norm = 'jana@example.de'").get() as { phone: string; phoneNorm: string; custom_fields: string };
    assert.deepEqual([row.phone, row.phoneNorm, JSON.parse(row.custom_fields).altPhone], ['+491512345678', '+491512345678', '+49301234567']);

    const again = await new SignupClient(app).signUp(stamps(), { ...GOOD_STAMPS_ANSWERS, email: 'other-jana@example.de', phone: '+49 151 2345678' });
    assert.equal(again.status, 200);
    assert.match(again.text, /You are already a member/);
  });

  it('refuses what is no number of that country, with its example', async () => {
    const before = snapshot(app);
    const res = await new SignupClient(app).signUp(stamps(), { ...GOOD_STAMPS_ANSWERS, email: 'long@example.de', phone: '0151 234567890123' });
    assert.equal(res.status, 400);
    assert.equal(textOf(res.text, 'f-phone-error'), 'Enter a phone number such as 01512 3456789, or with the country code: +49 1512 3456789.');
    assert.equal(snapshot(app), before);
  });
});

describe('abuse', () => {
  it('CSRF: no Origin, a foreign Origin, no cookie and a wrong token are refused as a page, nothing written', async () => {
    const before = snapshot(app);
    const client = new SignupClient(app);
    const form = await client.open(stamps());
    const fields = { ...GOOD_STAMPS_ANSWERS, email: 'csrf@example.com', _csrf: form.csrf, submission: form.submission };
    for (const [what, res] of [
      ['no Origin', await client.send(stamps(), fields, { origin: null })],
      ['a foreign Origin', await client.send(stamps(), fields, { origin: 'https://evil.example' })],
      ['a wrong token', await client.send(stamps(), { ...fields, _csrf: 'x'.repeat(32) })],
      ['no cookie', await new SignupClient(app).send(stamps(), fields)],
    ] as const) {
      assert.equal(res.status, 403, what);
      assert.match(res.headers.get('content-type')!, /^text\/html/, what);
      assert.match(res.text, /This form has expired or was sent from another site/, what);
    }
    assert.equal(snapshot(app), before);
  });

  it('a form served on INSTALL_BASE_URL (the poster\'s address) posts from that origin, behind a TLS proxy too', async () => {
    // The proxy speaks plain http to the server (no TRUST_PROXY): the request's own origin is
    // http://cards.example.com, while the browser sends the https origin it saw.
    const split = await startTestApp({ env: { PUBLIC_URL: 'https://loyalty.example.com', INSTALL_BASE_URL: 'https://cards.example.com' } });
    try {
      const ids = seedStandardOrg(split);
      const client = new SignupClient(split);
      const form = await client.open(ids.cards.stamps);
      const fields = { ...GOOD_STAMPS_ANSWERS, _csrf: form.csrf, submission: form.submission };
      const res = await client.send(ids.cards.stamps, fields, { origin: 'https://cards.example.com' });
      assert.equal(res.status, 303, res.text);
      assert.equal(countCustomers(split), 1);
      assert.equal((await client.send(ids.cards.stamps, { ...fields, submission: 'x'.repeat(32) }, { origin: 'https://other.example.com' })).status, 403);
    } finally {
      await split.close();
    }
  });

  it('a filled honeypot is refused quietly: the form again, the trap emptied, nothing written', async () => {
    const before = snapshot(app);
    const res = await new SignupClient(app).signUp(stamps(), { ...GOOD_STAMPS_ANSWERS, email: 'bot@example.com', website: 'https://spam.example' });
    assert.equal(res.status, 400);
    assert.match(res.text, /We could not take this sign-up/);
    assert.match(tagOf(res.text, 'f-website')!, /value=""/);
    assert.match(tagOf(res.text, 'f-email')!, /value="bot@example.com"/);
    assert.equal(snapshot(app), before);
  });

  it('a body over 64 KiB is refused before it is read whole, and a body that is not a form too', async () => {
    const before = snapshot(app);
    const client = new SignupClient(app);
    const form = await client.open(stamps());
    const big = new URLSearchParams({ ...GOOD_STAMPS_ANSWERS, _csrf: form.csrf, 'q.nickname': 'n'.repeat(70 * 1024) }).toString();
    const res = await fetch(`${app.url}/get-pass/${stamps()}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url, Cookie: client.http.cookieHeader() },
      body: big,
    });
    assert.equal(res.status, 413);
    assert.match(await res.text(), /Forms are limited to 64 KiB/);
    const json = await fetch(`${app.url}/get-pass/${stamps()}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: client.http.cookieHeader() }, body: '{}' });
    assert.equal(json.status, 415);
    assert.equal(snapshot(app), before);
  });

  it('the anonymous rate limit per address answers a page, not JSON', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '2' } });
    try {
      const ids = seedStandardOrg(limited);
      const client = new SignupClient(limited);
      const form = await client.open(ids.cards.stamps); // one request
      const fields = { ...GOOD_STAMPS_ANSWERS, _csrf: form.csrf, submission: form.submission, consent: '' };
      assert.equal((await client.send(ids.cards.stamps, fields)).status, 400); // two
      const refused = await client.send(ids.cards.stamps, { ...fields, consent: 'yes' }); // three: over
      assert.equal(refused.status, 429);
      assert.match(refused.headers.get('content-type')!, /^text\/html/);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.match(refused.text, /Too many attempts/);
      assert.equal(countCustomers(limited), 0);
      limited.clock.advance(1_000);
      assert.equal((await client.send(ids.cards.stamps, { ...fields, consent: 'yes' })).status, 303);
    } finally {
      await limited.close();
    }
  });

  it('a card without data collection takes no sign-up, and an unknown card is not found', async () => {
    const before = snapshot(app);
    const client = new SignupClient(app);
    const { csrf } = await client.open(stamps());
    const closed = await client.send(org.cards.points, { ...GOOD_STAMPS_ANSWERS, _csrf: csrf });
    assert.equal(closed.status, 403);
    assert.match(closed.text, /does not take sign-ups online/);
    const unknown = await client.send('card_doesNotExist', { ...GOOD_STAMPS_ANSWERS, _csrf: csrf });
    assert.equal(unknown.status, 404);
    assert.equal(snapshot(app), before);
  });
});

describe('sign-up outcomes', () => {
  it('the same form sent twice (a double tap) lands both times on the one new customer', async () => {
    const client = new SignupClient(app);
    const form = await client.open(stamps());
    const answers = { ...GOOD_STAMPS_ANSWERS, email: 'twice@example.com', phone: '', 'q.memberNo': '9001' };
    const fields = { ...answers, _csrf: form.csrf, submission: form.submission };
    const first = await client.send(stamps(), fields);
    const second = await client.send(stamps(), fields);
    assert.equal(first.status, 303);
    assert.equal(second.status, 303);
    assert.match(first.headers.get('location')!, /^\/get-pass\/card_[A-Za-z0-9]+\/welcome\?code=[A-Za-z0-9]{32}$/);
    assert.equal(second.headers.get('location'), first.headers.get('location'));
    assert.equal((app.db.prepare('SELECT count(*) AS n FROM customers WHERE email = ?').get('twice@example.com') as { n: number }).n, 1);
    // Another form (another submission value) with the same email is "already a member".
    const again = await client.signUp(stamps(), answers);
    assert.equal(again.status, 200);
    assert.match(again.text, /You are already a member/);
  });

  it('already a member: the same page whatever matched (email, phone, the identifier answer), nothing of the member on it, nothing written', async () => {
    const client = new SignupClient(app);
    const created = await client.signUp(modesCard, { email: 'Cleo@Example.com', phone: '+33 1 42 68 53 00', 'q.work': 'Cleo@Work.example', consent: 'yes' });
    assert.equal(created.status, 303);
    const member = app.db.prepare("SELECT * FROM customers WHERE email = 'Cleo@Example.com'").get() as Record<string, string>;
    const before = snapshot(app);
    const pages: string[] = [];
    for (const answers of [
      { email: 'cleo@example.com', phone: '+1 415 555 0000', 'q.work': 'other@work.example' }, // same email, another case
      { email: 'someone@example.com', phone: '+33142685300', 'q.work': 'another@work.example' }, // same phone, written otherwise
      { email: 'third@example.com', phone: '+1 415 555 0001', 'q.work': 'CLEO@work.example' }, // same identifier answer
    ]) {
      const res = await new SignupClient(app).signUp(modesCard, { ...answers, consent: 'yes' });
      assert.equal(res.status, 200);
      assert.match(res.text, /You are already a member/);
      assert.match(res.text, /Ask at the counter/);
      for (const secret of [member.install_code, member.scan_code, member.id, 'Cleo', 'code=']) assert.ok(!res.text.includes(secret!), `the page shows ${secret}`);
      pages.push(withoutNonce(res.text));
    }
    assert.equal(pages[1], pages[0]);
    assert.equal(pages[2], pages[0]);
    assert.equal(snapshot(app), before, 'no customer, answer, event or ledger row written');
  });

  it('a number identifier matches its canonical value, whatever digits spelled it', async () => {
    const seeded = app.seed({
      orgs: [{ name: 'Numbers', cards: [{ name: 'Gym', passType: 'stamp_card', dataCollectionEnabled: true, signupFields: { name: 'required', email: 'off', phone: 'off' }, questions: [{ key: 'member', label: 'Member number', type: 'number', required: true, isIdentifier: true }] }] }],
    });
    const gym = seeded.orgs[0]!.cards[0]!.cardId;
    assert.equal((await new SignupClient(app).signUp(gym, { name: 'Dee', 'q.member': '0042', consent: 'yes' })).status, 303);
    const again = await new SignupClient(app).signUp(gym, { name: 'Eve', 'q.member': '42.0', consent: 'yes' });
    assert.match(again.text, /You are already a member/);
    const other = await new SignupClient(app).signUp(gym, { name: 'Fay', 'q.member': '43', consent: 'yes' });
    assert.equal(other.status, 303);
    assert.equal(countCustomers(app, gym), 2);
  });
});
