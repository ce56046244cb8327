import type { Customer } from '../customers/model';
import type { Db } from '../db/connection';
import { validationFailed } from '../lib/errors';
import { isoTime } from '../lib/clock';
import { fromHundredths } from '../lib/money';
import { ledgerRepo, type LedgerDetails, type LedgerEntry, type LedgerPosition } from './repo';
import { CURSOR_PATTERN } from './schemas';

// The customer's ledger, newest first, for integrators who show a history. The cursor is opaque
// to clients: it is the position of the last row shown (time and insertion order), so rows
// written while a client pages never shift what it sees.

export type { LedgerDetails, LedgerEntry } from './repo';

export function encodeCursor(position: LedgerPosition): string {
  return `${position.createdAt}-${position.seq}`;
}

export function decodeCursor(cursor: string): LedgerPosition {
  const match = CURSOR_PATTERN.exec(cursor);
  if (!match) throw validationFailed([{ path: 'cursor', message: 'is not a cursor this API returned' }]);
  return { createdAt: Number(match[1]), seq: Number(match[2]) };
}

/** Ledger details in units, as the API shows them. */
function detailsResource(details: LedgerDetails) {
  // An earn's promotions go with whatever else it says: the sale, the items, or nothing more.
  const promotions = 'promotions' in details && details.promotions ? { promotions: { ids: details.promotions.ids, extra: fromHundredths(details.promotions.extra) } } : {};
  if ('from' in details && details.from === 'spend') return { from: details.from, spend: { ...details.spend, amount: fromHundredths(details.spend.amount) }, rate: details.rate, ...promotions };
  if ('from' in details) return { from: details.from, items: details.items.map((i) => ({ ...i, each: fromHundredths(i.each) })), ...promotions };
  if ('reverses' in details) return { reverses: details.reverses };
  if ('reward' in details) return { reward: { ...(details.reward.id ? { id: details.reward.id } : {}), name: details.reward.name, cost: fromHundredths(details.reward.cost) } };
  if ('setPoints' in details) return { setPoints: fromHundredths(details.setPoints) };
  return promotions;
}

export function transactionResource(row: LedgerEntry) {
  return {
    id: row.id,
    kind: row.kind,
    change: fromHundredths(row.change),
    balanceAfter: fromHundredths(row.balanceAfter),
    source: row.source,
    staff: row.staffId && row.staffName !== null ? { id: row.staffId, name: row.staffName } : null,
    note: row.note,
    createdAt: isoTime(row.createdAt),
    ...(row.details ? { details: detailsResource(row.details) } : {}),
  };
}

/**
 * Up to `limit` of the customer's ledger rows, newest first, older than `after` when given, and
 * the cursor of the page after them (null on the last page). The API's history and the console's
 * customer page both page through here.
 */
export function ledgerPage(db: Db, customerId: string, limit: number, after?: LedgerPosition): { rows: LedgerEntry[]; nextCursor: string | null } {
  // One row more than asked tells whether another page exists without a count query.
  const rows = ledgerRepo(db).page(customerId, limit + 1, after);
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { rows: shown, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, seq: last.seq }) : null };
}

/** One page of the customer's ledger and the cursor of the next (null on the last page). */
export function listTransactions(db: Db, customer: Customer, page: { limit: number; cursor?: string }) {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const { rows, nextCursor } = ledgerPage(db, customer.id, page.limit, after);
  return { data: rows.map(transactionResource), nextCursor };
}
