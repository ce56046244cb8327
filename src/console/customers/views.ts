import type { Card } from '../../cards/model';
import type { CustomerListItem } from '../../customers/list';
import { TEST_CUSTOMER_LIFETIME_MS, TEST_CUSTOMER_LIMIT } from '../../customers/test-mode';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { consoleText } from '../message-markup';
import { amountText, channelText, dayText, labelOf, timeText } from './lang-format';
import type { ListPage, ListQuery } from '../../customers/list';
import { MAX_QUERY_LENGTH } from '../../customers/list';

// The customer list: one search box, a card filter, a table of one page and links to the pages
// around it. Typing searches as you go (htmx swaps only the results); without scripts the form
// submits like any other.

export interface ListView {
  query: ListQuery;
  page: ListPage;
  cards: Map<string, Card>;
  timeZone: string;
  /** The customers of the page who opened their web pass. */
  webPassUsers?: ReadonlySet<string>;
}

/** The list's own address with its search, filter and (optionally) a page cursor. */
export function listHref(base: string, query: Pick<ListQuery, 'q' | 'cardId'>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (query.q.trim()) params.set('q', query.q.trim());
  if (query.cardId) params.set('card', query.cardId);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}

/** A pass in a wallet app, else the web pass if the customer opened it (wallet/web-pass-opens.ts). */
export function statusText(status: CustomerListItem['status'], usesWebPass = false, lang: ConsoleLang = 'en'): string {
  return tConsole(lang, 'console.customers.status', { status: status === 'installed' ? 'installed' : usesWebPass ? 'webpass' : 'none' });
}

export function statusBadge(lang: ConsoleLang, status: CustomerListItem['status'], usesWebPass = false): Markup {
  return html`<span class="badge${status === 'installed' || usesWebPass ? ' ok' : ''}">${statusText(status, usesWebPass, lang)}</span>`;
}

/** The name as a link to the customer, or what else tells them apart when they gave none. */
function nameCell(lang: ConsoleLang, row: CustomerListItem): Markup {
  const label = labelOf(lang, row);
  return html`<a href="/console/customers/${row.id}">${label}</a>${row.name && row.externalId ? html`<span class="muted small block">${row.externalId}</span>` : ''}`;
}

function resultsTable(c: ConsoleContext, view: ListView): Markup {
  const { page, cards, timeZone } = view;
  const m = consoleText(c.lang);
  if (page.rows.length === 0) {
    const message = page.nothingToSearch
      ? m('console.customers.empty.nothingToSearch')
      : view.query.q.trim()
        ? m('console.customers.empty.noMatch')
        : view.query.cardId
          ? m('console.customers.empty.card')
          : c.livemode
            ? m('console.customers.empty.live')
            : m('console.customers.empty.test');
    return html`<p class="empty">${message}</p>`;
  }
  const col = {
    name: m('console.customers.col.name'),
    contact: m('console.customers.col.contact'),
    card: m('console.customers.col.card'),
    balance: m('console.customers.col.balance'),
    status: m('console.customers.col.status'),
    created: m('console.customers.col.created'),
    removedOn: m('console.customers.col.removedOn'),
  };
  return html`<div class="table-wrap"><table class="customers-table stacked">
  <caption class="visually-hidden">${m('console.customers.caption')}</caption>
  <thead><tr><th scope="col">${col.name}</th><th scope="col">${col.contact}</th><th scope="col">${col.card}</th><th scope="col" class="num">${col.balance}</th><th scope="col">${col.status}</th><th scope="col">${col.created}</th>${c.livemode ? '' : html`<th scope="col">${col.removedOn}</th>`}</tr></thead>
  <tbody>
  ${page.rows.map((row) => {
    const card = cards.get(row.cardId);
    return html`<tr>
    <td data-label="${col.name}">${nameCell(c.lang, row)}</td>
    <td data-label="${col.contact}" class="contact"><span>${row.email ? html`<span class="block">${row.email}</span>` : ''}${row.phone ? html`<span class="block">${row.phone}</span>` : ''}${!row.email && !row.phone ? html`<span class="muted">—</span>` : ''}</span></td>
    <td data-label="${col.card}">${card?.name ?? ''}</td>
    <td data-label="${col.balance}" class="num nowrap">${card ? amountText(c.lang, card, row.balance) : ''}</td>
    <td data-label="${col.status}"><span>${statusBadge(c.lang, row.status, view.webPassUsers?.has(row.id))}<span class="muted small block">${m('console.customers.via', { channel: channelText(c.lang, row.source) })}</span></span></td>
    <td data-label="${col.created}" class="nowrap">${timeText(c.lang, row.createdAt, timeZone)}</td>
    ${c.livemode ? '' : html`<td data-label="${col.removedOn}" class="nowrap">${dayText(c.lang, row.createdAt + TEST_CUSTOMER_LIFETIME_MS, timeZone)}</td>`}
  </tr>`;
  })}
  </tbody>
</table></div>`;
}

