import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { counterRepo } from '../src/counter/repo';
import { customersRepo } from '../src/customers/repo';
import { purgeRepo } from '../src/customers/purge-repo';
import { openDatabase, type Db } from '../src/db/open';
import { ledgerRepo } from '../src/loyalty/repo';
import { promotionsRepo } from '../src/promotions/repo';
import { activityRepo } from '../src/staff/activity-repo';
import { cardUpdatesRepo } from '../src/wallet/updates/card-repo';
import { deliveriesRepo } from '../src/webhooks/deliveries-repo';
import { eventsRepo } from '../src/events/repo';
import { importsRepo } from '../src/import/repo';
import { statementsPreparedBy } from './support/databases';

// Lookups that every API call, enrolment and counter scan makes must read the rows they find, not
// the whole org: at a million customers the difference is a million rows per request.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-plans-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The SQL a repo factory prepares on a fresh connection, with the query plan of each. */
function plansOf(factory: (db: Db) => unknown, setUp?: (db: Db) => void): { sql: string; plan: string[] }[] {
  const db = openDatabase(path.join(dir, `${Math.random().toString(36).slice(2)}.db`));
  setUp?.(db);
  const prepared = statementsPreparedBy(db, factory);
  const result = prepared.map((sql) => {
    const named = [...new Set([...sql.matchAll(/@(\w+)/g)].map(([, name]) => name!))];
    const statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const rows = named.length > 0 ? statement.all(Object.fromEntries(named.map((n) => [n, n === 'livemode' ? 1 : 'x']))) : statement.all(...Array((sql.match(/\?/g) ?? []).length).fill('x'));
    return { sql, plan: (rows as { detail: string }[]).map((r) => r.detail) };
  });
  db.close();
  return result;
}

/** The plan of the one prepared statement whose SQL matches: it fails unless exactly one does. */
function planMatching(plans: { sql: string; plan: string[] }[], match: RegExp): string[] {
  const found = plans.filter((p) => match.test(p.sql));
  assert.equal(found.length, 1);
  return found[0]!.plan;
}

/** The plan has a step matching each of `uses`, and none matching `refused` (a sort, a scan). */
function assertPlan(plan: string[], uses: RegExp[], refused: RegExp): void {
  for (const step of uses) assert.ok(plan.some((d) => step.test(d)), plan.join('\n'));
  assert.deepEqual(plan.filter((d) => refused.test(d)), [], plan.join('\n'));
}

describe('customer lookups by contact', () => {
  const plans = plansOf(customersRepo);
  const cases = [
    { name: 'by email', match: /email_norm = @email ORDER BY/, index: /USING INDEX customers_email \(org_id=\? AND livemode=\? AND email_norm=\?\)/ },
    { name: 'by email on a card', match: /email_norm = @email AND card_id = @cardId/, index: /USING INDEX customers_email \(org_id=\? AND livemode=\? AND email_norm=\?\)/ },
    { name: 'by phone', match: /phone_norm = @phone ORDER BY/, index: /USING INDEX customers_phone \(org_id=\? AND livemode=\? AND phone_norm=\?\)/ },
    { name: 'by phone on a card', match: /phone_norm = @phone AND card_id = @cardId/, index: /USING INDEX customers_phone \(org_id=\? AND livemode=\? AND phone_norm=\?\)/ },
  ];
  for (const c of cases) {
    it(`${c.name}: reads the rows with that contact through its index, already in order`, () => {
      assertPlan(planMatching(plans, c.match), [c.index], /TEMP B-TREE|^SCAN/);
    });
  }
});

