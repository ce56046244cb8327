import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { enrollCustomer } from '../../src/loyalty/enroll';
import type { Customer } from '../../src/customers/model';
import { customersRepo } from '../../src/customers/repo';
import { importCommand } from '../../src/import/cli';
import { addDays, startOfLocalDate } from '../../src/lib/days';
import { ApiError } from '../../src/lib/errors';
import type { Channel, StaffRef } from '../../src/lib/changes';
import { adjust, earn, redeem, reverseTransaction } from '../../src/loyalty/service';
import { writeOrgSettings } from '../../src/orgs/settings';
import { monthRange, nextMonth } from '../../src/report/month';
import { staffRepo } from '../../src/staff/repo';
import { runLoyaltySweeps } from '../../src/sweeps/run';
import { ADMIN_PASSWORD } from './console';
import type { TestApp } from './app';

// A shop's year (or months) of activity, generated through the services every channel calls, on
// the fake clock, in time order: enrolments (some with an opening balance), a CSV import, earns
// through the API and the counter (promotions running on some days), rewards and points redeemed,
// corrections both ways and absolute points, undos at the counter (one across midnight into the
// next month), birthday treats and expiry from the hourly sweeps, erasures through the API, and
// test-mode activity beside it. At each month's end, before anything of the next month happens,
// the balances every card's live customers hold are read straight from the customers table: what
// the books must close with.

export const BOOKS_TIME_ZONE = 'Europe/Berlin';

export const BOOKS_SEED = (email: string) => ({
  orgs: [
    {
      name: 'Books Café',
      admins: [{ email, password: ADMIN_PASSWORD }],
      staff: [{ name: 'Sam', pin: '2468' }, { name: 'Alex', pin: '1357' }],
      cards: [
        {
          ref: 'stamps',
          name: 'Coffee stamps',
          passType: 'stamp_card',
          rewards: [{ name: 'Free coffee', cost: 10 }, { name: 'Free cake', cost: 15 }],
          questions: [{ key: 'birthday', label: 'Birthday', type: 'date' }],
          birthday: { questionKey: 'birthday', units: 2 },
          expiry: { inactiveDays: 45, remindDays: 0 },
          unitValue: 0.3,
        },
        {
          ref: 'points',
          name: 'Coffee points',
          passType: 'point_card',
          reward: { name: 'Voucher', cost: 100 },
          accrual: { spend: { currency: 'EUR', rate: 1 } },
          expiry: { months: 3, remindDays: 0 },
          // Four decimals: each money figure rounds on its own.
          unitValue: 0.0125,
        },
        { ref: 'levels', name: 'Club', passType: 'level_card', levels: [{ name: 'Bronze', minPoints: 0 }, { name: 'Silver', minPoints: 100 }] },
        { ref: 'prepaid', name: 'Gift card', passType: 'prepaid_card', accrual: { spend: { currency: 'EUR', rate: 0.05 } } },
      ],
      keys: [
        { deviceName: 'live', mode: 'live' },
        { deviceName: 'test', mode: 'test' },
      ],
    },
  ],
});

export interface BooksOrg {
  orgId: string;
  cards: { stamps: string; points: string; levels: string; prepaid: string };
  keys: { live: string; test: string };
  admin: { email: string; password: string };
}

