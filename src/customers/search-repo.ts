import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import type { Channel } from '../lib/changes';
import type { CustomerStatus, Namespace } from './model';
import type { NamespaceParams } from '../db/namespace-params';
import { ns } from './repo';

// Lists of customers for people (the console's customer list and its CSV export, searches), read
// page by page with keyset cursors: a page costs the same on page 1 and page 2,000, because every
// query starts at an index position instead of skipping rows (no OFFSET).
// - The whole list is newest first by (created_at, rowid), on customers_org_time, or on
//   customers_card when one card is chosen.
// - A search reads the full-text index (migration 9) newest first by its row number.

/** What a row of a list shows (no secrets such as the install code). */
export interface CustomerListItem {
  /** The row's place in its order: rowid in the whole list, the index's row number in a search. */
  seq: number;
  id: string;
  cardId: string;
  externalId: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  status: CustomerStatus;
  source: Channel;
  balance: number;
  createdAt: number;
}

/** Where a page of the whole list starts or ends: created_at and rowid of its edge row. */
export interface ListPosition {
  createdAt: number;
  seq: number;
}

export type Direction = 'older' | 'newer';

interface RawItem {
  seq: number;
  id: string;
  card_id: string;
  external_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  status: CustomerStatus;
  source: Channel;
  balance: number;
  created_at: number;
}

const map = (r: RawItem): CustomerListItem => ({
  seq: r.seq,
  id: r.id,
  cardId: r.card_id,
  externalId: r.external_id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  status: r.status,
  source: r.source,
  balance: r.balance,
  createdAt: r.created_at,
});

const COLUMNS = 'c.id, c.card_id, c.external_id, c.name, c.email, c.phone, c.status, c.source, c.balance, c.created_at';

/**
 * The whole list, for a card filter, a direction and a first page or not. With a card, the `+`
 * keeps the planner off customers_org_time: customers_card holds exactly that card's rows.
 * (Exported so a test can read the query plan.)
 */
export function listSql(byCard: boolean, direction: Direction | null): string {
  // Erased customers are rare: skipping them costs a look at their row, and no index of its own.
  const where = `${byCard ? 'c.card_id = @cardId AND c.livemode = @livemode AND +c.org_id = @orgId' : 'c.org_id = @orgId AND c.livemode = @livemode'} AND c.erased_at IS NULL`;
  const edge = direction === 'older' ? 'AND (c.created_at, c.rowid) < (@createdAt, @seq)' : direction === 'newer' ? 'AND (c.created_at, c.rowid) > (@createdAt, @seq)' : '';
  const order = direction === 'newer' ? 'ASC' : 'DESC';
  return `SELECT c.rowid AS seq, ${COLUMNS} FROM customers c WHERE ${where} ${edge} ORDER BY c.created_at ${order}, c.rowid ${order} LIMIT @limit`;
}

/**
 * A search: the index yields its rows in row-number order, the namespace is checked again on the
 * customer row (the scope token in the query already narrowed the index to the namespace).
 */
export function searchSql(direction: Direction | null): string {
  const edge = direction === 'older' ? 'AND s.rowid < @seq' : direction === 'newer' ? 'AND s.rowid > @seq' : '';
  const order = direction === 'newer' ? 'ASC' : 'DESC';
  return `SELECT s.rowid AS seq, ${COLUMNS}
     FROM customer_search s JOIN customer_search_rows r ON r.seq = s.rowid JOIN customers c ON c.id = r.customer_id
     WHERE customer_search MATCH @match AND c.org_id = @orgId AND c.livemode = @livemode ${edge}
     ORDER BY s.rowid ${order} LIMIT @limit`;
}

function createCustomerSearchRepo(db: Db) {
  type ListParams = NamespaceParams & { cardId?: string; createdAt?: number; seq?: number; limit: number };
  type SearchParams = NamespaceParams & { match: string; seq?: number; limit: number };
  const list = (byCard: boolean, direction: Direction | null) => db.prepare<ListParams, RawItem>(listSql(byCard, direction));
  const lists = {
    all: { first: list(false, null), older: list(false, 'older'), newer: list(false, 'newer') },
    card: { first: list(true, null), older: list(true, 'older'), newer: list(true, 'newer') },
  };
  const search = (direction: Direction | null) => db.prepare<SearchParams, RawItem>(searchSql(direction));
  const searches = { first: search(null), older: search('older'), newer: search('newer') };

  const byCode = db.prepare<NamespaceParams & { code: string }, RawItem>(
    `SELECT c.rowid AS seq, ${COLUMNS} FROM customers c
     WHERE (c.scan_code = @code OR c.id = @code) AND c.org_id = @orgId AND c.livemode = @livemode AND c.erased_at IS NULL`,
  );
  // Kept by triggers (migration 9): reading them costs the same at 100 customers and at 100,000.
  const countAll = db.prepare<NamespaceParams, { n: number | null }>('SELECT sum(customers) AS n FROM customer_counts WHERE org_id = @orgId AND livemode = @livemode');
  const countCard = db.prepare<NamespaceParams & { cardId: string }, { n: number | null }>(
    'SELECT customers AS n FROM customer_counts WHERE org_id = @orgId AND livemode = @livemode AND card_id = @cardId',
  );

  return {
    /**
     * Up to `limit` customers of the namespace (optionally of one card), newest first. From `at`:
     * the page older than it, or with `newer` the page just newer than it (still newest first).
     */
    newest(n: Namespace, o: { cardId?: string | null; limit: number; at?: { direction: Direction; position: ListPosition } }): CustomerListItem[] {
      const set = o.cardId ? lists.card : lists.all;
      const params = ns(n, { limit: o.limit, ...(o.cardId ? { cardId: o.cardId } : {}) });
      if (!o.at) return set.first.all(params).map(map);
      const rows = set[o.at.direction].all(Object.assign({}, params, o.at.position)).map(map);
      return o.at.direction === 'newer' ? rows.reverse() : rows;
    },
    /** Up to `limit` customers the full-text query `match` finds in the namespace, newest first; `at` as in newest. */
    matching(n: Namespace, o: { match: string; limit: number; at?: { direction: Direction; seq: number } }): CustomerListItem[] {
      const params = ns(n, { match: o.match, limit: o.limit });
      if (!o.at) return searches.first.all(params).map(map);
      const rows = searches[o.at.direction].all({ ...params, seq: o.at.seq }).map(map);
      return o.at.direction === 'newer' ? rows.reverse() : rows;
    },
    /** The customer whose scan code or passUserId this is, in the namespace. */
    byCode: (n: Namespace, code: string): CustomerListItem | undefined => {
      const row = byCode.get(ns(n, { code }));
      return row && map(row);
    },
    /** How many customers the namespace (or one card of it) has. */
    count: (n: Namespace, cardId?: string | null): number => (cardId ? countCard.get(ns(n, { cardId })) : countAll.get(ns(n)))?.n ?? 0,
  };
}

export const customerSearchRepo = perConnection(createCustomerSearchRepo);
