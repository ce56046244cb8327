import type { WatchList, FlaggedDay } from '../../watchlist/service';
import { html, type Markup } from '../../web/html';
import { channelLabel, customerLabel, formatChange, formatDay, formatNumber } from '../format';
import { when } from '../widgets';

// The watch list page: one panel per customer and day, its awards in a table (time, channel, staff
// member, amount), newest day first. Words for a shop owner: who was awarded how often, and where
// to change the number.

function customerName(day: FlaggedDay): Markup {
  if (day.customer.erasedAt !== null) return html`<span>Customer whose data was deleted</span>`;
  return html`<a href="/console/customers/${day.customer.id}">${customerLabel(day.customer)}</a>`;
}

function flaggedPanel(day: FlaggedDay, timeZone: string, index: number): Markup {
  const id = `flag-${index}`;
  return html`<section class="panel watch-day" aria-labelledby="${id}">
  <h2 id="${id}">${customerName(day)} <span class="muted">· ${formatDay(day.date)}</span></h2>
  <p class="muted small">${formatNumber(day.awards.length)} awards on ${day.card.name}, which flags more than ${formatNumber(day.limit)} a day.</p>
  <div class="table-wrap"><table class="stacked watch-awards">
    <caption class="visually-hidden">Awards to ${day.customer.erasedAt !== null ? 'this customer' : customerLabel(day.customer)} on ${formatDay(day.date)}</caption>
    <thead><tr><th scope="col">Time</th><th scope="col">Channel</th><th scope="col">Staff member</th><th scope="col" class="num">Award</th></tr></thead>
    <tbody>${day.awards.map(
      (a) => html`<tr>
      <td data-label="Time" class="nowrap">${when(a.createdAt, timeZone)}</td>
      <td data-label="Channel">${channelLabel(a.source)}</td>
      <td data-label="Staff member">${a.staffName ?? html`<span class="muted">—</span>`}</td>
      <td data-label="Award" class="num nowrap">${formatChange(day.card, a.change)}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>`;
}

export function watchListBody(list: WatchList): Markup {
  const customers = new Set(list.flagged.map((f) => f.customer.id)).size;
  return html`<div class="page-head"><h1>Watch list</h1></div>
<p class="muted">Customers awarded more often in one day than their card allows before it flags them (6 unless you set another number in the card's settings), through any channel. Nothing is blocked: look at the awards and decide. Last 30 days, from ${formatDay(list.since)} to today, ${formatDay(list.today)}; times in ${list.timeZone.replace(/_/g, ' ')}. An award undone at the counter does not count.</p>
${
  list.flagged.length
    ? html`<p role="status"><strong>${formatNumber(list.flagged.length)} ${list.flagged.length === 1 ? 'day' : 'days'}</strong> of ${formatNumber(customers)} ${customers === 1 ? 'customer' : 'customers'} on the list.</p>
${list.flagged.map((day, i) => flaggedPanel(day, list.timeZone, i))}`
    : html`<p class="notice ok" role="status">Nobody was awarded more often in one day than their card allows in the last 30 days.</p>`
}`;
}

/** The dashboard's line: today's count, and the way to the list. */
export function watchListSummary(count: number): Markup {
  return count > 0
    ? html`<div class="notice warn watch-summary" role="status"><p><strong>${formatNumber(count)} ${count === 1 ? 'customer' : 'customers'}</strong> awarded more often today than their card allows. <a href="/console/watch-list">See the watch list</a></p></div>`
    : html`<p class="muted small watch-summary">Watch list: nobody awarded more often today than their card allows. <a href="/console/watch-list">See the watch list</a></p>`;
}