export async function seedBooksOrg(app: TestApp, email = `books-${Math.random().toString(36).slice(2, 8)}@example.com`): Promise<BooksOrg> {
  const org = (await app.seedWithAdmins(BOOKS_SEED(email))).orgs[0]!;
  const card = (ref: string) => org.cards.find((c) => c.ref === ref)!.cardId;
  const key = (name: string) => org.keys.find((k) => k.deviceName === name)!.key;
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { timeZone: BOOKS_TIME_ZONE }))();
  const books: BooksOrg = {
    orgId: org.orgId,
    cards: { stamps: card('stamps'), points: card('points'), levels: card('levels'), prepaid: card('prepaid') },
    keys: { live: key('live'), test: key('test') },
    admin: { email, password: ADMIN_PASSWORD },
  };
  // Promotions through the API: double points on Tuesdays all year, +3 points all summer, and a
  // stamp more on Saturday mornings.
  const promotions: [string, unknown][] = [
    [books.cards.points, { name: 'Double Tuesdays', kind: 'multiplier', value: 2, startsAt: '2026-01-01', endsAt: '2027-12-31', weekdays: [2] }],
    [books.cards.points, { name: 'Summer bonus', kind: 'bonus', value: 3, startsAt: '2026-06-01', endsAt: '2026-08-31' }],
    [books.cards.stamps, { name: 'Saturday morning', kind: 'bonus', value: 1, startsAt: '2026-01-01', endsAt: '2027-12-31', weekdays: [6], hours: { from: '08:00', to: '12:00' } }],
  ];
  for (const [cardId, body] of promotions) {
    const res = await app.request('POST', `/api/v1/cards/${cardId}/promotions`, { key: books.keys.live, body });
    assert.equal(res.status, 201, res.text);
  }
  return books;
}

/** The live balances of each card's customers (erased ones included), read from the customers table. */
export interface Held {
  total: number;
  holders: number;
}

export interface Year {
  months: string[];
  /** Σ balances per card at each month's end (ms of the boundary → card → held); the first is the start. */
  held: Map<number, Map<string, Held>>;
  stats: { rows: number; reversals: number; crossMonthReversals: number; erased: number; imported: number; testRows: number; refused: number };
}

/** A small deterministic generator (mulberry32): the same year every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}

const HOUR = 3_600_000;

function heldNow(app: TestApp, orgId: string): Map<string, Held> {
  const rows = app.db
    .prepare('SELECT card_id AS cardId, sum(balance) AS total, sum(balance > 0) AS holders FROM customers WHERE org_id = ? AND livemode = 1 GROUP BY card_id')
    .all(orgId) as { cardId: string; total: number; holders: number }[];
  return new Map(rows.map((r) => [r.cardId, { total: r.total, holders: r.holders }]));
}

/**
 * `months` months of activity from `start` (YYYY-MM). `perDay` scales it: about that many balance
 * changes a day, besides the sweeps.
 */
