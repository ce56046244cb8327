import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { cardsRepo } from '../src/cards/repo';
import { CardConfig } from '../src/cards/schemas';
import { updateCard } from '../src/cards/service';
import { reverseTransaction } from '../src/loyalty/service';
import { customersRepo } from '../src/customers/repo';
import { runLoyaltySweeps } from '../src/sweeps/run';
import { SeedError } from '../src/seed/service';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { decodeHeader, header, mimeParts, startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from './support/mail';
import { api, days, enrollWithConsent, eventsOf, passDetails, runSweepJob, setTimeZone } from './support/programme';
import { subscribeToEvery } from './support/customers';

// Expiry: the card setting, oldest units first, never retroactive, per-award expiry at the end of
// the shop's day, inactivity, and the sweep (one row and one balance.updated per customer, level
// changes, idempotent, whole chunks only when it stops half-way).

const at = (iso: string) => Date.parse(iso);

describe('expiry: the card setting', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  const cases: { name: string; card: keyof StandardOrg['cards']; body: unknown; status: number; expect?: Record<string, unknown>; message?: RegExp; key?: 'test' }[] = [
    { name: 'months on a point card, reminders by default 14 days before', card: 'points', body: { expiry: { months: 12 } }, status: 200, expect: { expiry: { months: 12, remindDays: 14 } } },
    { name: 'inactivity on a stamp card, no reminders', card: 'stamps', body: { expiry: { inactiveDays: 30, remindDays: 0 } }, status: 200, expect: { expiry: { inactiveDays: 30, remindDays: 0 } } },
    { name: 'months on a level card', card: 'levels', body: { expiry: { months: 60, remindDays: 365 } }, status: 200, expect: { expiry: { months: 60, remindDays: 365 } } },
    { name: 'off again', card: 'levels', body: { expiry: null }, status: 200, expect: { expiry: null } },
    { name: 'a birthday treat on the card’s date question (any case)', card: 'stamps', body: { birthday: { questionKey: 'BIRTHDAY', units: 2 } }, status: 200, expect: { birthday: { questionKey: 'birthday', units: 2 } } },
    { name: 'months on a stamp card', card: 'stamps', body: { expiry: { months: 6 } }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE: expiry/ },
    { name: 'expiry on store credit', card: 'prepaid', body: { expiry: { inactiveDays: 30 } }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE: expiry/ },
    { name: 'a birthday on store credit', card: 'prepaid', body: { birthday: { questionKey: 'x', units: 1 } }, status: 400, message: /^UNSUPPORTED_FOR_CARD_TYPE: birthday/ },
    { name: '0 months', card: 'points', body: { expiry: { months: 0 } }, status: 400, message: /^VALIDATION_FAILED: expiry\.months$/ },
    { name: '61 months', card: 'points', body: { expiry: { months: 61 } }, status: 400, message: /^VALIDATION_FAILED: expiry\.months$/ },
    { name: '6 inactive days', card: 'points', body: { expiry: { inactiveDays: 6 } }, status: 400, message: /^VALIDATION_FAILED: expiry\.inactiveDays$/ },
    { name: 'both rules', card: 'points', body: { expiry: { months: 3, inactiveDays: 30 } }, status: 400, message: /^VALIDATION_FAILED: expiry\.inactiveDays$/ },
    { name: 'no rule', card: 'points', body: { expiry: {} }, status: 400, message: /^VALIDATION_FAILED: expiry$/ },
    { name: 'remindDays past a year', card: 'points', body: { expiry: { months: 3, remindDays: 366 } }, status: 400, message: /^VALIDATION_FAILED: expiry\.remindDays$/ },
    { name: 'a birthday question that is not a date', card: 'stamps', body: { birthday: { questionKey: 'nickname', units: 1 } }, status: 400, message: /^VALIDATION_FAILED: birthday\.questionKey$/ },
    { name: 'a birthday question the card lacks', card: 'points', body: { birthday: { questionKey: 'birthday', units: 1 } }, status: 400, message: /^VALIDATION_FAILED: birthday\.questionKey$/ },
    { name: 'birthday units with a fraction', card: 'stamps', body: { birthday: { questionKey: 'birthday', units: 1.5 } }, status: 400, message: /^VALIDATION_FAILED: birthday\.units$/ },
    { name: 'a test key', card: 'points', key: 'test', body: { expiry: { months: 12 } }, status: 400, message: /^NOT_AVAILABLE_IN_TEST_MODE/ },
  ];
  for (const c of cases) {
    it(`PATCH /v1/cards/{cardId}: ${c.name}`, async () => {
      const res = await app.request('PATCH', `/api/v1/cards/${org.cards[c.card]}`, { key: c.key === 'test' ? org.keys.test : org.keys.live, body: c.body });
      assert.equal(res.status, c.status, res.text);
      if (c.message) assert.match(res.body.message, c.message);
      for (const [field, value] of Object.entries(c.expect ?? {})) assert.deepEqual(res.body[field], value, field);
    });
  }

  it('GET /v1/cards shows the settings; a PATCH of one field leaves the others', async () => {
    await api(app, org.keys.live).patchCard(org.cards.points, { expiry: { months: 6, remindDays: 7 } });
    await api(app, org.keys.live).patchCard(org.cards.points, { identifierQuestionKey: null });
    const cards = (await app.request('GET', '/api/v1/cards', { key: org.keys.test })).body as { cardId: string; expiry: unknown; birthday: unknown }[];
    const points = cards.find((c) => c.cardId === org.cards.points)!;
    assert.deepEqual([points.expiry, points.birthday], [{ months: 6, remindDays: 7 }, null]);
  });

  it('a card saved from the console’s editor (which does not show them yet) keeps its expiry and birthday', async () => {
    await api(app, org.keys.live).patchCard(org.cards.stamps, { expiry: { inactiveDays: 60 }, birthday: { questionKey: 'birthday', units: 3 } });
    const card = cardsRepo(app.db).findById(org.cards.stamps)!;
    const config = v.parse(CardConfig, { name: 'Renamed stamps', passType: 'stamp_card', dataCollectionEnabled: true, questions: card.questions });
    updateCard(app.deps, org.orgId, card.id, config);
    const after = cardsRepo(app.db).findById(card.id)!;
    assert.deepEqual([after.name, after.expiry, after.birthday, after.lotsSince], ['Renamed stamps', { inactiveDays: 60, remindDays: 14 }, { questionKey: 'birthday', units: 300 }, card.lotsSince]);
  });

  it('the seed file takes expiry and birthday, and refuses what the card type cannot have', () => {
    const [seeded] = app.seed({
      orgs: [{ name: 'Seeded', cards: [{ name: 'P', passType: 'point_card', expiry: { months: 12 }, questions: [{ key: 'born', label: 'Birthday', type: 'date' }], birthday: { questionKey: 'born', units: 5 } }] }],
    }).orgs;
    const row = app.db.prepare('SELECT expiry, birthday, lots_since FROM cards WHERE id = ?').get(seeded!.cards[0]!.cardId) as { expiry: string; birthday: string; lots_since: number };
    assert.deepEqual([JSON.parse(row.expiry), JSON.parse(row.birthday), row.lots_since], [{ months: 12, remindDays: 14 }, { questionKey: 'born', units: 500 }, app.clock.now()]);
    assert.throws(() => app.seed({ orgs: [{ name: 'Bad', cards: [{ name: 'G', passType: 'prepaid_card', expiry: { inactiveDays: 30 } }] }] }), (err: Error) => err instanceof SeedError && /expiry: store credit is money/.test(err.message));
    assert.throws(() => app.seed({ orgs: [{ name: 'Bad', cards: [{ name: 'S', passType: 'stamp_card', birthday: { questionKey: 'born', units: 1 } }] }] }), (err: Error) => err instanceof SeedError && /birthday\.questionKey: the card has no question born/.test(err.message));
  });
});

