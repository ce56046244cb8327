import type { Namespace } from '../customers/model';
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { notReversedSql } from '../db/reversals';
import type { Channel } from '../lib/changes';

// The watch list's reads. An award is what the earning limits count (is_award: an earn, or a
// correction that added value) and no undo reversed. The period's award times are read first, from
// transactions_org_time, undone ones included: only a customer with more than a card's number of
// them in one day can be on the list, and only those customers' rows are then read in full
// (transactions_customer), with the undone ones left out.

/** One award of a customer who may be on the list. */
export interface AwardRow {
  id: string;
  customerId: string;
  createdAt: number;
  source: Channel;
  change: number;
  staffId: string | null;
  /** The staff member's name as it is now. */
  staffName: string | null;
}

export interface WatchedCustomerRow {
  id: string;
  cardId: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  externalId: string | null;
  erasedAt: number | null;
}

// Exported for the query-plan test.
export const AWARD_TIMES_SQL = `SELECT customer_id, created_at FROM transactions
  WHERE org_id = @orgId AND livemode = @livemode AND created_at >= @from AND created_at < @to AND is_award = 1`;
export const AWARDS_OF_SQL = `SELECT t.id AS id, t.customer_id AS customerId, t.created_at AS createdAt, t.source AS source, t.change AS change,
    t.staff_id AS staffId, s.name AS staffName
  FROM json_each(@ids) j CROSS JOIN transactions t ON t.customer_id = j.value AND t.created_at >= @from AND t.created_at < @to AND t.is_award = 1
  LEFT JOIN staff s ON s.id = t.staff_id
  WHERE ${notReversedSql('t')}
  ORDER BY t.created_at, t.rowid`;

type Range = { orgId: string; livemode: number; from: number; to: number };

function createWatchListRepo(db: Db) {
  const awardTimes = db.prepare<Range, [string, number]>(AWARD_TIMES_SQL).raw();
  const awardsOf = db.prepare<{ ids: string; from: number; to: number }, AwardRow>(AWARDS_OF_SQL);
  const customers = db.prepare<{ orgId: string; livemode: number; ids: string }, WatchedCustomerRow>(
    `SELECT c.id AS id, c.card_id AS cardId, c.name AS name, c.email AS email, c.phone AS phone, c.external_id AS externalId, c.erased_at AS erasedAt
     FROM json_each(@ids) j CROSS JOIN customers c ON c.id = j.value AND c.org_id = @orgId AND c.livemode = @livemode`,
  );
  const mode = (n: Namespace) => (n.livemode ? 1 : 0);
  return {
    /** [customerId, createdAt] of every award row in [from, to), undone ones included. */
    awardTimes: (n: Namespace, from: number, to: number): [string, number][] => awardTimes.all({ orgId: n.orgId, livemode: mode(n), from, to }),
    /** The awards of these customers in [from, to) that no undo reversed, oldest first. */
    awardsOf: (ids: readonly string[], from: number, to: number): AwardRow[] => (ids.length ? awardsOf.all({ ids: JSON.stringify(ids), from, to }) : []),
    /** These customers, if they are of the namespace. */
    customers: (n: Namespace, ids: readonly string[]): WatchedCustomerRow[] => (ids.length ? customers.all({ orgId: n.orgId, livemode: mode(n), ids: JSON.stringify(ids) }) : []),
  };
}

export const watchListRepo = perConnection(createWatchListRepo);
