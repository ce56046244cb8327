import type { Customer, Namespace } from '../../customers/model';
import type { Db } from '../../db/connection';
import { perConnection } from '../../db/per-connection';
import { notReversedSql } from '../../db/reversals';
import type { Channel } from '../../lib/changes';

// The dashboard's reads. The sums come from ledger_slots and customer_slots (migration 9, kept by
// triggers): one row per quarter hour, channel, staff member and card, so a month of figures is a
// few thousand rows at most however busy the shop. Only the counter's per-customer counts and large
// awards read the ledger itself, through the partial indexes of counter awards.

const SLOT_MS = 900_000;

/** The sums of one local day (its index among the days asked for), channel, staff member and card. */
export interface LedgerDay {
  day: number;
  source: Channel;
  /** '' when no staff member made the changes. */
  staffId: string;
  cardId: string;
  /** Hundredths awarded (is_award rows). */
  awarded: number;
  /** Award rows (one per award action). */
  awards: number;
  /** Redemptions of the card's reward. */
  rewards: number;
}

/** New customers of one local day (its index among the days asked for) and channel. */
export interface CustomerDay {
  day: number;
  source: Channel;
  customers: number;
}

/** One counter award (source `scan`) of a customer who may have had an unusual day. */
export interface CounterAward {
  customerId: string;
  createdAt: number;
}

// The customers who may have had `atLeast` counter awards on one day; their own rows
// (transactions_customer) then say which days. With a mark of three or more, a customer's third
// award of a day has at least two counter awards in the 26 hours before it (a day lasts at most 26
// hours), which its row records (counter_awards_before): only those awards are read, through their
// own index. With a lower mark, every customer with `atLeast` counter awards in the whole period,
// from one read of the index of counter awards (counted in JavaScript: a GROUP BY would sort every
// award by customer). (Exported so a test can read the query plans.)
export const REPEAT_CUSTOMERS_SQL = `SELECT DISTINCT customer_id FROM transactions INDEXED BY transactions_counter_repeats
  WHERE org_id = @orgId AND livemode = @livemode AND created_at >= @from AND created_at < @to AND source = 'scan' AND is_award = 1 AND counter_awards_before >= 2`;
export const COUNTER_AWARD_CUSTOMERS_SQL = `SELECT customer_id FROM transactions INDEXED BY transactions_counter_awards
  WHERE org_id = @orgId AND livemode = @livemode AND created_at >= @from AND created_at < @to AND source = 'scan' AND is_award = 1`;
export const COUNTER_AWARDS_OF_SQL = `SELECT t.customer_id AS customerId, t.created_at AS createdAt
  FROM json_each(@ids) j CROSS JOIN transactions t ON t.customer_id = j.value AND t.is_award = 1 AND t.created_at >= @from AND t.created_at < @to
  WHERE t.source = 'scan' AND ${notReversedSql('t')}`;

/** A counter award larger than the owner's confirmation size for its card's unit. */
export interface LargeAwardRow {
  customerId: string;
  staffId: string | null;
  createdAt: number;
  change: number;
  passType: string;
}

// The counter awards of the period, each compared with the size for its card's unit; undone ones
// are not flagged. They are read through the partial index of counter awards, which holds each
// award's size: INDEXED BY, because with the ledger's statistics (PRAGMA optimize) SQLite rates
// the time index as good and walks every channel's rows of the month instead. Only an award above
// the smallest of the three sizes is read from the table and joined to its customer and card.
// (Exported so a test can read the query plan.)
export const LARGE_COUNTER_AWARDS_SQL = `SELECT t.customer_id AS customerId, t.staff_id AS staffId, t.created_at AS createdAt, t.change AS change, k.pass_type AS passType
  FROM transactions t INDEXED BY transactions_counter_awards JOIN customers c ON c.id = t.customer_id JOIN cards k ON k.id = c.card_id
  WHERE t.org_id = @orgId AND t.livemode = @livemode AND t.created_at >= @from AND t.created_at < @to AND t.source = 'scan' AND t.is_award = 1
    AND t.change > min(@stamps, @points, @credit)
    AND t.change > CASE k.pass_type WHEN 'stamp_card' THEN @stamps WHEN 'prepaid_card' THEN @credit ELSE @points END
    AND ${notReversedSql('t')}`;