describe('expiry: oldest units first, never retroactive, at the end of the shop’s day', () => {
  let app: TestApp;
  let org: StandardOrg;
  let live: ReturnType<typeof api>;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    live = api(app, org.keys.live);
    setTimeZone(app, org.orgId, 'Europe/Berlin');
  });
  after(() => app.close());

  it('switching expiry on never touches units awarded before; awards after it expire N months later at the end of the shop’s day', async () => {
    app.clock.set(at('2026-01-05T10:00:00Z'));
    await live.enroll(org.cards.points, 'old-units');
    await live.earn('old-units', 'points', 10);
    await live.patchCard(org.cards.points, { expiry: { months: 1 } });
    assert.equal((await live.read('old-units')).expiring, null, 'units from before expiry never expire');

    // Awarded on 15 January in Berlin: valid through 15 February, to 23:59:59.999 Berlin time.
    app.clock.set(at('2026-01-15T10:00:00Z'));
    await live.earn('old-units', 'points', 5);
    // Awarded on 31 January (Berlin): one month on is the last day of February.
    app.clock.set(at('2026-01-30T23:30:00Z'));
    await live.earn('old-units', 'points', 7);
    assert.deepEqual((await live.read('old-units')).expiring, { amount: 5, at: '2026-02-15T22:59:59.999Z' });

    app.clock.set(at('2026-02-15T22:59:59.999Z'));
    await runSweepJob(app);
    assert.deepEqual((await live.read('old-units')).balance, { points: 22 }, 'still valid in its last millisecond');
    app.clock.set(at('2026-02-15T23:00:00Z'));
    await runSweepJob(app);
    const read = await live.read('old-units');
    assert.deepEqual([read.balance, read.expiring], [{ points: 17 }, { amount: 7, at: '2026-02-28T22:59:59.999Z' }]);

    app.clock.set(at('2031-01-01T00:00:00Z'));
    await runSweepJob(app);
    const years = await live.read('old-units');
    assert.deepEqual([years.balance, years.expiring], [{ points: 10 }, null], 'five years on, the units from before expiry are all still there');
    const rows = (await live.history('old-units')).filter((r) => r.kind === 'expiry');
    assert.deepEqual(rows.map((r) => [r.change, r.source, r.createdAt]), [[-7, 'expiry', '2031-01-01T00:00:00.000Z'], [-5, 'expiry', '2026-02-15T23:00:00.000Z']]);
  });

  it('redemptions use the oldest units first: those from before expiry, then the awards by age', async () => {
    app.clock.set(at('2026-01-01T12:00:00Z'));
    await live.enroll(org.cards.points, 'fifo');
    await live.earn('fifo', 'points', 4); // expiry is on (months 1) from the test above
    await live.patchCard(org.cards.points, { expiry: null });
    await live.earn('fifo', 'points', 100); // awarded while expiry is off: never expires
    await live.patchCard(org.cards.points, { expiry: { months: 2 } });
    app.clock.advance(days(1));
    await live.earn('fifo', 'points', 6);
    assert.deepEqual((await live.read('fifo')).expiring, { amount: 4, at: '2026-02-01T22:59:59.999Z' });
    await live.redeem('fifo', 5);
    // The 4 went first, then 1 of the 100 that never expire: the 6 expire whole.
    assert.deepEqual((await live.read('fifo')).expiring, { amount: 6, at: '2026-03-02T22:59:59.999Z' });
    app.clock.set(at('2026-04-01T00:00:00Z'));
    await runSweepJob(app);
    assert.deepEqual((await live.read('fifo')).balance, { points: 99 });
  });

  it('undoing an award takes that award’s own units back first', async () => {
    const { passUserId } = await live.enroll(org.cards.points, 'undo');
    await live.earn('undo', 'points', 3);
    app.clock.advance(days(10));
    const second = await live.earn('undo', 'points', 8);
    const customer = customersRepo(app.db).findByPassUserId(passUserId)!;
    reverseTransaction(app.deps, { customer, transactionId: second.transactionId, source: 'scan' });
    const read = await live.read('undo');
    assert.deepEqual([read.balance, read.expiring.amount], [{ points: 3 }, 3], 'the older award is whole');
  });
});