export async function generateActivity(app: TestApp, org: BooksOrg, options: { start: string; months: number; perDay: number; seed?: number }): Promise<Year> {
  const rnd = random(options.seed ?? 48);
  const staff = staffRepo(app.db).list(org.orgId).map((s): StaffRef => ({ id: s.id, name: s.name }));
  const months = Array.from({ length: options.months }, (_, i) => i).reduce<string[]>((list) => [...list, list.length ? nextMonth(list[list.length - 1]!) : options.start], []);
  const boundaries = [monthRange(months[0]!, BOOKS_TIME_ZONE).from, ...months.map((m) => monthRange(m, BOOKS_TIME_ZONE).to)];
  const held = new Map<number, Map<string, Held>>();
  const stats = { rows: 0, reversals: 0, crossMonthReversals: 0, erased: 0, imported: 0, testRows: 0, refused: 0 };
  let nextBoundary = 0;

  /** Moves the clock to `at`, first reading the balances at every month's end it passes. */
  const at = (ms: number) => {
    assert.ok(ms >= app.clock.now(), 'activity runs forwards');
    while (nextBoundary < boundaries.length && boundaries[nextBoundary]! <= ms) {
      held.set(boundaries[nextBoundary]!, heldNow(app, org.orgId));
      nextBoundary++;
    }
    app.clock.set(ms);
  };

  const live: { id: string; cardId: string }[] = [];
  const recent: { customerId: string; transactionId: string; at: number }[] = [];
  const fresh = (id: string): Customer => customersRepo(app.db).findByPassUserId(id)!;
  let serial = 0;

  const enroll = (cardId: string, livemode = true) => {
    serial++;
    const birthday = cardId === org.cards.stamps ? { customFields: { birthday: `1990-${String(1 + rnd.int(12)).padStart(2, '0')}-${String(1 + rnd.int(28)).padStart(2, '0')}` } } : {};
    const opening = cardId !== org.cards.prepaid && rnd.next() < 0.25 ? { initialPoints: 1 + rnd.int(20) } : {};
    const result = enrollCustomer(app.deps, { orgId: org.orgId, livemode }, { cardId, externalCustomerId: `c-${serial}`, name: `Customer ${serial}`, ...birthday, ...opening }, { channel: 'api', idempotencyKey: null });
    if (livemode) live.push({ id: result.passUserId, cardId });
    return result.passUserId;
  };

  /** One change; refusals (too few units) write nothing and are counted. */
  const change = (customerId: string, cardId: string, kind: 'earn' | 'redeem' | 'adjustUp' | 'adjustDown' | 'setPoints') => {
    const customer = fresh(customerId);
    const scan = rnd.next() < 0.5;
    const source: Channel = kind.startsWith('adjust') || kind === 'setPoints' ? 'console' : scan ? 'scan' : 'api';
    const who = { customer, source, staff: source === 'scan' ? rnd.pick(staff) : null };
    const type = cardId === org.cards.stamps ? 'stamps' : 'points';
    try {
      let result;
      if (kind === 'earn') {
        result =
          cardId === org.cards.points && rnd.next() < 0.5
            ? earn(app.deps, { ...who, type, basis: { from: 'spend', amount: 100 * (1 + rnd.int(40)) + rnd.int(100), currency: 'EUR' } })
            : earn(app.deps, { ...who, type, basis: { from: 'amount', amount: cardId === org.cards.prepaid ? 100 * (5 + rnd.int(50)) + rnd.int(100) : 100 * (1 + rnd.int(cardId === org.cards.stamps ? 2 : 30)) } });
      } else if (kind === 'redeem') {
        result =
          cardId === org.cards.stamps || (cardId === org.cards.points && rnd.next() < 0.5)
            ? redeem(app.deps, { ...who, type: 'reward', rewardId: cardId === org.cards.stamps && rnd.next() < 0.3 ? customerCardReward(app, cardId, 1) : undefined })
            : redeem(app.deps, { ...who, type: 'points', amount: cardId === org.cards.prepaid ? 100 * (1 + rnd.int(20)) + rnd.int(100) : 100 * (1 + rnd.int(30)) });
      } else if (kind === 'setPoints') {
        result = adjust(app.deps, { ...who, setPoints: 100 * rnd.int(150) });
      } else {
        const size = 100 * (1 + rnd.int(cardId === org.cards.stamps ? 3 : 25));
        result = adjust(app.deps, { ...who, balanceCorrection: kind === 'adjustUp' ? size : -size, note: kind === 'adjustUp' ? 'goodwill' : 'typo' });
      }
      stats.rows++;
      recent.push({ customerId, transactionId: result.transaction.id, at: app.clock.now() });
      if (recent.length > 30) recent.shift();
      return result.transaction.id;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'INSUFFICIENT_BALANCE') throw err;
      stats.refused++;
      return null;
    }
  };

  const undo = (entry: { customerId: string; transactionId: string; at: number }) => {
    try {
      reverseTransaction(app.deps, { customer: fresh(entry.customerId), transactionId: entry.transactionId, source: 'scan', staff: staff[0]! });
      stats.reversals++;
      stats.rows++;
      return true;
    } catch (err) {
      // Undone already, or the undo would take the balance below zero: nothing written.
      if (!(err instanceof ApiError) || !['ALREADY_REVERSED', 'INSUFFICIENT_BALANCE', 'NOT_REVERSIBLE'].includes(err.code)) throw err;
      return false;
    }
  };

  const firstDay = `${months[0]}-01`;
  const endDay = `${nextMonth(months[months.length - 1]!)}-01`;
  at(startOfLocalDate(firstDay, BOOKS_TIME_ZONE) - 2 * HOUR);
  const testCustomer = enroll(org.cards.stamps, false);

  for (let day = firstDay; day < endDay; day = addDays(day, 1)) {
    const dayStart = startOfLocalDate(day, BOOKS_TIME_ZONE);
    // The hourly sweeps, once a day at 03:00: expiry and birthdays of live and test data.
    at(dayStart + 3 * HOUR);
    await runLoyaltySweeps(app.deps);

    const times = Array.from({ length: options.perDay + rnd.int(options.perDay + 1) }, () => dayStart + 7 * HOUR + rnd.int(14 * HOUR)).sort((a, b) => a - b);
    for (const time of times) {
      at(time);
      const roll = rnd.next();
      if (live.length < 8 || roll < 0.08) {
        enroll(rnd.pick([org.cards.stamps, org.cards.stamps, org.cards.points, org.cards.points, org.cards.levels, org.cards.prepaid]));
        continue;
      }
      const c = rnd.pick(live);
      if (roll < 0.6) change(c.id, c.cardId, 'earn');
      else if (roll < 0.78) change(c.id, c.cardId, 'redeem');
      else if (roll < 0.84) change(c.id, c.cardId, 'adjustUp');
      else if (roll < 0.9) change(c.id, c.cardId, c.cardId === org.cards.levels && rnd.next() < 0.5 ? 'setPoints' : 'adjustDown');
      else if (roll < 0.96 && recent.length) {
        const standing = recent.filter((r) => live.some((c) => c.id === r.customerId));
        if (standing.length) undo(rnd.pick(standing));
      }
      else if (roll < 0.975) {
        // A test customer's activity on the test clock: never in the books.
        earn(app.deps, { customer: fresh(testCustomer), source: 'api', type: 'stamps', basis: { from: 'amount', amount: 100 } });
        stats.testRows++;
      } else if (roll < 0.985 && live.length > 10) {
        const gone = live.splice(rnd.int(live.length), 1)[0]!;
        const res = await app.request('DELETE', `/api/v1/customers/pu_${gone.id}`, { key: org.keys.live });
        assert.equal(res.status, 200, res.text);
        stats.erased++;
      } else change(c.id, c.cardId, 'earn');
    }

    // The last evening of a month: a counter award at 23:58, undone at 00:02 in the next month.
    if (addDays(day, 1).endsWith('-01') && live.some((c) => c.cardId === org.cards.stamps)) {
      const c = rnd.pick(live.filter((x) => x.cardId === org.cards.stamps));
      at(startOfLocalDate(addDays(day, 1), BOOKS_TIME_ZONE) - 2 * 60_000);
      const id = change(c.id, c.cardId, 'earn');
      at(startOfLocalDate(addDays(day, 1), BOOKS_TIME_ZONE) + 2 * 60_000);
      if (id && undo({ customerId: c.id, transactionId: id, at: 0 })) stats.crossMonthReversals++;
    }

    // One CSV import, in the second month: new customers with their balances.
    if (day === `${months[Math.min(1, months.length - 1)]}-10`) {
      at(dayStart + 22 * HOUR + 30 * 60_000);
      const dir = mkdtempSync(path.join(tmpdir(), 'wl-books-'));
      const file = path.join(dir, 'customers.csv');
      writeFileSync(file, ['Name,Email,Balance', ...Array.from({ length: 6 }, (_, i) => `Imported ${i},imported-${i}@example.com,${10 * (i + 1)}`)].join('\n'));
      const summary = await importCommand(app.deps, file, { cardId: org.cards.points, livemode: true, dryRun: false }, () => {});
      rmSync(dir, { recursive: true, force: true });
      assert.equal(summary.created, 6);
      stats.imported += summary.created;
      for (const row of app.db.prepare("SELECT id FROM customers WHERE org_id = ? AND source = 'import'").all(org.orgId) as { id: string }[]) live.push({ id: row.id, cardId: org.cards.points });
    }
  }
  at(startOfLocalDate(endDay, BOOKS_TIME_ZONE) + HOUR);
  return { months, held, stats };
}

/** The id of the card's reward at `index` (the stamp card's cake). */
function customerCardReward(app: TestApp, cardId: string, index: number): string {
  const rewards = JSON.parse((app.db.prepare('SELECT rewards FROM cards WHERE id = ?').get(cardId) as { rewards: string }).rewards) as { id: string }[];
  return rewards[index]!.id;
}
