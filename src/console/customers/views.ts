import type { Card } from '../../cards/model';
import type { CustomerListItem } from '../../customers/list';
import { TEST_CUSTOMER_LIFETIME_MS, TEST_CUSTOMER_LIMIT } from '../../customers/test-mode';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { channelLabel, customerLabel, formatAmount, formatDate, formatNumber, formatTime } from '../format';
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
export function statusText(status: CustomerListItem['status'], usesWebPass = false): string {
  return status === 'installed' ? 'Pass installed' : usesWebPass ? 'Uses the web pass' : 'Not installed yet';
}

export function statusBadge(status: CustomerListItem['status'], usesWebPass = false): Markup {
  return html`<span class="badge${status === 'installed' || usesWebPass ? ' ok' : ''}">${statusText(status, usesWebPass)}</span>`;
}

/** The name as a link to the customer, or what else tells them apart when they gave none. */
function nameCell(row: CustomerListItem): Markup {
  const label = customerLabel(row);
  return html`<a href="/console/customers/${row.id}">${label}</a>${row.name && row.externalId ? html`<span class="muted small block">${row.externalId}</span>` : ''}`;
}

function resultsTable(c: ConsoleContext, view: ListView): Markup {
  const { page, cards, timeZone } = view;
  if (page.rows.length === 0) {
    const message = page.nothingToSearch
      ? 'Type a name, an email, a phone number, an external id or a scan code.'
      : view.query.q.trim()
        ? 'No customer matches this search.'
        : view.query.cardId
          ? 'This card has no customers yet.'
          : c.livemode
            ? 'No customers yet. They appear here when they join through the API, the counter or the sign-up form.'
            : 'No test customers. Test API keys create them.';
    return html`<p class="empty">${message}</p>`;
  }
  return html`<div class="table-wrap"><table class="customers-table stacked">
  <caption class="visually-hidden">Customers, newest first</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Contact</th><th scope="col">Card</th><th scope="col" class="num">Balance</th><th scope="col">Status</th><th scope="col">Created</th>${c.livemode ? '' : html`<th scope="col">Removed on</th>`}</tr></thead>
  <tbody>
  ${page.rows.map((row) => {
    const card = cards.get(row.cardId);
    return html`<tr>
    <td data-label="Name">${nameCell(row)}</td>
    <td data-label="Contact" class="contact"><span>${row.email ? html`<span class="block">${row.email}</span>` : ''}${row.phone ? html`<span class="block">${row.phone}</span>` : ''}${!row.email && !row.phone ? html`<span class="muted">—</span>` : ''}</span></td>
    <td data-label="Card">${card?.name ?? ''}</td>
    <td data-label="Balance" class="num nowrap">${card ? formatAmount(card, row.balance) : ''}</td>
    <td data-label="Status"><span>${statusBadge(row.status, view.webPassUsers?.has(row.id))}<span class="muted small block">via ${channelLabel(row.source)}</span></span></td>
    <td data-label="Created" class="nowrap">${formatTime(row.createdAt, timeZone)}</td>
    ${c.livemode ? '' : html`<td data-label="Removed on" class="nowrap">${formatDate(row.createdAt + TEST_CUSTOMER_LIFETIME_MS, timeZone)}</td>`}
  </tr>`;
  })}
  </tbody>
</table></div>`;
}

function pager(view: ListView): Markup {
  const { page, query } = view;
  if (!page.newer && !page.older) return html``;
  return html`<nav class="pager" aria-label="Pages">
  ${page.newer ? html`<a class="button secondary" rel="prev" href="${listHref('/console/customers', query, { newer: page.newer })}">← Previous page</a>` : html`<span></span>`}
  ${page.older ? html`<a class="button secondary" rel="next" href="${listHref('/console/customers', query, { older: page.older })}">Next page →</a>` : ''}
</nav>`;
}

/** The part htmx replaces as the owner types: the count line, the table and the pager. */
export function listResults(c: ConsoleContext, view: ListView): Markup {
  const { page } = view;
  const summary =
    page.total !== null
      ? `${formatNumber(page.total)} ${page.total === 1 ? 'customer' : 'customers'}${view.query.cardId ? ' on this card' : ''}`
      : page.rows.length === 0
        ? ''
        : `${page.older || page.newer ? 'Matching customers' : `${page.rows.length} matching ${page.rows.length === 1 ? 'customer' : 'customers'}`}`;
  // The download sits with the results, so it always exports what they show, however htmx got them.
  return html`<div id="results" aria-live="polite">
  <div class="results-head">
    <p class="muted">${summary}${summary && page.rows.length && (page.older || page.newer) ? ', newest first' : ''}</p>
    ${page.rows.length ? html`<a class="button secondary" href="${listHref('/console/customers/export.csv', view.query)}" download>Download CSV</a>` : ''}
  </div>
  ${resultsTable(c, view)}
  ${pager(view)}
</div>`;
}

function testModeNote(c: ConsoleContext, used: number): Markup {
  if (c.livemode) return html``;
  const left = Math.max(0, TEST_CUSTOMER_LIMIT - used);
  return html`<div class="notice warn test-usage" role="status"><p><strong>${used} of ${TEST_CUSTOMER_LIMIT} test customers used</strong> (${left} left). Each test customer is removed 30 days after it was created; the last column says when.</p></div>`;
}

/** Customers → Import, beside the page's title. */
const importLink = () => html`<a class="button secondary" href="/console/customers/import">Import from CSV</a>`;

export function customersBody(c: ConsoleContext, view: ListView, testCustomers: number): Markup {
  const cardOptions = [...view.cards.values()].map((card) => ({ value: card.id, label: card.name }));
  return html`<div class="page-head"><h1>Customers</h1>${importLink()}</div>
${testModeNote(c, testCustomers)}
<form method="get" action="/console/customers" class="panel customer-search" role="search"
  hx-get="/console/customers" hx-target="#results" hx-swap="outerHTML" hx-push-url="true"
  hx-trigger="input changed delay:300ms from:#f-q, search from:#f-q, change from:#f-card, submit">
  <div class="field search-field">
    <label for="f-q">Search</label>
    <input id="f-q" name="q" type="search" value="${view.query.q}" maxlength="${MAX_QUERY_LENGTH}" autocomplete="off" aria-describedby="f-q-hint">
    <span class="hint" id="f-q-hint">Name, email, phone, external id or the code on the pass</span>
  </div>
  <div class="field card-field">
    <label for="f-card">Card</label>
    <select id="f-card" name="card">
      <option value="">All cards</option>
      ${cardOptions.map((o) => html`<option value="${o.value}"${o.value === view.query.cardId ? html` selected` : ''}>${o.label}</option>`)}
    </select>
  </div>
  <div class="actions"><button type="submit">Search</button>${view.query.q || view.query.cardId ? html`<a href="/console/customers">Clear</a>` : ''}</div>
</form>
${listResults(c, view)}`;
}
