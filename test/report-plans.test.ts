// The books' and the watch list's reads at the size of a busy shop: a month's rows through the
// index by time, one probe per customer and end of the month for the balances (not one per sum
// that reads it, as SQLite ran it once flattened), the customers of one card through an index,
// never a whole table.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../src/db/open';
import { BALANCES_SQL, MOVEMENTS_SQL } from '../src/report/repo';
import { AWARD_TIMES_SQL, AWARDS_OF_SQL } from '../src/watchlist/repo';

const dir = mkdtempSync(path.join(tmpdir(), 'wl-report-plans-'));
const db = openDatabase(path.join(dir, 'plans.db'));
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const planOf = (sql: string, params: Record<string, unknown>) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail);

const cases: { name: string; sql: string; params: Record<string, unknown>; uses: RegExp[]; probes?: number; refused?: RegExp }[] = [
  {
    name: "the books' movements: the month's rows by time, an undone row by its key found among its customer's rows from the undo back, no customer looked up per row",
    sql: MOVEMENTS_SQL,
    params: { orgId: 'o', from: 1, to: 2 },
    uses: [/^SEARCH t USING INDEX transactions_org_time \(org_id=\? AND livemode=\? AND created_at>\? AND created_at<\?\)$/, /^SEARCH o USING INTEGER PRIMARY KEY \(rowid=\?\)/, /^SEARCH u USING INDEX transactions_customer \(customer_id=\? AND created_at<\?\)$/],
    refused: /customers/,
  },
  {
    name: "the balances at the month's two ends: the card's customers by index, one probe of each one's last row per end",
    sql: BALANCES_SQL,
    params: { cardId: 'c', from: 1, to: 2 },
    uses: [/^SEARCH c USING (COVERING )?INDEX customers_card\w* \(card_id=\? AND livemode=\? AND created_at<\?\)$/, /^SEARCH t USING INDEX transactions_customer \(customer_id=\? AND created_at<\?\)$/],
    probes: 2,
  },
  {
    name: "the watch list's award times: the period's rows by time",
    sql: AWARD_TIMES_SQL,
    params: { orgId: 'o', livemode: 1, from: 1, to: 2 },
    uses: [/^SEARCH transactions USING INDEX transactions_org_time \(org_id=\? AND livemode=\? AND created_at>\? AND created_at<\?\)$/],
  },
  {
    name: "the watch list's awards of a few customers: their rows, and whether an undo reversed each",
    sql: AWARDS_OF_SQL,
    params: { ids: '[]', from: 1, to: 2 },
    uses: [/^SEARCH t USING INDEX transactions_customer \(customer_id=\? AND created_at>\? AND created_at<\?\)$/, /^SEARCH r USING INDEX transactions_reversal/],
  },
];

describe('the query plans of the books and the watch list', () => {
  for (const c of cases) {
    it(c.name, () => {
      const plan = planOf(c.sql, c.params);
      for (const step of c.uses) assert.ok(plan.some((d) => step.test(d)), `${step}\n${plan.join('\n')}`);
      assert.deepEqual(plan.filter((d) => /^SCAN (t|c|o|r|s|u|transactions|customers)\b/.test(d)), [], plan.join('\n'));
      if (c.refused) assert.deepEqual(plan.filter((d) => c.refused!.test(d)), [], plan.join('\n'));
      if (c.probes !== undefined) assert.equal(plan.filter((d) => /^SEARCH t USING INDEX transactions_customer/.test(d)).length, c.probes, plan.join('\n'));
    });
  }
});

// The undone row is looked up among its customer's rows from the undo's time back (the ledger's ids
// have no index). One whose time is after its undo's (the clock went back between the two) is
// found all the same, and a row of another customer with the same id is never taken for it.
describe("the books' undone rows", () => {
  it('an undo nets out its own row, even one stamped after it, and only that customer’s', () => {
    const undoDb = openDatabase(path.join(dir, 'undo.db'));
    try {
      undoDb.pragma('foreign_keys = OFF');
      const insert = undoDb.prepare(
        `INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, details, created_at)
         VALUES (?, 'o', ?, 1, ?, ?, 0, ?, 'scan', ?, ?)`,
      );
      const reverses = (id: string) => JSON.stringify({ reverses: id });
      insert.run('tx_a', 'cus_1', 'earn', 300, 1, null, 100);
      insert.run('tx_a', 'cus_2', 'redeem', -500, 0, null, 100); // the same id, another customer
      insert.run('tx_undo_a', 'cus_1', 'reversal', -300, 0, reverses('tx_a'), 150);
      insert.run('tx_b', 'cus_1', 'earn', 200, 1, null, 400);
      insert.run('tx_undo_b', 'cus_1', 'reversal', -200, 0, reverses('tx_b'), 350); // the clock went back
      const movements = undoDb.prepare(MOVEMENTS_SQL).all({ orgId: 'o', from: 0, to: 1000 });
      assert.deepEqual(movements, [
        { customerId: 'cus_1', col: 'earned', amount: 0, promotions: 0 },
        { customerId: 'cus_2', col: 'redeemed', amount: -500, promotions: 0 },
      ]);
    } finally {
      undoDb.close();
    }
  });
});
