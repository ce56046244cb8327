import type { Customer, Namespace } from '../../customers/model';
import type { Db } from '../../db/open';
import { perConnection } from '../../db/per-connection';
import type { Channel } from '../../loyalty/repo';

// The dashboard's sums, counted per local day of the shop. The caller passes the days as
// [start, end) instants (lib/days: a day of 23 or 25 hours at a daylight-saving change is one
// day), and each day is one range of transactions_org_time / customers_org_time: CROSS JOIN keeps
// the days as the outer loop, so the work grows with the activity of those days, never with the
// size of the ledger or the customer table.

/** The local days to count, oldest first: [start, end) in ms. */
export type DayRanges = readonly (readonly [number, number])[];

export interface LedgerActivity {
  /** Index into the day ranges. */
  day: number;
  source: Channel;
  staffId: string | null;
  cardId: string;
  /** Hundredths awarded (is_award rows). */
  awarded: number;
  /** Award rows (one per award action). */
  awards: number;
  /** Redemptions of the card's reward. */
  rewards: number;
}

export interface NewCustomers {
  day: number;
  source: Channel;
  count: number;
}

/** Counter awards (source `scan`) to one customer by one staff member on one day. */
export interface CounterAwards {
  day: number;
  staffId: string | null;
  customerId: string;
  awards: number;
}

const DAYS_CTE = `WITH days AS (SELECT CAST(key AS INTEGER) AS i, json_extract(value, '$[0]') AS start, json_extract(value, '$[1]') AS stop FROM json_each(@days))`;

type Params = { orgId: string; livemode: number; days: string };
const params = (n: Namespace, days: DayRanges): Params => ({ orgId: n.orgId, livemode: n.livemode ? 1 : 0, days: JSON.stringify(days) });

function createDashboardRepo(db: Db) {
  // Awards and reward redemptions; the card (through the customer) says whether they are stamps,
  // points or store credit. A reward redemption is a redeem row whose details name the reward.
  const ledger = db.prepare<Params, LedgerActivity>(
    `${DAYS_CTE}
     SELECT d.i AS day, t.source AS source, t.staff_id AS staffId, c.card_id AS cardId,
            sum(CASE WHEN t.is_award = 1 THEN t.change ELSE 0 END) AS awarded,
            sum(t.is_award) AS awards,
            sum(CASE WHEN t.kind = 'redeem' AND json_extract(t.details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END) AS rewards
     FROM days d
     CROSS JOIN transactions t ON t.org_id = @orgId AND t.livemode = @livemode AND t.created_at >= d.start AND t.created_at < d.stop
     JOIN customers c ON c.id = t.customer_id
     WHERE t.is_award = 1 OR t.kind = 'redeem'
     GROUP BY d.i, t.source, t.staff_id, c.card_id`,
  );
  const customers = db.prepare<Params, NewCustomers>(
    `${DAYS_CTE}
     SELECT d.i AS day, c.source AS source, count(*) AS count
     FROM days d
     CROSS JOIN customers c ON c.org_id = @orgId AND c.livemode = @livemode AND c.created_at >= d.start AND c.created_at < d.stop
     GROUP BY d.i, c.source`,
  );
  const counter = db.prepare<Params, CounterAwards>(
    `${DAYS_CTE}
     SELECT d.i AS day, t.staff_id AS staffId, t.customer_id AS customerId, count(*) AS awards
     FROM days d
     CROSS JOIN transactions t ON t.org_id = @orgId AND t.livemode = @livemode AND t.created_at >= d.start AND t.created_at < d.stop
     WHERE t.source = 'scan' AND t.is_award = 1
     GROUP BY d.i, t.staff_id, t.customer_id`,
  );
  const names = db.prepare<{ orgId: string; livemode: number; ids: string }, Pick<Customer, 'id' | 'name' | 'email' | 'externalId'>>(
    `SELECT c.id AS id, c.name AS name, c.email AS email, c.external_id AS externalId
     FROM json_each(@ids) j CROSS JOIN customers c ON c.id = j.value AND c.org_id = @orgId AND c.livemode = @livemode`,
  );

  return {
    ledgerActivity: (n: Namespace, days: DayRanges): LedgerActivity[] => ledger.all(params(n, days)),
    newCustomers: (n: Namespace, days: DayRanges): NewCustomers[] => customers.all(params(n, days)),
    counterAwards: (n: Namespace, days: DayRanges): CounterAwards[] => counter.all(params(n, days)),
    /** What names these customers of the namespace, for the flags. */
    customerNames: (n: Namespace, ids: readonly string[]) => names.all({ orgId: n.orgId, livemode: n.livemode ? 1 : 0, ids: JSON.stringify(ids) }),
  };
}

export const dashboardRepo = perConnection(createDashboardRepo);