describe('expiry: inactivity', () => {
  let app: TestApp;
  let org: StandardOrg;
  let live: ReturnType<typeof api>;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    live = api(app, org.keys.live);
    setTimeZone(app, org.orgId, 'Europe/Berlin');
    await live.patchCard(org.cards.stamps, { expiry: { inactiveDays: 30, remindDays: 0 } });
  });
  after(() => app.close());

  it('the whole balance expires at the end of the shop’s day N days after the last award; a redemption does not count as one', async () => {
    app.clock.set(at('2026-01-01T10:00:00Z'));
    await live.enroll(org.cards.stamps, 'sleepy', { customFields: { memberNo: 1, altEmail: 'a@example.org' } });
    await live.earn('sleepy', 'stamps', 3);
    app.clock.set(at('2026-01-20T10:00:00Z'));
    await live.earn('sleepy', 'stamps', 2);
    app.clock.set(at('2026-02-01T10:00:00Z'));
    await live.call('POST', '/customers/sleepy/redeem', { type: 'reward' }, 400); // 10 stamps needed: nothing written
    assert.deepEqual((await live.read('sleepy')).expiring, { amount: 5, at: '2026-02-19T22:59:59.999Z' });
    app.clock.set(at('2026-02-19T22:30:00Z'));
    await runSweepJob(app);
    assert.deepEqual((await live.read('sleepy')).balance, { stamps: 5 });
    app.clock.set(at('2026-02-19T23:00:00Z'));
    await runSweepJob(app);
    assert.deepEqual((await live.read('sleepy')).balance, { stamps: 0 });
    const history = await live.history('sleepy');
    assert.deepEqual(history.slice(0, 1).map((r) => [r.kind, r.change, r.source]), [['expiry', -5, 'expiry']], 'one row for the whole balance');
  });
});

