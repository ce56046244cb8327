import type { Card, Question } from '../../cards/model';
import type { CustomFieldValue } from '../../customers/model';
import type { CustomerListItem } from '../../customers/list';
import { TEST_CUSTOMER_LIFETIME_MS } from '../../customers/test-mode';
import type { Db } from '../../db/connection';
import { levelFor } from '../../loyalty/balance';
import type { ConsoleContext } from '../context';
import { channelLabel, currencyOf, formatSortableTime, unitOf } from '../format';
import { csvLine, CSV_BOM, SpreadsheetPhone } from './csv';
import { exportRepo } from './export-repo';
import { listPage, type ListQuery } from '../../customers/list';
import { statusText } from './views';
import { webPassUsersAmong } from '../../wallet/web-pass-opens';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';

// The CSV export: every customer the list shows for this search and card, all pages, written as
// the response is read. Each batch is one keyset read (and one read of its answers and consent by
// id), so a large export never holds the database or the event loop for long, and memory stays at
// one batch whatever the size.
//
// One column per question, headed by its label. Exporting one card, those are its questions. All
// cards: questions with the same label share a column (two cards that both ask "Birthday" give one
// Birthday column, which is how an owner reads and sorts it); each customer's answer lands in the
// column of their own card's question, the others stay empty. A label that is also one of the
// fixed columns' names gets " (question)" after it, so no header appears twice.

const BATCH = 1000;

/** The balance as a plain number in the card's units (2 decimals for store credit). */
function balanceText(card: Card | undefined, hundredths: number): string {
  return card && unitOf(card.passType) === 'credit' ? (hundredths / 100).toFixed(2) : String(hundredths / 100);
}

function unitText(lang: ConsoleLang, card: Card | undefined): string {
  if (!card) return '';
  const unit = unitOf(card.passType);
  return unit === 'credit' ? (currencyOf(card) ?? tConsole(lang, 'console.report.csv.unitName', { unit })) : tConsole(lang, 'console.report.csv.unitName', { unit });
}

/** The fixed columns' headings, in the admin's language: the import maps either language's back (import/mapping.ts). */
const FIXED: readonly ConsoleKey[] = [
  'console.csv.name', 'console.csv.email', 'console.csv.phone', 'console.csv.externalId', 'console.csv.card', 'console.csv.balance', 'console.csv.unit',
  'console.csv.level', 'console.csv.status', 'console.csv.joinedVia', 'console.csv.created', 'console.csv.consent', 'console.csv.customerId',
];
const fixedHeader = (lang: ConsoleLang) => FIXED.map((key) => tConsole(lang, key));

interface QuestionColumn {
  header: string;
  /** The question of each card this column holds. */
  byCard: Map<string, Question>;
}

function questionColumns(lang: ConsoleLang, cards: Map<string, Card>, cardId: string | null): QuestionColumn[] {
  const columns: QuestionColumn[] = [];
  const byLabel = new Map<string, QuestionColumn>();
  const fixed = new Set(fixedHeader(lang).map((h) => h.toLowerCase()));
  for (const card of cardId ? [cards.get(cardId)!] : [...cards.values()]) {
    for (const question of card.questions) {
      const label = question.label.trim();
      let column = byLabel.get(label.toLowerCase());
      // The same label twice on one card: the second question gets a column of its own.
      if (column?.byCard.has(card.id)) column = undefined;
      if (!column) {
        const header = fixed.has(label.toLowerCase()) ? tConsole(lang, 'console.csv.question', { label }) : byLabel.has(label.toLowerCase()) ? `${label} (${question.key})` : label;
        column = { header, byCard: new Map() };
        if (!byLabel.has(label.toLowerCase())) byLabel.set(label.toLowerCase(), column);
        columns.push(column);
      }
      column.byCard.set(card.id, question);
    }
  }
  return columns;
}

/** An answer as the sign-up form offered it: a choice by its label, a checkbox as Yes or No (in the admin's language; the import reads both). */
function answerCell(lang: ConsoleLang, question: Question, value: CustomFieldValue | undefined): string | number | null {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return tConsole(lang, value ? 'console.csv.yes' : 'console.csv.no');
  if (question.type === 'select') return question.options?.find((o) => o.value === value)?.label ?? String(value);
  return value;
}

export function* exportLines(db: Db, c: ConsoleContext, query: Pick<ListQuery, 'q' | 'cardId'>, cards: Map<string, Card>, timeZone: string, batch = BATCH): Generator<string> {
  const { lang } = c;
  const questions = questionColumns(lang, cards, query.cardId);
  const header = [...fixedHeader(lang), ...questions.map((q) => q.header)];
  yield CSV_BOM + csvLine(c.livemode ? header : [...header, tConsole(lang, 'console.csv.removedOn')]);
  let webPass: ReadonlySet<string> = new Set();
  const line = (row: CustomerListItem, extras: ReturnType<ReturnType<typeof exportRepo>['extras']>) => {
    const card = cards.get(row.cardId);
    const more = extras.get(row.id);
    const cells = [
      row.name,
      row.email,
      SpreadsheetPhone.of(more?.phoneNorm ?? null) ?? row.phone,
      row.externalId,
      card?.name,
      balanceText(card, row.balance),
      unitText(lang, card),
      card ? (levelFor(card, row.balance)?.name ?? '') : '',
      statusText(row.status, webPass.has(row.id), lang),
      channelLabel(row.source, lang),
      formatSortableTime(row.createdAt, timeZone),
      more?.consentAt ? formatSortableTime(more.consentAt, timeZone) : null,
      `pu_${row.id}`,
      ...questions.map((q) => {
        const question = q.byCard.get(row.cardId);
        return question ? answerCell(lang, question, more?.customFields[question.key]) : null;
      }),
    ];
    return csvLine(c.livemode ? cells : [...cells, formatSortableTime(row.createdAt + TEST_CUSTOMER_LIFETIME_MS, timeZone)]);
  };
  let from: ListQuery['from'];
  for (;;) {
    const page = listPage(db, c.namespace, Object.assign({}, query, from ? { from } : {}), { limit: batch, count: false });
    webPass = webPassUsersAmong(db, page.rows.map((r) => r.id));
    if (page.rows.length) {
      const extras = exportRepo(db).extras(page.rows.map((r) => r.id));
      yield page.rows.map((row) => line(row, extras)).join('');
    }
    if (!page.older) return;
    from = { direction: 'older', cursor: page.older };
  }
}
