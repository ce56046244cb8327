import type { Card } from '../../cards/model';
import { monthName } from '../../report/month';
import type { BooksFigures, CardBooks, MonthBooks } from '../../report/service';
import { html, type Markup } from '../../web/html';
import type { FormErrors } from '../../web/forms';
import { formError } from '../../web/fields';
import { formatMoney, formatNumber, passTypeLabel, unitOf } from '../format';
import { movementsChart, type MovementBar } from './chart';
import { booksCsvName } from './csv';

// The Report page: a month and a card to pick, then that card's books as a table (units, and money
// where a unit has a value), the movements as a bar chart, and the CSV downloads.

export interface ReportForm {
  month: string;
  card: string;
}

interface Line {
  key: keyof BooksFigures;
  label: string;
  /** A balance (unsigned) or a movement (+/−). */
  kind: 'balance' | 'movement' | 'part';
  chart?: string;
}

const LINES: Line[] = [
  { key: 'opening', label: 'Opening balance', kind: 'balance' },
  { key: 'earned', label: 'Earned', kind: 'movement', chart: 'Earned' },
  { key: 'promotions', label: 'of which promotions', kind: 'part' },
  { key: 'birthday', label: 'Birthday treats', kind: 'movement', chart: 'Birthday' },
  { key: 'imported', label: 'Imported', kind: 'movement', chart: 'Imported' },
  { key: 'correctedUp', label: 'Corrections added', kind: 'movement', chart: 'Corrected +' },
  { key: 'correctedDown', label: 'Corrections taken off', kind: 'movement', chart: 'Corrected −' },
  { key: 'redeemed', label: 'Redeemed', kind: 'movement', chart: 'Redeemed' },
  { key: 'expired', label: 'Expired', kind: 'movement', chart: 'Expired' },
  { key: 'closing', label: 'Closing balance', kind: 'balance' },
];

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : value < 0 ? `−${text}` : text);

/** Units as the owner reads them: "40 stamps" is written "40" under the Stamps heading; store credit in money. */
function unitsText(card: CardBooks, hundredths: number, withSign: boolean): string {
  const text = unitOf(card.passType) === 'credit' ? formatMoney(Math.abs(hundredths), card.currency) : formatNumber(Math.abs(hundredths) / 100);
  return withSign ? signed(text, hundredths) : hundredths < 0 ? `−${text}` : text;
}

function moneyText(card: CardBooks, cents: number, withSign: boolean): string {
  const text = formatMoney(Math.abs(cents), card.currency);
  return withSign ? signed(text, cents) : cents < 0 ? `−${text}` : text;
}

/** A unit's value with up to 4 decimals, as the owner set it: "€0.0125". */
function unitValueText(e4: number, currency: string | null): string {
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 4 };
  try {
    return new Intl.NumberFormat('en-GB', currency ? { style: 'currency', currency, ...digits } : digits).format(e4 / 10_000);
  } catch {
    return `${new Intl.NumberFormat('en-GB', digits).format(e4 / 10_000)} ${currency}`;
  }
}

const UNIT_HEADINGS = { stamps: 'Stamps', points: 'Points', credit: 'Credit' } as const;

function booksTable(card: CardBooks, caption: string): Markup {
  const unit = unitOf(card.passType);
  const money = unit !== 'credit' ? card.money : null;
  const row = (line: Line) => {
    const sign = line.kind !== 'balance';
    return html`<tr class="${line.kind}">
    <th scope="row">${line.label}</th>
    <td class="num" data-label="${UNIT_HEADINGS[unit]}">${unitsText(card, card.units[line.key], sign)}</td>
    ${money ? html`<td class="num" data-label="Money">${moneyText(card, money[line.key], sign)}</td>` : ''}
  </tr>`;
  };
  const lines = LINES.filter((l) => l.key !== 'closing');
  return html`<div class="table-wrap"><table class="books-table" id="books-table">
  <caption class="visually-hidden">${caption}</caption>
  <thead><tr><th scope="col">Line</th><th scope="col" class="num">${UNIT_HEADINGS[unit]}</th>${money ? html`<th scope="col" class="num">Money${card.currency ? ` (${card.currency})` : ''}</th>` : ''}</tr></thead>
  <tbody>
    ${lines.map(row)}
    ${
      money && money.rounding !== 0
        ? html`<tr class="movement"><th scope="row">Rounding to the cent</th><td class="num" data-label="${UNIT_HEADINGS[unit]}"></td><td class="num" data-label="Money">${moneyText(card, money.rounding, true)}</td></tr>`
        : ''
    }
    ${row(LINES.find((l) => l.key === 'closing')!)}
    <tr class="count"><th scope="row">Customers with a balance</th><td class="num" data-label="Customers">${formatNumber(card.customersWithBalance)}</td>${money ? html`<td></td>` : ''}</tr>
  </tbody>
</table></div>`;
}

