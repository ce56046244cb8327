// The books on a generated year of a shop (test/support/books-year.ts: earns through the API and
// the counter with promotions, rewards and points redeemed, corrections both ways, undos — one
// across the month's end —, an import, opening balances, birthday treats and expiry from the
// sweeps, erasures, test data beside it), all through the services on the fake clock. For every
// month and card: opening + movements = closing, closing = the balances the customers held at the
// month's end, in units and in money; and every ledger row counted in exactly one column, checked
// against a classification of the raw rows made here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { monthRange } from '../src/report/month';
import { BOOKS_COLUMNS, type BooksColumn } from '../src/report/repo';
import { moneyOf, monthlyBooks, MOVEMENTS, type MonthBooks } from '../src/report/service';
import { startTestApp, type TestApp } from './support/app';
import { BOOKS_TIME_ZONE, generateActivity, seedBooksOrg, type BooksOrg, type Year } from './support/books-year';

let app: TestApp;
let org: BooksOrg;
let year: Year;
const books = new Map<string, MonthBooks>();

before(async () => {
  app = await startTestApp();
  app.clock.set(Date.UTC(2025, 11, 20));
  org = await seedBooksOrg(app);
  year = await generateActivity(app, org, { start: '2026-01', months: 12, perDay: 4 });
  for (const month of year.months) books.set(month, monthlyBooks(app.deps, org.orgId, month));
});
after(() => app?.close());

const sumMovements = (f: Record<BooksColumn, number>) => MOVEMENTS.reduce((sum, col) => sum + f[col], 0);

/** Each live row of the org in [from, to), put in its column here, from its kind (an undo: the undone row's). */
function classified(from: number, to: number): Map<string, Record<BooksColumn | 'promotions', number>> {
  const rows = app.db
    .prepare(
      `SELECT c.card_id AS cardId, t.kind, t.change, t.details, o.kind AS originalKind, o.change AS originalChange, o.details AS originalDetails
       FROM transactions t JOIN customers c ON c.id = t.customer_id LEFT JOIN transactions o ON o.id = json_extract(t.details, '$.reverses')
       WHERE t.org_id = ? AND t.livemode = 1 AND t.created_at >= ? AND t.created_at < ?`,
    )
    .all(org.orgId, from, to) as { cardId: string; kind: string; change: number; details: string | null; originalKind: string | null; originalChange: number | null; originalDetails: string | null }[];
  const out = new Map<string, Record<BooksColumn | 'promotions', number>>();
  const columnOf = (kind: string, change: number): BooksColumn => {
    switch (kind) {
      case 'earn':
        return 'earned';
      case 'birthday':
        return 'birthday';
      case 'initial':
        return 'imported';
      case 'redeem':
        return 'redeemed';
      case 'expiry':
        return 'expired';
      case 'adjust':
        return change < 0 ? 'correctedDown' : 'correctedUp';
      default:
        throw new Error(`a row of kind ${kind} has no column`);
    }
  };
  for (const r of rows) {
    const undo = r.kind === 'reversal';
    assert.ok(!undo || r.originalKind, 'every undo names the row it undid');
    const column = undo ? columnOf(r.originalKind!, r.originalChange!) : columnOf(r.kind, r.change);
    const extra = JSON.parse((undo ? r.originalDetails : r.details) ?? '{}').promotions?.extra ?? 0;
    if (!out.has(r.cardId)) out.set(r.cardId, Object.fromEntries([...BOOKS_COLUMNS, 'promotions'].map((k) => [k, 0])) as Record<BooksColumn | 'promotions', number>);
    const figures = out.get(r.cardId)!;
    figures[column] += r.change;
    if (column === 'earned') figures.promotions += undo ? -extra : extra;
  }
  return out;
}

