import { DEFAULT_FLAG_AWARDS_PER_DAY } from '../../cards/model';
import { formatUnits } from '../../i18n/format';
import { localeOf, type ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import type { WatchList, FlaggedDay } from '../../watchlist/service';
import { html, type Markup } from '../../web/html';
import { currencyOf } from '../format';
import { when } from '../widgets';

// The watch list page: one panel per customer and day, its awards in a table (time, channel, staff
// member, amount), newest day first. Words for a shop owner, in the admin's language: who was
// awarded how often, and where to change the number.

const dayFormats = new Map<ConsoleLang, Intl.DateTimeFormat>();

/** A shop-calendar date (`2026-03-20`) as "Fri 20 Mar", "Fr., 20. März". */
function dayText(lang: ConsoleLang, date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  let f = dayFormats.get(lang);
  if (!f) dayFormats.set(lang, (f = new Intl.DateTimeFormat(localeOf(lang), { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' })));
  return f.format(Date.UTC(y, m - 1, d));
}

/** How the list names a customer: the name, else what else tells them apart. */
const customerText = (lang: ConsoleLang, c: FlaggedDay['customer']) => c.name ?? c.externalId ?? c.email ?? c.phone ?? tConsole(lang, 'console.watchList.noName');

/** "+1 stamp", "+2 Punkte", "+€5.00": an award in the card's units. */
function awardText(lang: ConsoleLang, day: FlaggedDay, hundredths: number): string {
  const text = formatUnits(lang, day.card, Math.abs(hundredths), currencyOf(day.card));
  return hundredths > 0 ? `+${text}` : hundredths < 0 ? `−${text}` : text;
}

function customerName(lang: ConsoleLang, day: FlaggedDay): Markup {
  if (day.customer.erasedAt !== null) return html`<span>${tConsole(lang, 'console.watchList.deletedCustomer')}</span>`;
  return html`<a href="/console/customers/${day.customer.id}">${customerText(lang, day.customer)}</a>`;
}

function flaggedPanel(lang: ConsoleLang, day: FlaggedDay, timeZone: string, index: number): Markup {
  const id = `flag-${index}`;
  const date = dayText(lang, day.date);
  const caption =
    day.customer.erasedAt !== null ? tConsole(lang, 'console.watchList.captionDeleted', { day: date }) : tConsole(lang, 'console.watchList.caption', { customer: customerText(lang, day.customer), day: date });
  const heads = {
    time: tConsole(lang, 'console.watchList.column.time'),
    channel: tConsole(lang, 'console.watchList.column.channel'),
    staff: tConsole(lang, 'console.watchList.column.staff'),
    award: tConsole(lang, 'console.watchList.column.award'),
  };
  return html`<section class="panel watch-day" aria-labelledby="${id}">
  <h2 id="${id}">${customerName(lang, day)} <span class="muted">· ${date}</span></h2>
  <p class="muted small">${tConsole(lang, 'console.watchList.dayNote', { count: day.awards.length, card: day.card.name, limit: day.limit })}</p>
  <div class="table-wrap"><table class="stacked watch-awards">
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr><th scope="col">${heads.time}</th><th scope="col">${heads.channel}</th><th scope="col">${heads.staff}</th><th scope="col" class="num">${heads.award}</th></tr></thead>
    <tbody>${day.awards.map(
      (a) => html`<tr>
      <td data-label="${heads.time}" class="nowrap">${when(a.createdAt, timeZone)}</td>
      <td data-label="${heads.channel}">${tConsole(lang, 'console.watchList.channel', { channel: a.source })}</td>
      <td data-label="${heads.staff}">${a.staffName ?? html`<span class="muted">—</span>`}</td>
      <td data-label="${heads.award}" class="num nowrap">${awardText(lang, day, a.change)}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>`;
}

export function watchListBody(lang: ConsoleLang, list: WatchList): Markup {
  const customers = new Set(list.flagged.map((f) => f.customer.id)).size;
  const intro = tConsole(lang, 'console.watchList.intro', {
    standard: DEFAULT_FLAG_AWARDS_PER_DAY,
    since: dayText(lang, list.since),
    today: dayText(lang, list.today),
    timeZone: list.timeZone.replace(/_/g, ' '),
  });
  return html`<div class="page-head"><h1>${tConsole(lang, 'console.watchList.title')}</h1></div>
<p class="muted">${intro}</p>
${
  list.flagged.length
    ? html`<p role="status"><strong>${tConsole(lang, 'console.watchList.summary', { days: list.flagged.length, customers })}</strong></p>
${list.flagged.map((day, i) => flaggedPanel(lang, day, list.timeZone, i))}`
    : html`<p class="notice ok" role="status">${tConsole(lang, 'console.watchList.nobody')}</p>`
}`;
}

/** The dashboard's line: today's count, and the way to the list. */
export function watchListSummary(lang: ConsoleLang, count: number): Markup {
  const link = html`<a href="/console/watch-list">${tConsole(lang, 'console.watchList.seeList')}</a>`;
  return count > 0
    ? html`<div class="notice warn watch-summary" role="status"><p><strong>${tConsole(lang, 'console.watchList.today', { count })}</strong> ${link}</p></div>`
    : html`<p class="muted small watch-summary">${tConsole(lang, 'console.watchList.todayNone')} ${link}</p>`;
}