function chartOf(card: CardBooks, books: MonthBooks): Markup {
  const bars: MovementBar[] = LINES.filter((l) => l.chart).map((l) => ({ label: l.chart!, value: card.units[l.key], text: unitsText(card, card.units[l.key], true) }));
  const unit = unitOf(card.passType);
  return html`<figure class="movements">
  <figcaption><strong>Movements</strong> <span class="muted small">in ${unit === 'credit' ? 'credit' : unit}: increases to the right, decreases to the left</span></figcaption>
  ${movementsChart({ id: 'movements', title: `Movements of ${card.name} in ${monthName(books.month)}, in ${unit}`, bars })}
</figure>`;
}

function reportForm(view: { form: ReportForm; cards: Card[]; errors: FormErrors; currentMonth: string }): Markup {
  const { form, errors } = view;
  const described = (name: string) => (errors.fields[name] ? html` aria-describedby="f-${name}-error" aria-invalid="true"` : '');
  return html`<form method="get" action="/console/report" class="panel report-form">
  ${formError(errors.form)}
  <div class="report-fields">
    <div class="field">
      <label for="f-month">Month</label>
      <input id="f-month" name="month" type="month" value="${form.month}" max="${view.currentMonth}" required pattern="\\d{4}-\\d{2}" placeholder="YYYY-MM"${described('month')}>
      ${errors.fields.month ? html`<span class="error" id="f-month-error">${errors.fields.month}</span>` : ''}
    </div>
    <div class="field">
      <label for="f-card">Card</label>
      <select id="f-card" name="card"${described('card')}>
        ${view.cards.map((c) => html`<option value="${c.id}"${c.id === form.card ? html` selected` : ''}>${c.name}${c.archivedAt !== null ? ' (archived)' : ''}</option>`)}
      </select>
      ${errors.fields.card ? html`<span class="error" id="f-card-error">${errors.fields.card}</span>` : ''}
    </div>
    <div class="actions"><button type="submit">Show</button></div>
  </div>
</form>`;
}

export interface ReportView {
  form: ReportForm;
  cards: Card[];
  errors: FormErrors;
  currentMonth: string;
  timeZone: string;
  /** The books of the card in the form, when the form is right. */
  books: MonthBooks | null;
}

export function reportBody(view: ReportView): Markup {
  const intro = html`<div class="page-head"><h1>Report</h1></div>
<p class="muted">The books of one card for one month, for your accountant: what customers held at the start, what was earned, given and taken off, and what they hold at the end. Live data only; months follow your time zone, ${view.timeZone.replace(/_/g, ' ')}.</p>`;
  if (view.cards.length === 0) return html`${intro}<p class="notice" role="status">No cards yet: <a href="/console/cards">make a card</a> first.</p>`;
  const books = view.books;
  const card = books?.cards[0];
  return html`${intro}
${reportForm(view)}
${
  books && card
    ? html`<section class="panel books" aria-labelledby="books-heading">
  <div class="spread"><h2 id="books-heading">${card.name} · ${monthName(books.month)}${books.complete ? '' : ' so far'}</h2>
    <p class="row downloads">
      <a class="button secondary" href="/console/report.csv?month=${books.month}&amp;card=${card.cardId}" download="${booksCsvName(books.month, card.cardId)}">Download CSV</a>
      <a class="button secondary" href="/console/report.csv?month=${books.month}" download="${booksCsvName(books.month)}">CSV of every card</a>
    </p>
  </div>
  <p class="muted small">${passTypeLabel(card.passType)}${
    card.money && unitOf(card.passType) !== 'credit' ? ` · one ${unitOf(card.passType) === 'stamps' ? 'stamp' : 'point'} is worth ${unitValueText(card.unitValueE4!, card.currency)}` : ''
  }${unitOf(card.passType) !== 'credit' && !card.money ? ' · give a unit a money value in the card’s settings to see the books in money too' : ''}${books.complete ? '' : ' · the closing balance is the balance now'}</p>
  <div class="books-grid">
    ${booksTable(card, `The books of ${card.name} in ${monthName(books.month)}`)}
    ${chartOf(card, books)}
  </div>
  <p class="muted small">Every change of a balance is in exactly one line; an undo at the counter is in the line of what it undid. Opening balance + the lines below it = closing balance, which is the sum of every customer’s balance at the end of the month (customers whose data was deleted included: the shop still owes them). See <a href="/console/help/report">Help</a> for what each line holds.</p>
</section>`
    : ''
}`;
}

/** What the Report page says in test mode: the books are of live data only. */
export function reportTestModeBody(): Markup {
  return html`<div class="page-head"><h1>Report</h1></div>
<div class="notice warn" role="status"><p><strong>The report counts live data only.</strong> Test data is a sandbox with no books to keep. Switch to live data (at the top of the page) to see the report.</p></div>`;
}
