import type { Card } from '../../cards/model';
import { formatMoney, formatNumber } from '../../i18n/format';
import { localeOf, type ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { monthName } from '../../report/month';
import type { BooksFigures, CardBooks, MonthBooks } from '../../report/service';
import { html, type Markup } from '../../web/html';
import type { FormErrors } from '../../web/forms';
import { formError } from '../../web/fields';
import { unitOf } from '../format';
import { movementsChart, type MovementBar } from './chart';
import { booksCsvName } from './csv';

// The Report page: a month and a card to pick, then that card's books as a table (units, and money
// where a unit has a value), the movements as a bar chart, and the CSV downloads. In the admin's
// language: words from the console catalogue, numbers, money and months as that language writes them.

export interface ReportForm {
  month: string;
  card: string;
}

interface Line {
  key: keyof BooksFigures;
  label: ConsoleKey;
  /** A balance (unsigned) or a movement (+/−). */
  kind: 'balance' | 'movement' | 'part';
  chart?: ConsoleKey;
}

const LINES: Line[] = [
  { key: 'opening', label: 'console.report.line.opening', kind: 'balance' },
  { key: 'earned', label: 'console.report.line.earned', kind: 'movement', chart: 'console.report.bar.earned' },
  { key: 'promotions', label: 'console.report.line.promotions', kind: 'part' },
  { key: 'birthday', label: 'console.report.line.birthday', kind: 'movement', chart: 'console.report.bar.birthday' },
  { key: 'imported', label: 'console.report.line.imported', kind: 'movement', chart: 'console.report.bar.imported' },
  { key: 'correctedUp', label: 'console.report.line.correctedUp', kind: 'movement', chart: 'console.report.bar.correctedUp' },
  { key: 'correctedDown', label: 'console.report.line.correctedDown', kind: 'movement', chart: 'console.report.bar.correctedDown' },
  { key: 'redeemed', label: 'console.report.line.redeemed', kind: 'movement', chart: 'console.report.bar.redeemed' },
  { key: 'expired', label: 'console.report.line.expired', kind: 'movement', chart: 'console.report.bar.expired' },
  { key: 'closing', label: 'console.report.line.closing', kind: 'balance' },
];

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : value < 0 ? `−${text}` : text);

/** Units as the owner reads them: "40 stamps" is written "40" under the Stamps heading; store credit in money. */
function unitsText(lang: ConsoleLang, card: CardBooks, hundredths: number, withSign: boolean): string {
  const text = unitOf(card.passType) === 'credit' ? formatMoney(lang, card.currency, Math.abs(hundredths)) : formatNumber(lang, Math.abs(hundredths) / 100);
  return withSign ? signed(text, hundredths) : hundredths < 0 ? `−${text}` : text;
}

function moneyText(lang: ConsoleLang, card: CardBooks, cents: number, withSign: boolean): string {
  const text = formatMoney(lang, card.currency, Math.abs(cents));
  return withSign ? signed(text, cents) : cents < 0 ? `−${text}` : text;
}

/** A unit's value with up to 4 decimals, as the owner set it: "€0.0125", "0,0125 €". */
function unitValueText(lang: ConsoleLang, e4: number, currency: string | null): string {
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 4 };
  try {
    return new Intl.NumberFormat(localeOf(lang), currency ? { style: 'currency', currency, ...digits } : digits).format(e4 / 10_000);
  } catch {
    return `${new Intl.NumberFormat(localeOf(lang), digits).format(e4 / 10_000)} ${currency}`;
  }
}

function booksTable(lang: ConsoleLang, card: CardBooks, caption: string): Markup {
  const unit = unitOf(card.passType);
  const money = unit !== 'credit' ? card.money : null;
  const unitsHeading = tConsole(lang, 'console.report.column.units', { unit });
  const moneyHeading = tConsole(lang, 'console.report.column.money');
  const row = (line: Line) => {
    const sign = line.kind !== 'balance';
    return html`<tr class="${line.kind}">
    <th scope="row">${tConsole(lang, line.label)}</th>
    <td class="num" data-label="${unitsHeading}">${unitsText(lang, card, card.units[line.key], sign)}</td>
    ${money ? html`<td class="num" data-label="${moneyHeading}">${moneyText(lang, card, money[line.key], sign)}</td>` : ''}
  </tr>`;
  };
  const lines = LINES.filter((l) => l.key !== 'closing');
  return html`<div class="table-wrap"><table class="books-table" id="books-table">
  <caption class="visually-hidden">${caption}</caption>
  <thead><tr><th scope="col">${tConsole(lang, 'console.report.column.line')}</th><th scope="col" class="num">${unitsHeading}</th>${
    money ? html`<th scope="col" class="num">${card.currency ? tConsole(lang, 'console.report.column.moneyIn', { currency: card.currency }) : moneyHeading}</th>` : ''
  }</tr></thead>
  <tbody>
    ${lines.map(row)}
    ${
      money && money.rounding !== 0
        ? html`<tr class="movement"><th scope="row">${tConsole(lang, 'console.report.line.rounding')}</th><td class="num" data-label="${unitsHeading}"></td><td class="num" data-label="${moneyHeading}">${moneyText(lang, card, money.rounding, true)}</td></tr>`
        : ''
    }
    ${row(LINES.find((l) => l.key === 'closing')!)}
    <tr class="count"><th scope="row">${tConsole(lang, 'console.report.line.customers')}</th><td class="num" data-label="${tConsole(lang, 'console.report.column.customers')}">${formatNumber(lang, card.customersWithBalance)}</td>${money ? html`<td></td>` : ''}</tr>
  </tbody>
</table></div>`;
}

