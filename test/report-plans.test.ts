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
    name: "the books' movements: the month's rows by time, an undone row among its customer's, no customer looked up per row",
    sql: MOVEMENTS_SQL,
    params: { orgId: 'o', from: 1, to: 2 },
    uses: [/^SEARCH t USING INDEX transactions_org_time \(org_id=\? AND livemode=\? AND created_at>\? AND created_at<\?\)$/, /^SEARCH o USING INDEX transactions_customer \(customer_id=\?\)/],
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
      assert.deepEqual(plan.filter((d) => /^SCAN (t|c|o|r|s|transactions|customers)\b/.test(d)), [], plan.join('\n'));
      if (c.refused) assert.deepEqual(plan.filter((d) => c.refused!.test(d)), [], plan.join('\n'));
      if (c.probes !== undefined) assert.equal(plan.filter((d) => /^SEARCH t USING INDEX transactions_customer/.test(d)).length, c.probes, plan.join('\n'));
    });
  }
});
