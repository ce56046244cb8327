import type { Card } from '../../cards/model';
import type { CustomerListItem } from '../../customers/search-repo';
import { TEST_CUSTOMER_LIFETIME_MS } from '../../customers/test-mode';
import type { Db } from '../../db/connection';
import { levelFor } from '../../loyalty/balance';
import type { ConsoleContext } from '../context';
import { channelLabel, currencyOf, formatSortableTime, unitOf } from '../format';
import { csvLine, CSV_BOM } from './csv';
import { listPage, type ListQuery } from './list';
import { statusText } from './views';
import { webPassUsersAmong } from '../../wallet/web-pass-opens';

// The CSV export: every customer the list shows for this search and card, all pages, written as
// the response is read. Each batch is one keyset read, so a large export never holds the database
// or the event loop for long, and memory stays at one batch whatever the size.

const BATCH = 1000;

/** The balance as a plain number in the card's units (2 decimals for store credit). */
function balanceText(card: Card | undefined, hundredths: number): string {
  return card && unitOf(card.passType) === 'credit' ? (hundredths / 100).toFixed(2) : String(hundredths / 100);
}

function unitText(card: Card | undefined): string {
  if (!card) return '';
  const unit = unitOf(card.passType);
  return unit === 'credit' ? (currencyOf(card) ?? 'credit') : unit;
}

export function* exportLines(db: Db, c: ConsoleContext, query: Pick<ListQuery, 'q' | 'cardId'>, cards: Map<string, Card>, timeZone: string, batch = BATCH): Generator<string> {
  const header = ['Name', 'Email', 'Phone', 'External id', 'Card', 'Balance', 'Unit', 'Level', 'Status', 'Joined via', 'Created', 'Customer id'];
  yield CSV_BOM + csvLine(c.livemode ? header : [...header, 'Removed on']);
  let webPass: ReadonlySet<string> = new Set();
  const line = (row: CustomerListItem) => {
    const card = cards.get(row.cardId);
    const cells = [
      row.name,
      row.email,
      row.phone,
      row.externalId,
      card?.name,
      balanceText(card, row.balance),
      unitText(card),
      card ? (levelFor(card, row.balance)?.name ?? '') : '',
      statusText(row.status, webPass.has(row.id)),
      channelLabel(row.source),
      formatSortableTime(row.createdAt, timeZone),
      `pu_${row.id}`,
    ];
    return csvLine(c.livemode ? cells : [...cells, formatSortableTime(row.createdAt + TEST_CUSTOMER_LIFETIME_MS, timeZone)]);
  };
  let from: ListQuery['from'];
  for (;;) {
    const page = listPage(db, c.namespace, { ...query, ...(from ? { from } : {}) }, { limit: batch, count: false });
    webPass = webPassUsersAmong(db, page.rows.map((r) => r.id));
    if (page.rows.length) yield page.rows.map(line).join('');
    if (!page.older) return;
    from = { direction: 'older', cursor: page.older };
  }
}