describe('expiry: the sweep', () => {
  let app: TestApp;
  let org: StandardOrg;
  let live: ReturnType<typeof api>;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    subscribeToEvery(app, org.orgId);
    live = api(app, org.keys.live);
    setTimeZone(app, org.orgId, 'UTC');
    await live.patchCard(org.cards.levels, { expiry: { months: 1, remindDays: 0 } });
    await live.patchCard(org.cards.points, { expiry: { months: 1, remindDays: 0 } });
  });
  after(() => app.close());

  it('writes one expiry row and one balance.updated per customer (several lots together), level.changed when the tier drops, the pass update queued; a second run does nothing', async () => {
    app.clock.set(at('2026-01-01T08:00:00Z'));
    const { passUserId } = await live.enroll(org.cards.levels, 'climber');
    await live.earn('climber', 'points', 60);
    await live.earn('climber', 'points', 60);
    assert.equal((await live.read('climber')).balance.level, 'Silver');
    const before = eventsOf(app, passUserId).length;
    app.clock.set(at('2026-02-02T00:00:00Z'));
    await runSweepJob(app);
    const events = eventsOf(app, passUserId).slice(before);
    assert.deepEqual(events.map((e) => e.type), ['balance.updated', 'level.changed']);
    assert.deepEqual([events[0]!.data.source, events[0]!.data.change, events[0]!.data.balance], ['expiry', -120, 0]);
    assert.deepEqual([events[1]!.data.level, events[1]!.data.previousLevel], ['Bronze', 'Silver']);
    const customer = customersRepo(app.db).findByPassUserId(passUserId)!;
    assert.equal(customer.passVersion, 4, 'two awards and the expiry each give the pass a new version');

    const count = () => app.db.prepare("SELECT (SELECT count(*) FROM transactions WHERE kind = 'expiry') AS rows, (SELECT count(*) FROM events) AS events").get();
    const once = count();
    await runSweepJob(app);
    assert.deepEqual(count(), once, 'run twice = run once');
  });

  it('a run that fails in its second chunk keeps the first chunk whole; the next run expires the rest, none twice', async () => {
    app.clock.set(at('2026-03-01T08:00:00Z'));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await live.enroll(org.cards.points, `chunk-${i}`)).passUserId);
      await live.earn(`chunk-${i}`, 'points', 10 + i);
    }
    app.clock.set(at('2026-04-02T00:00:00Z'));
    // The third expiry row of the run fails, as a crash there would: the second chunk is rolled back.
    app.db.exec(`CREATE TEMP TRIGGER crash BEFORE INSERT ON main.transactions
      WHEN new.kind = 'expiry' AND (SELECT count(*) FROM main.transactions WHERE kind = 'expiry' AND created_at >= ${app.clock.now()}) >= 2
      BEGIN SELECT RAISE(ABORT, 'simulated crash'); END`);
    await assert.rejects(runLoyaltySweeps(app.deps, { chunkSize: 2 }), /simulated crash/);
    const expiredRows = () => app.db.prepare("SELECT customer_id, change FROM transactions WHERE kind = 'expiry' AND created_at >= ? ORDER BY customer_id").all(app.clock.now()) as { customer_id: string; change: number }[];
    const balances = () => ids.map((id) => customersRepo(app.db).findByPassUserId(id)!.balance);
    const firstChunk = expiredRows();
    assert.equal(firstChunk.length, 2, 'the first chunk committed whole');
    assert.equal(balances().filter((b) => b === 0).length, 2, 'and only it');
    const unexpired = app.db.prepare('SELECT count(*) AS n FROM award_lots WHERE remaining > 0 AND customer_id IN (SELECT value FROM json_each(?))').get(JSON.stringify(ids)) as { n: number };
    assert.equal(unexpired.n, 3, 'the other three keep their lots');

    app.db.exec('DROP TRIGGER temp.crash');
    await runLoyaltySweeps(app.deps, { chunkSize: 2 });
    assert.deepEqual(balances(), [0, 0, 0, 0, 0]);
    const rows = expiredRows();
    assert.deepEqual(rows.map((r) => r.customer_id).sort(), [...ids].sort(), 'one expiry row per customer');
    assert.deepEqual(rows.map((r) => r.change).sort((a, b) => a - b), [-1400, -1300, -1200, -1100, -1000]);
  });

  it('checkpoints the WAL itself between chunks, in turns of their own, before it reaches the autocheckpoint that would run inside a chunk’s commit', async () => {
    app.clock.set(at('2026-05-01T08:00:00Z'));
    for (let i = 0; i < 80; i++) {
      await live.enroll(org.cards.points, `wal-${i}`);
      await live.earn(`wal-${i}`, 'points', 5);
    }
    app.clock.set(at('2026-06-02T00:00:00Z'));
    const checkpoints: { inTransaction: boolean; pages: number }[] = [];
    const pragma = app.db.pragma.bind(app.db);
    app.db.pragma = ((source: string, options?: { simple?: boolean }) => {
      const result = pragma(source, options);
      if (source.startsWith('wal_checkpoint')) checkpoints.push({ inTransaction: app.db.inTransaction, pages: (result as { log: number }[])[0]!.log });
      return result;
    }) as typeof app.db.pragma;
    try {
      await runLoyaltySweeps(app.deps, { chunkSize: 2 });
    } finally {
      app.db.pragma = pragma;
    }
    const expired = app.db.prepare("SELECT count(*) AS n FROM transactions WHERE kind = 'expiry' AND created_at = ?").get(app.clock.now()) as { n: number };
    assert.equal(expired.n, 80, 'each customer writes pages (a ledger row, its events, the lots), about 8');
    assert.ok(checkpoints.length >= 1, 'the sweep checkpoints');
    assert.ok(checkpoints.length < 20, `${checkpoints.length} checkpoints for 40 chunks: one once about 400 pages are written, not one a chunk`);
    assert.ok(checkpoints.every((c) => !c.inTransaction && c.pages < 1000), JSON.stringify(checkpoints));
  });
});