function pager(lang: ConsoleLang, view: ListView): Markup {
  const { page, query } = view;
  const m = consoleText(lang);
  if (!page.newer && !page.older) return html``;
  return html`<nav class="pager" aria-label="${m('console.customers.pages')}">
  ${page.newer ? html`<a class="button secondary" rel="prev" href="${listHref('/console/customers', query, { newer: page.newer })}">${m('console.customers.previous')}</a>` : html`<span></span>`}
  ${page.older ? html`<a class="button secondary" rel="next" href="${listHref('/console/customers', query, { older: page.older })}">${m('console.customers.next')}</a>` : ''}
</nav>`;
}

/** The part htmx replaces as the owner types: the count line, the table and the pager. */
export function listResults(c: ConsoleContext, view: ListView): Markup {
  const { page } = view;
  const m = consoleText(c.lang);
  const summary =
    page.total !== null
      ? m('console.customers.total', { count: page.total, onCard: view.query.cardId ? 'yes' : 'no' })
      : page.rows.length === 0
        ? ''
        : page.older || page.newer
          ? m('console.customers.matching')
          : m('console.customers.matchingCount', { count: page.rows.length });
  // The download sits with the results, so it always exports what they show, however htmx got them.
  return html`<div id="results" aria-live="polite">
  <div class="results-head">
    <p class="muted">${summary && page.rows.length && (page.older || page.newer) ? m('console.customers.newestFirst', { summary }) : summary}</p>
    ${page.rows.length ? html`<a class="button secondary" href="${listHref('/console/customers/export.csv', view.query)}" download>${m('console.customers.downloadCsv')}</a>` : ''}
  </div>
  ${resultsTable(c, view)}
  ${pager(c.lang, view)}
</div>`;
}

function testModeNote(c: ConsoleContext, used: number): Markup {
  if (c.livemode) return html``;
  const left = Math.max(0, TEST_CUSTOMER_LIMIT - used);
  const m = consoleText(c.lang);
  return html`<div class="notice warn test-usage" role="status"><p><strong>${m('console.customers.testUsed', { used, limit: TEST_CUSTOMER_LIMIT })}</strong> ${m('console.customers.testLeft', { left })}</p></div>`;
}

/** Customers → Import, beside the page's title. */
const importLink = (lang: ConsoleLang) => html`<a class="button secondary" href="/console/customers/import">${tConsole(lang, 'console.customers.import')}</a>`;

export function customersBody(c: ConsoleContext, view: ListView, testCustomers: number): Markup {
  const cardOptions = [...view.cards.values()].map((card) => ({ value: card.id, label: card.name }));
  const m = consoleText(c.lang);
  return html`<div class="page-head"><h1>${m('console.customers.title')}</h1>${importLink(c.lang)}</div>
${testModeNote(c, testCustomers)}
<form method="get" action="/console/customers" class="panel customer-search" role="search"
  hx-get="/console/customers" hx-target="#results" hx-swap="outerHTML" hx-push-url="true"
  hx-trigger="input changed delay:300ms from:#f-q, search from:#f-q, change from:#f-card, submit">
  <div class="field search-field">
    <label for="f-q">${m('console.customers.search')}</label>
    <input id="f-q" name="q" type="search" value="${view.query.q}" maxlength="${MAX_QUERY_LENGTH}" autocomplete="off" aria-describedby="f-q-hint">
    <span class="hint" id="f-q-hint">${m('console.customers.searchHint')}</span>
  </div>
  <div class="field card-field">
    <label for="f-card">${m('console.customers.card')}</label>
    <select id="f-card" name="card">
      <option value="">${m('console.customers.allCards')}</option>
      ${cardOptions.map((o) => html`<option value="${o.value}"${o.value === view.query.cardId ? html` selected` : ''}>${o.label}</option>`)}
    </select>
  </div>
  <div class="actions"><button type="submit">${m('console.customers.searchButton')}</button>${view.query.q || view.query.cardId ? html`<a href="/console/customers">${m('console.customers.clear')}</a>` : ''}</div>
</form>
${listResults(c, view)}`;
}