// A month holds thousands of quarter hours per channel; summed per local day here, the dashboard
// gets a few hundred rows instead of making an object of each. Each day is given as its first slot
// and the first slot of the next: a quarter hour belongs to the day its first instant falls in.
type Days = { orgId: string; livemode: number; days: string };
const daysOf = (n: Namespace, ranges: readonly (readonly [number, number])[]): Days => ({
  orgId: n.orgId,
  livemode: n.livemode ? 1 : 0,
  days: JSON.stringify(ranges.map(([from, to]) => [Math.ceil(from / SLOT_MS), Math.ceil(to / SLOT_MS)])),
});

function createDashboardRepo(db: Db) {
  const ledger = db.prepare<Days, LedgerDay>(
    `SELECT d.key AS day, s.source AS source, s.staff_id AS staffId, s.card_id AS cardId, sum(s.awarded) AS awarded, sum(s.awards) AS awards, sum(s.rewards) AS rewards
     FROM json_each(@days) d JOIN ledger_slots s ON s.org_id = @orgId AND s.livemode = @livemode AND s.slot >= d.value ->> 0 AND s.slot < d.value ->> 1
     GROUP BY d.key, s.source, s.staff_id, s.card_id`,
  );
  const customers = db.prepare<Days, CustomerDay>(
    `SELECT d.key AS day, s.source AS source, sum(s.customers) AS customers
     FROM json_each(@days) d JOIN customer_slots s ON s.org_id = @orgId AND s.livemode = @livemode AND s.slot >= d.value ->> 0 AND s.slot < d.value ->> 1
     WHERE s.customers > 0
     GROUP BY d.key, s.source`,
  );
  const repeatCustomers = db.prepare<{ orgId: string; livemode: number; from: number; to: number }, string>(REPEAT_CUSTOMERS_SQL).pluck();
  const awardCustomers = db.prepare<{ orgId: string; livemode: number; from: number; to: number }, string>(COUNTER_AWARD_CUSTOMERS_SQL).pluck();
  const awardsOf = db.prepare<{ ids: string; from: number; to: number }, CounterAward>(COUNTER_AWARDS_OF_SQL);
  const names = db.prepare<{ orgId: string; livemode: number; ids: string }, Pick<Customer, 'id' | 'name' | 'email' | 'externalId'>>(
    `SELECT c.id AS id, c.name AS name, c.email AS email, c.external_id AS externalId
     FROM json_each(@ids) j CROSS JOIN customers c ON c.id = j.value AND c.org_id = @orgId AND c.livemode = @livemode`,
  );

  const large = db.prepare<{ orgId: string; livemode: number; from: number; to: number; stamps: number; points: number; credit: number }, LargeAwardRow>(LARGE_COUNTER_AWARDS_SQL);
  return {
    /** Counter awards in [from, to) above the sizes (hundredths per unit), not undone. */
    largeAwards: (n: Namespace, from: number, to: number, above: { stamps: number; points: number; credit: number }): LargeAwardRow[] =>
      large.all({ orgId: n.orgId, livemode: n.livemode ? 1 : 0, from, to, ...above }),
    /** The ledger's sums by day (each [from, to), in ms), channel, staff member and card. */
    ledgerDays: (n: Namespace, ranges: readonly (readonly [number, number])[]): LedgerDay[] => ledger.all(daysOf(n, ranges)),
    /** New customers by day and channel; each day [from, to) as in ledgerDays. */
    customerDays: (n: Namespace, ranges: readonly (readonly [number, number])[]): CustomerDay[] => customers.all(daysOf(n, ranges)),
    /** The counter awards in [from, to) of the customers with at least `atLeast` of them there. */
    counterAwardsOfBusyCustomers(n: Namespace, from: number, to: number, atLeast: number): CounterAward[] {
      const range = { orgId: n.orgId, livemode: n.livemode ? 1 : 0, from, to };
      let ids: string[];
      if (atLeast >= 3) ids = repeatCustomers.all(range);
      else {
        const awards = new Map<string, number>();
        for (const id of awardCustomers.all(range)) awards.set(id, (awards.get(id) ?? 0) + 1);
        ids = [...awards].filter(([, count]) => count >= atLeast).map(([id]) => id);
      }
      return ids.length ? awardsOf.all({ ids: JSON.stringify(ids), from, to }) : [];
    },
    /** What names these customers of the namespace, for the flags. */
    customerNames: (n: Namespace, ids: readonly string[]) => names.all({ orgId: n.orgId, livemode: n.livemode ? 1 : 0, ids: JSON.stringify(ids) }),
  };
}

export const dashboardRepo = perConnection(createDashboardRepo);