function chartOf(lang: ConsoleLang, card: CardBooks, books: MonthBooks): Markup {
  const bars: MovementBar[] = LINES.filter((l) => l.chart).map((l) => ({ label: tConsole(lang, l.chart!), value: card.units[l.key], text: unitsText(lang, card, card.units[l.key], true) }));
  const unit = unitOf(card.passType);
  return html`<figure class="movements">
  <figcaption><strong>${tConsole(lang, 'console.report.movements')}</strong> <span class="muted small">${tConsole(lang, 'console.report.movementsHint', { unit })}</span></figcaption>
  ${movementsChart({ id: 'movements', title: tConsole(lang, 'console.report.chartTitle', { unit, card: card.name, month: monthName(books.month, lang) }), bars })}
</figure>`;
}

function reportForm(lang: ConsoleLang, view: { form: ReportForm; cards: Card[]; errors: FormErrors; currentMonth: string }): Markup {
  const { form, errors } = view;
  const described = (name: string) => (errors.fields[name] ? html` aria-describedby="f-${name}-error" aria-invalid="true"` : '');
  return html`<form method="get" action="/console/report" class="panel report-form">
  ${formError(errors.form)}
  <div class="report-fields">
    <div class="field">
      <label for="f-month">${tConsole(lang, 'console.report.month')}</label>
      <input id="f-month" name="month" type="month" value="${form.month}" max="${view.currentMonth}" required pattern="\\d{4}-\\d{2}" placeholder="YYYY-MM"${described('month')}>
      ${errors.fields.month ? html`<span class="error" id="f-month-error">${errors.fields.month}</span>` : ''}
    </div>
    <div class="field">
      <label for="f-card">${tConsole(lang, 'console.report.card')}</label>
      <select id="f-card" name="card"${described('card')}>
        ${view.cards.map(
          (c) => html`<option value="${c.id}"${c.id === form.card ? html` selected` : ''}>${c.archivedAt !== null ? tConsole(lang, 'console.report.archivedCard', { card: c.name }) : c.name}</option>`,
        )}
      </select>
      ${errors.fields.card ? html`<span class="error" id="f-card-error">${errors.fields.card}</span>` : ''}
    </div>
    <div class="actions"><button type="submit">${tConsole(lang, 'console.report.show')}</button></div>
  </div>
</form>`;
}

export interface ReportView {
  lang: ConsoleLang;
  form: ReportForm;
  cards: Card[];
  errors: FormErrors;
  currentMonth: string;
  timeZone: string;
  /** The books of the card in the form, when the form is right. */
  books: MonthBooks | null;
}

/** What the line under the heading says about the card: its kind, a unit's value, and whether the month is over. */
function cardNotes(lang: ConsoleLang, card: CardBooks, books: MonthBooks): string {
  const unit = unitOf(card.passType);
  const notes = [tConsole(lang, 'console.report.cardType', { passType: card.passType })];
  if (unit !== 'credit') {
    notes.push(card.money ? tConsole(lang, 'console.report.unitWorth', { unit, value: unitValueText(lang, card.unitValueE4!, card.currency) }) : tConsole(lang, 'console.report.noUnitValue'));
  }
  if (!books.complete) notes.push(tConsole(lang, 'console.report.closingSoFar'));
  return notes.join(' · ');
}

export function reportBody(view: ReportView): Markup {
  const { lang } = view;
  const intro = html`<div class="page-head"><h1>${tConsole(lang, 'console.report.title')}</h1></div>
<p class="muted">${tConsole(lang, 'console.report.intro', { timeZone: view.timeZone.replace(/_/g, ' ') })}</p>`;
  if (view.cards.length === 0) return html`${intro}<p class="notice" role="status">${tConsole(lang, 'console.report.noCards')} <a href="/console/cards">${tConsole(lang, 'console.report.makeCard')}</a></p>`;
  const books = view.books;
  const card = books?.cards[0];
  if (!books || !card) return html`${intro}${reportForm(lang, view)}`;
  const month = monthName(books.month, lang);
  return html`${intro}
${reportForm(lang, view)}
<section class="panel books" aria-labelledby="books-heading">
  <div class="spread"><h2 id="books-heading">${tConsole(lang, books.complete ? 'console.report.heading' : 'console.report.headingSoFar', { card: card.name, month })}</h2>
    <p class="row downloads">
      <a class="button secondary" href="/console/report.csv?month=${books.month}&amp;card=${card.cardId}" download="${booksCsvName(books.month, card.cardId)}">${tConsole(lang, 'console.report.downloadCsv')}</a>
      <a class="button secondary" href="/console/report.csv?month=${books.month}" download="${booksCsvName(books.month)}">${tConsole(lang, 'console.report.csvEveryCard')}</a>
    </p>
  </div>
  <p class="muted small">${cardNotes(lang, card, books)}</p>
  <div class="books-grid">
    ${booksTable(lang, card, tConsole(lang, 'console.report.tableCaption', { card: card.name, month }))}
    ${chartOf(lang, card, books)}
  </div>
  <p class="muted small">${tConsole(lang, 'console.report.footnote')} <a href="/console/help/report">${tConsole(lang, 'console.report.helpLink')}</a></p>
</section>`;
}

/** What the Report page says in test mode: the books are of live data only. */
export function reportTestModeBody(lang: ConsoleLang): Markup {
  return html`<div class="page-head"><h1>${tConsole(lang, 'console.report.title')}</h1></div>
<div class="notice warn" role="status"><p><strong>${tConsole(lang, 'console.report.liveOnly')}</strong> ${tConsole(lang, 'console.report.liveOnlyHint')}</p></div>`;
}