describe('reads that run per install link, per scan and per batch of a card fan-out', () => {
  const cases = [
    {
      name: 'the customers of an install-code selector',
      factory: customersRepo,
      match: /install_code >= @from/,
      index: /USING INDEX sqlite_autoindex_customers_\d \(install_code>\? AND install_code<\?\)/,
    },
    {
      name: 'the customers of a scan-code selector',
      factory: customersRepo,
      match: /scan_code >= @from/,
      index: /USING INDEX sqlite_autoindex_customers_\d \(scan_code>\? AND scan_code<\?\)/,
    },
    {
      name: "a slice of a card's customers after a position",
      factory: cardUpdatesRepo,
      match: /\(c\.livemode, c\.created_at, c\.id\) >/,
      index: /USING COVERING INDEX customers_card_fanout \(card_id=\? AND \(livemode,created_at,id\)>\(\?,\?,\?\)\)/,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: an index range, already in order`, () => {
      assertPlan(planMatching(plansOf(c.factory), c.match), [c.index], /TEMP B-TREE|^SCAN/);
    });
  }
});

// Reads a balance change or a counter scan makes when the card has earning limits or caps. Each
// award row found is checked against the reversals by one probe of their index: a SCAN of it would
// read every reversal in the database for every row.
describe('award reads per balance change and counter scan', () => {
  const cases = [
    { name: "a customer's last award", factory: ledgerRepo, match: /SELECT t\.created_at AS at/, index: /SEARCH t USING INDEX transactions_customer \(customer_id=\?\)/ },
    { name: "a customer's awards in a period", factory: ledgerRepo, match: /sum\(t\.change/, index: /SEARCH t USING INDEX transactions_customer \(customer_id=\? AND created_at>\?\)/ },
    { name: "a customer's counter awards in a day", factory: counterRepo, match: /t\.customer_id = @customerId AND t\.is_award = 1/, index: /SEARCH t USING INDEX transactions_customer \(customer_id=\? AND created_at>\? AND created_at<\?\)/ },
  ];
  for (const c of cases) {
    it(`${c.name}: the customer's rows in time order, each probed for a reversal`, () => {
      assertPlan(planMatching(plansOf(c.factory), c.match), [c.index, /SEARCH r USING INDEX transactions_reversal \(<expr>=\?\)/], /TEMP B-TREE|SCAN/);
    });
  }

  it("an earn reads the card's promotions that may still run through their index, unsorted", () => {
    assertPlan(planMatching(plansOf(promotionsRepo), /ends_on >= @earliest/), [/SEARCH promotions USING INDEX promotions_card \(card_id=\? AND ends_on>\?\)/], /TEMP B-TREE|SCAN/);
  });

  it("a test customer's events are found through the index of test events", () => {
    const [found] = plansOf(purgeRepo);
    assert.match(found!.plan.join('\n'), /SEARCH events USING COVERING INDEX events_test_customer \(customer_id=\?\)/);
  });
});

// The ledger's ids have no index of their own (one b-tree fewer written per balance change): a row
// named by its id is always named with its customer, and found among that customer's rows.
describe('a ledger row by its id', () => {
  it("the history's row and the counter's undo: the customer's rows, never the whole ledger", () => {
    assertPlan(planMatching(plansOf(ledgerRepo), /t\.id = @id/), [/SEARCH t USING INDEX transactions_customer \(customer_id=\?\)/], /TEMP B-TREE|SCAN/);
  });
});

// A customer's history (the API's and the console's pages) and the counter's last undoable scan read
// the ledger newest first, ties by row number: the customer's index walked backwards gives that
// order itself. A sort there sorted each page's rows of equal time (migration 16).
describe("a customer's ledger newest first", () => {
  const cases = [
    { name: 'the first page of the history', factory: ledgerRepo, match: /WHERE t\.customer_id = @customerId\s+ORDER BY/, index: /SEARCH t USING INDEX transactions_customer \(customer_id=\?\)/ },
    { name: 'a later page of the history', factory: ledgerRepo, match: /t\.rowid < @seq/, index: /SEARCH t USING INDEX transactions_customer \(customer_id=\? AND created_at<\?\)/ },
    { name: "the counter's last undoable scan", factory: counterRepo, match: /t\.staff_id = @staffId[\s\S]*ORDER BY/, index: /SEARCH t USING INDEX transactions_customer \(customer_id=\? AND created_at>\?\)/ },
  ];
  for (const c of cases) {
    it(`${c.name}: the customer's index backwards, no sort`, () => {
      assertPlan(planMatching(plansOf(c.factory), c.match), [c.index], /TEMP B-TREE|SCAN/);
    });
  }
});

// No index of the whole ledger by time is written with each balance change: the Staff page reads
// counter rows, the only ones that name a staff member, through each member's own index range.
describe("the Staff page's counter rows", () => {
  it("each member's rows of the period through transactions_staff, never the whole ledger", () => {
    const [plan] = plansOf(activityRepo).map((p) => p.plan);
    assertPlan(plan!, [/SEARCH s USING INDEX staff_org \(org_id=\?\)/, /SEARCH t USING INDEX transactions_staff \(staff_id=\? AND created_at>\? AND created_at<\?\)/], /SCAN (t|transactions)\b/);
  });
});

// The webhook worker's claim of an endpoint's due deliveries: the queue index's range in its order,
// up to the claim's limit, whatever statistics the hourly maintenance has taken. A sort there reads
// the endpoint's whole backlog at every claim.
describe("the webhook worker's claim", () => {
  const statistics = [
    { name: 'no statistics (a new database)', setUp: () => {} },
    {
      // What the first hourly maintenance of a new server analyzes: the endpoints,
      // keys and cards it had read, not the deliveries' table, empty then.
      name: "the statistics of a new server's first maintenance (one endpoint, none of the deliveries)",
      setUp: (db: Db) => {
        db.exec(`INSERT INTO orgs (id, name, created_at) VALUES ('org_p', 'Shop', 1);
                 INSERT INTO webhooks (id, org_id, livemode, url, events, status, secret, created_at, updated_at)
                   VALUES ('wh_p', 'org_p', 1, 'https://example.com/hook', '["*"]', 'active', 'whsec_p', 1, 1);
                 ANALYZE webhooks;`);
      },
    },
  ];
  for (const s of statistics) {
    it(`${s.name}: the endpoint's queue in order, no sort`, () => {
      const plan = planMatching(plansOf(deliveriesRepo, s.setUp), /ORDER BY d\.next_attempt_at, d\.event_seq, d\.id/);
      assertPlan(plan, [/^SEARCH d USING INDEX webhook_deliveries_queue \(webhook_id=\? AND next_attempt_at<\?\)$/], /TEMP B-TREE|SCAN d/);
    });
  }
});

