import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { decodeHeader, header, mimeParts, startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from './support/mail';
import { api, days, enrollWithConsent, eventsOf, runSweepJob, setTimeZone } from './support/programme';
import { subscribeToEvery } from './support/customers';
import { GOOD_STAMPS_ANSWERS, SignupClient } from './signup/support';

// Birthdays: the birthday kept beside the answer by every writer, and the sweep — the shop's day
// decides (Auckland is a day ahead of Los Angeles), 29 February on 28 February outside leap years,
// nothing in a year the date was set or changed within 30 days before it, once per calendar year,
// and catching up over a clock jump.

const at = (iso: string) => Date.parse(iso);
const birthdayOf = (app: TestApp, passUserId: string) =>
  app.db.prepare('SELECT month_day AS monthDay, set_at AS setAt, paid_year AS paidYear FROM customer_birthdays WHERE customer_id = ?').get(passUserId) as { monthDay: string; setAt: number; paidYear: number | null } | undefined;
const REQUIRED = { memberNo: 1, altEmail: 'x@example.org' };

describe('birthdays: kept with the answers by every writer', () => {
  let app: TestApp;
  let org: StandardOrg;
  let live: ReturnType<typeof api>;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    live = api(app, org.keys.live);
  });
  after(() => app.close());

  it('switching the treat on reads the answers already given, as given when each customer enrolled', async () => {
    app.clock.set(at('2026-01-01T09:00:00Z'));
    const before = await live.enroll(org.cards.stamps, 'early', { customFields: { ...REQUIRED, birthday: '1990-07-04' } });
    const none = await live.enroll(org.cards.stamps, 'no-answer', { customFields: REQUIRED });
    app.clock.set(at('2026-01-10T09:00:00Z'));
    assert.equal(birthdayOf(app, before.passUserId), undefined, 'no treat, nothing kept');
    await live.patchCard(org.cards.stamps, { birthday: { questionKey: 'birthday', units: 2 } });
    assert.deepEqual(birthdayOf(app, before.passUserId), { monthDay: '07-04', setAt: at('2026-01-01T09:00:00Z'), paidYear: null });
    assert.equal(birthdayOf(app, none.passUserId), undefined);
  });

  it('enroll, a matching enroll, PATCH and the sign-up form set it; a new year of birth is no change; erasure removes it', async () => {
    app.clock.set(at('2026-02-01T09:00:00Z'));
    const ada = await live.enroll(org.cards.stamps, 'ada', { email: 'ada@example.org', customFields: { ...REQUIRED, birthday: '1991-05-01' } });
    assert.deepEqual(birthdayOf(app, ada.passUserId), { monthDay: '05-01', setAt: app.clock.now(), paidYear: null });

    app.clock.advance(days(1));
    await live.enroll(org.cards.stamps, 'ada', { customFields: { birthday: '1991-05-02' } });
    assert.deepEqual(birthdayOf(app, ada.passUserId), { monthDay: '05-02', setAt: app.clock.now(), paidYear: null }, 'a matched enroll writes answers too');

    const changedAt = app.clock.now();
    app.clock.advance(days(1));
    await live.call('PATCH', '/customers/ada', { customFields: { birthday: '1992-05-02' } }, 200);
    assert.equal(birthdayOf(app, ada.passUserId)!.setAt, changedAt, 'the same day of another year changes nothing the treat depends on');
    await live.call('PATCH', '/customers/ada', { customFields: { BIRTHDAY: '1992-06-02' } }, 200);
    assert.deepEqual(birthdayOf(app, ada.passUserId), { monthDay: '06-02', setAt: app.clock.now(), paidYear: null });

    const signup = new SignupClient(app);
    const res = await signup.signUp(org.cards.stamps, { ...GOOD_STAMPS_ANSWERS, email: 'signup@example.org', 'q.birthday': '1815-12-10' });
    assert.equal(res.status, 303, res.text);
    const created = app.db.prepare('SELECT id FROM customers WHERE email = ?').get('signup@example.org') as { id: string };
    assert.deepEqual(birthdayOf(app, created.id), { monthDay: '12-10', setAt: app.clock.now(), paidYear: null });

    await live.call('DELETE', '/customers/ada', undefined, 200);
    assert.equal(birthdayOf(app, ada.passUserId), undefined, 'the birthday goes with the answers');
  });
});