describe('expiry: reminders', () => {
  let smtp: TestSmtpServer;
  let app: MailTestApp;
  let org: StandardOrg;
  let live: ReturnType<typeof api>;
  before(async () => {
    smtp = await startSmtpServer();
    app = await startMailApp(smtp);
    org = seedStandardOrg(app);
    live = api(app, org.keys.live);
    setTimeZone(app, org.orgId, 'Europe/Berlin');
    await live.patchCard(org.cards.points, { expiry: { months: 1 } });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  it('remindDays before an expiry: one email per customer and expiry date to those who agreed, and the line on every customer’s pass', async () => {
    app.clock.set(at('2026-01-10T10:00:00Z'));
    const agreed = enrollWithConsent(app, { orgId: org.orgId, livemode: true }, org.cards.points, { name: 'Ada', email: 'ada@example.org' });
    const ada = `pu_${agreed.passUserId}`;
    const silent = await live.enroll(org.cards.points, 'no-consent', { email: 'bob@example.org', name: 'Bob' });
    await live.earn(ada, 'points', 12);
    await live.earn('no-consent', 'points', 12);
    const passVersion = () => customersRepo(app.db).findByPassUserId(agreed.passUserId)!.passVersion;

    // Valid through 10 February: 14 days before is 27 January.
    app.clock.set(at('2026-01-26T12:00:00Z'));
    await runSweepJob(app);
    await app.worker.idle();
    assert.equal(smtp.received.length, 0, 'not yet');
    assert.deepEqual((await passDetails(app, agreed.installUrl)).filter((d) => d.key === 'expiring'), []);

    app.clock.set(at('2026-01-27T12:00:00Z'));
    const before = passVersion();
    await runSweepJob(app);
    await app.worker.idle();
    assert.equal(passVersion(), before + 1, 'the pass shows something new');
    assert.deepEqual(smtp.received.map((m) => m.to), [['ada@example.org']], 'only the customer who agreed is emailed');
    const text = mimeParts(smtp.received[0]!.raw).find((p) => p.type === 'text/plain')!.body.toString('utf8');
    assert.match(decodeHeader(header(smtp.received[0]!.raw, 'Subject')!), /12 points expire on 10 Feb/);
    assert.match(text, /12 points on your Points card expire on 10 February\./);
    for (const installUrl of [agreed.installUrl, silent.installUrl]) {
      assert.deepEqual((await passDetails(app, installUrl)).filter((d) => d.key === 'expiring'), [{ key: 'expiring', label: 'Expiring', value: '12 points expire on 10 Feb' }]);
    }

    app.clock.advance(days(2));
    await runSweepJob(app);
    await app.worker.idle();
    assert.equal(smtp.received.length, 1, 'one reminder per expiry date');
    assert.equal((app.db.prepare('SELECT count(*) AS n FROM expiry_reminders').get() as { n: number }).n, 2, 'one reminder row for each customer');

    // Used before they expire: the line goes with them.
    await live.redeem(ada, 12);
    assert.deepEqual((await passDetails(app, agreed.installUrl)).filter((d) => d.key === 'expiring'), []);
    assert.equal((await live.read(ada)).expiring, null);
  });
});
