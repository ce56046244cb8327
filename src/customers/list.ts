import type { Namespace } from './model';
import { exactCodeOf, searchMatch } from './search';
import { customerSearchRepo, type CustomerListItem, type Direction } from './search-repo';
import type { Db } from '../db/connection';
import { ApiError } from '../lib/errors';

// The customer list as the console pages through it: the whole namespace newest first, or what a
// search finds, optionally of one card. Pages are reached by cursors (the edge row's place), never
// by an offset, so page 2,000 costs what page 1 does at 100,000 customers.

export type { CustomerListItem } from './search-repo';

export const PAGE_SIZE = 50;
/** Longer search text is cut: a person types a name, an email or a number, not a paragraph. */
export const MAX_QUERY_LENGTH = 200;

export interface ListQuery {
  q: string;
  cardId: string | null;
  /** A cursor of a page this list handed out, and which way from it. */
  from?: { direction: Direction; cursor: string };
}

export interface ListPage {
  rows: CustomerListItem[];
  /** Cursors of the neighbouring pages; null where there is none. */
  newer: string | null;
  older: string | null;
  /** How many customers the unsearched list holds (null for a search, which is not counted). */
  total: number | null;
  /** The text held nothing to search for (only punctuation). */
  nothingToSearch: boolean;
}

// A cursor is the edge row's place: `<created_at>.<rowid>` in the whole list, `s<row number>` in a search.
const LIST_CURSOR = /^(\d{1,15})\.(\d{1,15})$/;
const SEARCH_CURSOR = /^s(\d{1,15})$/;

function badCursor(): ApiError {
  return new ApiError(400, 'INVALID_CURSOR', { detail: 'this page link is not one the customer list made; open Customers again to start from the first page' });
}

const listCursor = (row: CustomerListItem) => `${row.createdAt}.${row.seq}`;
const searchCursor = (row: CustomerListItem) => `s${row.seq}`;

/** How many customers the namespace (or one card of it) has: kept by triggers, as cheap at 100,000 as at 10. */
export function countCustomers(db: Db, n: Namespace, cardId?: string | null): number {
  return customerSearchRepo(db).count(n, cardId);
}

/**
 * One page of the list. Each read asks for one row more than a page in the direction of travel:
 * that row says whether a further page exists without counting.
 */
export function listPage(db: Db, n: Namespace, query: ListQuery, options: { limit?: number; count?: boolean } = {}): ListPage {
  const limit = options.limit ?? PAGE_SIZE;
  const repo = customerSearchRepo(db);
  const text = query.q.trim();
  if (!text) {
    const at = query.from ? { direction: query.from.direction, position: parseListCursor(query.from.cursor) } : undefined;
    const read = (from?: typeof at) => repo.newest(n, { cardId: query.cardId, limit: limit + 1, at: from });
    return { total: options.count === false ? null : repo.count(n, query.cardId), nothingToSearch: false, ...paged(read, at, limit, listCursor) };
  }

  // A scan code or passUserId names one customer: that customer is the whole answer.
  const code = exactCodeOf(text);
  const exact = code && !query.from ? repo.byCode(n, code) : undefined;
  if (exact && (!query.cardId || exact.cardId === query.cardId)) return { rows: [exact], newer: null, older: null, total: null, nothingToSearch: false };

  const match = searchMatch(text, n, query.cardId);
  if (!match) return { rows: [], newer: null, older: null, total: null, nothingToSearch: true };
  const at = query.from ? { direction: query.from.direction, seq: parseSearchCursor(query.from.cursor) } : undefined;
  const read = (from?: typeof at) => repo.matching(n, { match, limit: limit + 1, at: from });
  return { total: null, nothingToSearch: false, ...paged(read, at, limit, searchCursor) };
}

/**
 * Trims a read of `limit + 1` rows (newest first) to a page and works out the neighbouring pages'
 * cursors. Reading towards newer rows, the extra row is the first; a read that comes back short
 * there (or empty going older, the rows having gone) shows the first page instead.
 */
function paged<At extends { direction: Direction }>(
  read: (at?: At) => CustomerListItem[],
  at: At | undefined,
  limit: number,
  cursorOf: (row: CustomerListItem) => string,
): Pick<ListPage, 'rows' | 'newer' | 'older'> {
  const rows = read(at);
  if (at?.direction === 'newer') {
    if (rows.length <= limit) return paged(read, undefined, limit, cursorOf);
    const page = rows.slice(1);
    return { rows: page, newer: cursorOf(page[0]!), older: cursorOf(page[page.length - 1]!) };
  }
  if (at && rows.length === 0) return paged(read, undefined, limit, cursorOf);
  const page = rows.slice(0, limit);
  return {
    rows: page,
    newer: at ? cursorOf(page[0]!) : null,
    older: rows.length > limit ? cursorOf(page[page.length - 1]!) : null,
  };
}

function parseListCursor(cursor: string) {
  const m = LIST_CURSOR.exec(cursor);
  if (!m) throw badCursor();
  return { createdAt: Number(m[1]), seq: Number(m[2]) };
}

function parseSearchCursor(cursor: string): number {
  const m = SEARCH_CURSOR.exec(cursor);
  if (!m) throw badCursor();
  return Number(m[1]);
}