describe('birthdays: the sweep', () => {
  let app: TestApp;
  let auckland: StandardOrg;
  let losAngeles: StandardOrg;
  let utc: StandardOrg;
  before(async () => {
    app = await startTestApp();
    auckland = seedStandardOrg(app, 'Auckland Café');
    losAngeles = seedStandardOrg(app, 'LA Café');
    utc = seedStandardOrg(app, 'UTC Café');
    subscribeToEvery(app, auckland.orgId);
    setTimeZone(app, auckland.orgId, 'Pacific/Auckland');
    setTimeZone(app, losAngeles.orgId, 'America/Los_Angeles');
    setTimeZone(app, utc.orgId, 'UTC');
    app.clock.set(at('2025-06-01T00:00:00Z'));
    for (const org of [auckland, losAngeles, utc]) await api(app, org.keys.live).patchCard(org.cards.stamps, { birthday: { questionKey: 'birthday', units: 2 } });
    await runSweepJob(app);
  });
  after(() => app.close());

  const stamps = async (org: StandardOrg, ref: string) => (await api(app, org.keys.live).read(ref)).balance.stamps as number;

  it('the shop’s day decides: Auckland pays a day before Los Angeles for the same instant; balance.updated says birthday; a second run pays nothing', async () => {
    const kiwi = await api(app, auckland.keys.live).enroll(auckland.cards.stamps, 'kiwi', { customFields: { ...REQUIRED, birthday: '1990-03-15' } });
    await api(app, losAngeles.keys.live).enroll(losAngeles.cards.stamps, 'angeleno', { customFields: { ...REQUIRED, birthday: '1990-03-15' } });
    // 14 March 12:00 UTC is 15 March 01:00 in Auckland and 14 March 05:00 in Los Angeles.
    app.clock.set(at('2026-03-14T12:00:00Z'));
    await runSweepJob(app);
    assert.deepEqual([await stamps(auckland, 'kiwi'), await stamps(losAngeles, 'angeleno')], [2, 0]);
    app.clock.set(at('2026-03-15T06:59:00Z'));
    await runSweepJob(app);
    assert.equal(await stamps(losAngeles, 'angeleno'), 0, 'still 14 March in Los Angeles');
    app.clock.set(at('2026-03-15T07:00:00Z'));
    await runSweepJob(app);
    await runSweepJob(app);
    assert.deepEqual([await stamps(auckland, 'kiwi'), await stamps(losAngeles, 'angeleno')], [2, 2], 'once each');

    const rows = (await api(app, auckland.keys.live).history('kiwi')).filter((r) => r.kind === 'birthday');
    assert.deepEqual(rows.map((r) => [r.change, r.source]), [[2, 'birthday']]);
    const event = eventsOf(app, kiwi.passUserId).find((e) => e.type === 'balance.updated')!;
    assert.deepEqual([event.data.source, event.data.change, event.data.balance], ['birthday', 2, 2]);
    const award = app.db.prepare("SELECT is_award FROM transactions WHERE customer_id = ? AND kind = 'birthday'").get(kiwi.passUserId) as { is_award: number };
    assert.equal(award.is_award, 0, 'a treat, not a visit: no earning limits, not counted as an award');
  });

  it('29 February counts on 28 February in other years and on 29 February in leap years; 28 February never twice', async () => {
    const live = api(app, utc.keys.live);
    await live.enroll(utc.cards.stamps, 'leapling', { customFields: { ...REQUIRED, birthday: '2000-02-29' } });
    await live.enroll(utc.cards.stamps, 'feb28', { customFields: { ...REQUIRED, birthday: '1999-02-28' } });
    const cases: [string, number, number][] = [
      ['2027-02-27T23:00:00Z', 0, 0],
      ['2027-02-28T00:30:00Z', 2, 2],
      ['2027-03-01T00:30:00Z', 2, 2],
      ['2028-02-28T12:00:00Z', 2, 4],
      ['2028-02-29T12:00:00Z', 4, 4],
      ['2028-03-01T12:00:00Z', 4, 4],
    ];
    for (const [time, leapling, feb28] of cases) {
      app.clock.set(at(time));
      await runSweepJob(app);
      assert.deepEqual([await stamps(utc, 'leapling'), await stamps(utc, 'feb28')], [leapling, feb28], time);
    }
  });

  it('a birthday set or changed within 30 days before it earns nothing that year, and is paid the next', async () => {
    const live = api(app, utc.keys.live);
    app.clock.set(at('2028-04-01T12:00:00Z'));
    await live.enroll(utc.cards.stamps, 'just-set', { customFields: { ...REQUIRED, birthday: '1980-04-30' } }); // 29 days before
    await live.enroll(utc.cards.stamps, 'in-time', { customFields: { ...REQUIRED, birthday: '1980-05-02' } }); // 31 days before
    await live.enroll(utc.cards.stamps, 'mover', { customFields: { ...REQUIRED, birthday: '1980-12-24' } });
    app.clock.set(at('2028-04-20T12:00:00Z'));
    await runSweepJob(app);
    await live.call('PATCH', '/customers/mover', { customFields: { birthday: '1980-04-25' } }, 200); // moved to 5 days ahead
    app.clock.set(at('2028-05-03T12:00:00Z'));
    await runSweepJob(app);
    assert.deepEqual([await stamps(utc, 'just-set'), await stamps(utc, 'in-time'), await stamps(utc, 'mover')], [0, 2, 0]);
    app.clock.set(at('2029-05-03T12:00:00Z'));
    await runSweepJob(app);
    assert.deepEqual([await stamps(utc, 'just-set'), await stamps(utc, 'in-time'), await stamps(utc, 'mover')], [2, 4, 2], 'a year later all three are paid, once');
  });

  it('catches up over a clock jump: every birthday since the last run is paid, each calendar year once', async () => {
    const live = api(app, utc.keys.live);
    app.clock.set(at('2029-06-01T12:00:00Z'));
    await live.enroll(utc.cards.stamps, 'sleeper', { customFields: { ...REQUIRED, birthday: '1970-08-10' } });
    await runSweepJob(app);
    // The server was off from June 2029 to September 2031: three birthdays fell in between.
    app.clock.set(at('2031-09-01T12:00:00Z'));
    await runSweepJob(app);
    assert.equal(await stamps(utc, 'sleeper'), 6);
    await runSweepJob(app);
    assert.equal(await stamps(utc, 'sleeper'), 6);
    const years = (await live.history('sleeper')).filter((r) => r.kind === 'birthday');
    assert.equal(years.length, 3, 'one row per birthday');
  });
});

describe('birthdays: the greeting', () => {
  let smtp: TestSmtpServer;
  let app: MailTestApp;
  let org: StandardOrg;
  before(async () => {
    smtp = await startSmtpServer();
    app = await startMailApp(smtp);
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

  it('an email to the customers who agreed on the sign-up form, naming the treat', async () => {
    enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.stamps, { name: 'Ada', email: 'ada@example.org', customFields: { ...REQUIRED, birthday: '1990-03-01' } });
    await api(app, org.keys.live).enroll(org.cards.stamps, 'no-consent', { email: 'bob@example.org', customFields: { ...REQUIRED, birthday: '1990-03-01' } });
    app.clock.set(at('2026-03-01T08:00:00Z'));
    await runSweepJob(app);
    await app.worker.idle();
    assert.deepEqual(smtp.received.map((m) => m.to), [['ada@example.org']]);
    assert.equal(decodeHeader(header(smtp.received[0]!.raw, 'Subject')!), 'Happy birthday from Test Café!');
    const text = mimeParts(smtp.received[0]!.raw).find((p) => p.type === 'text/plain')!.body.toString('utf8');
    assert.match(text, /added 3 stamps to your Coffee stamps card/);
  });
});