describe('the books of a generated year', () => {
  it('the year holds every kind of movement the books count', () => {
    const total = (col: BooksColumn | 'promotions') => [...books.values()].reduce((sum, b) => sum + b.cards.reduce((s, c) => s + c.units[col], 0), 0);
    assert.ok(total('earned') > 0 && total('promotions') > 0, 'earns, some with promotions');
    assert.ok(total('birthday') > 0, 'birthday treats');
    assert.ok(total('imported') > 0, 'imported and opening balances');
    assert.ok(total('correctedUp') > 0 && total('correctedDown') < 0, 'corrections both ways');
    assert.ok(total('redeemed') < 0, 'redemptions');
    assert.ok(total('expired') < 0, 'expiry');
    assert.ok(year.stats.reversals >= 10 && year.stats.crossMonthReversals >= 6, `undos: ${JSON.stringify(year.stats)}`);
    assert.ok(year.stats.erased >= 2 && year.stats.imported === 6 && year.stats.testRows > 0, JSON.stringify(year.stats));
    const erasedHolding = app.db.prepare('SELECT count(*) AS n FROM customers WHERE org_id = ? AND livemode = 1 AND erased_at IS NOT NULL AND balance > 0').get(org.orgId) as { n: number };
    assert.ok(erasedHolding.n > 0, 'an erased customer still holds units the books count');
  });

  it('every month and card: opening + movements = closing = the balances held at the month’s end', () => {
    for (const [i, month] of year.months.entries()) {
      const { from, to } = monthRange(month, BOOKS_TIME_ZONE);
      const report = books.get(month)!;
      assert.equal(report.from, from);
      assert.equal(report.to, to);
      assert.equal(report.complete, true);
      assert.deepEqual(report.cards.map((c) => c.name).sort(), ['Club', 'Coffee points', 'Coffee stamps', 'Gift card']);
      for (const card of report.cards) {
        const at = (ms: number) => year.held.get(ms)!.get(card.cardId) ?? { total: 0, holders: 0 };
        const where = `${month} ${card.name}`;
        assert.equal(card.units.opening + sumMovements(card.units), card.units.closing, `${where}: opening + movements = closing`);
        assert.equal(card.units.closing, at(to).total, `${where}: closing = the balances held at the end`);
        assert.equal(card.customersWithBalance, at(to).holders, `${where}: customers with a balance`);
        assert.equal(card.units.opening, at(from).total, `${where}: opening = the balances held at the start`);
        if (i > 0) assert.equal(card.units.opening, books.get(year.months[i - 1]!)!.cards.find((c) => c.cardId === card.cardId)!.units.closing, `${where}: opening = last month's closing`);
      }
    }
  });

  it('every ledger row is in exactly one column: the report’s columns match the rows classified one by one', () => {
    let rows = 0;
    for (const month of year.months) {
      const { from, to } = monthRange(month, BOOKS_TIME_ZONE);
      const expected = classified(from, to);
      for (const card of books.get(month)!.cards) {
        const mine = expected.get(card.cardId) ?? Object.fromEntries([...BOOKS_COLUMNS, 'promotions'].map((k) => [k, 0]));
        for (const col of [...BOOKS_COLUMNS, 'promotions'] as const) assert.equal(card.units[col], mine[col], `${month} ${card.name} ${col}`);
      }
      rows += (app.db.prepare('SELECT count(*) AS n FROM transactions WHERE org_id = ? AND livemode = 1 AND created_at >= ? AND created_at < ?').get(org.orgId, from, to) as { n: number }).n;
    }
    assert.ok(rows > 1000, `${rows} live rows in the year`);
  });

  it('in money: each line is its units at the unit’s value, half-up to the cent, and the roll-forward adds up', () => {
    let rounded = 0;
    for (const month of year.months) {
      const { to } = monthRange(month, BOOKS_TIME_ZONE);
      for (const card of books.get(month)!.cards) {
        if (card.name === 'Club') {
          assert.equal(card.money, null, 'no unit value, no money');
          continue;
        }
        const e4 = card.name === 'Coffee points' ? 125 : card.name === 'Coffee stamps' ? 3000 : 10_000;
        const money = card.money!;
        assert.equal(card.unitValueE4, e4);
        for (const key of ['opening', ...MOVEMENTS, 'promotions', 'closing'] as const) assert.equal(money[key], moneyOf(card.units[key], e4), `${month} ${card.name} ${key}`);
        assert.equal(money.opening + sumMovements(money) + money.rounding, money.closing, `${month} ${card.name}: money rolls forward`);
        assert.equal(money.closing, moneyOf(year.held.get(to)!.get(card.cardId)?.total ?? 0, e4), `${month} ${card.name}: the liability at the end`);
        if (money.rounding !== 0) rounded++;
        if (card.name === 'Gift card') assert.deepEqual({ ...money, rounding: undefined }, { ...card.units, rounding: undefined }, 'store credit is money already');
      }
    }
    assert.ok(rounded > 0, 'a unit value of 4 decimals leaves some rounding to show');
  });
});

describe('half-up to the cent', () => {
  const cases: [number, number, number][] = [
    [100, 125, 1], // 1 point at 0.0125 = 1.25 cents
    [200, 125, 3], // 2.5 cents → 3
    [-200, 125, -3], // away from zero, so a taken-off line mirrors an added one
    [600, 125, 8], // 7.5 → 8
    [100, 3000, 30],
    [12_345, 10_000, 12_345], // store credit: one cent is one cent
    [100_000_000_000, 99_999_999, 999_999_990_000_000], // beyond 2^53 on the way, exact in BigInt
  ];
  for (const [hundredths, e4, cents] of cases) it(`${hundredths / 100} units at ${e4 / 10_000} = ${cents} cents`, () => assert.equal(moneyOf(hundredths, e4), cents));
});