// An endpoint's delivery history (the API's and the console's list) newest first, and the
// retention sweep's finished deliveries oldest first: one index range of the endpoint, each way.
describe("an endpoint's deliveries", () => {
  const plans = plansOf(deliveriesRepo);
  it('the history, newest first: the endpoint\'s index walked backwards, no sort', () => {
    assertPlan(planMatching(plans, /ORDER BY d\.created_at DESC, d\.event_seq DESC, d\.id DESC/), [/^SEARCH d USING INDEX webhook_deliveries_webhook \(webhook_id=\?\)$/], /TEMP B-TREE|SCAN d/);
  });
  it("the retention sweep: each endpoint's deliveries before the cutoff, their attempts by key", () => {
    assertPlan(
      planMatching(plans, /^DELETE FROM webhook_deliveries/),
      [/SEARCH d USING INDEX webhook_deliveries_webhook \(webhook_id=\? AND created_at<\?\)/, /SEARCH webhook_attempts USING PRIMARY KEY \(delivery_id=\?\)/],
      /TEMP B-TREE|SCAN (d|webhook_attempts)\b/,
    );
  });
  it("a page's attempts by their key, in its order", () => {
    assertPlan(planMatching(plans, /FROM webhook_attempts WHERE delivery_id IN/), [/SEARCH webhook_attempts USING PRIMARY KEY \(delivery_id=\?\)/], /TEMP B-TREE|SCAN webhook_attempts/);
  });
});

// A delivery is found by its id through the table's own key, and its event by the event's row
// number; the events the retention sweep removes through each org's range of events_org, never a
// scan of either table.
describe('deliveries and their events by key', () => {
  const plans = plansOf(deliveriesRepo);
  it('a delivery by id (the replay, the worker\'s record) and its event by row number', () => {
    for (const match of [/WHERE d\.id = \?$/, /WHERE d\.id = @id AND w\.org_id/, /^SELECT status FROM webhook_deliveries WHERE id = \?/, /^UPDATE webhook_deliveries\s+SET status = @status/]) {
      assertPlan(planMatching(plans, match), [/^SEARCH (d|webhook_deliveries) USING PRIMARY KEY \(id=\?\)$/], /TEMP B-TREE|^SCAN/);
    }
    assertPlan(planMatching(plans, /WHERE d\.id = \?$/), [/^SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)$/], /^SCAN/);
  });
  it('the retention sweep: old events no delivery refers to, through each org\'s range of events_org', () => {
    assertPlan(planMatching(plansOf(eventsRepo), /^DELETE FROM events/), [/SEARCH e USING INDEX events_org \(org_id=\? AND livemode=\? AND created_at<\?\)/], /TEMP B-TREE|SCAN e\b/);
  });
});

describe("an import's refused rows with their values", () => {
  // A finished import of 50,000 created rows has no refused values: its page must not read them all to say so.
  const plans = plansOf(importsRepo);
  const cases = [
    { name: 'whether any are kept', match: /^SELECT EXISTS \(SELECT 1 FROM import_rows/ },
    { name: 'the imports whose are due to go', match: /^SELECT DISTINCT r\.import_id/ },
    { name: 'forgetting them', match: /^UPDATE import_rows/ },
  ];
  for (const c of cases) {
    it(`${c.name}: through the partial index of the rows that have them`, () => {
      assertPlan(planMatching(plans, c.match), [/USING INDEX import_rows_cells/], /TEMP B-TREE|SCAN import_rows(?! USING INDEX import_rows_cells)/);
    });
  }
});

describe('an import of a file already imported to the card', () => {
  // Finished imports (done or stopped) of the same file: found by their index, never by reading the
  // imports' rows, which hold the uploaded file.
  it('finds the finished imports of the same file through their partial index', () => {
    assertPlan(planMatching(plansOf(importsRepo), /i\.file_sha256 = @sha/), [/SEARCH i USING INDEX imports_same_file \(card_id=\? AND livemode=\? AND file_sha256=\?\)/], /SCAN i\b|TEMP B-TREE/);
  });
});
