import { TEST_CUSTOMER_LIMIT } from '../../customers/test-mode';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { html, type Markup } from '../../web/html';
import { formatDay, formatMoney, formatNumber } from '../format';
import { sayMarkup } from '../say';
import { dailyBars, shareBar } from './charts';
import type { Breakdown, DashboardData, Totals, UnusualDay } from './service';

// The dashboard page: today, then the last 30 days (a bar per day for each figure), each by
// channel and by staff member, then the counter's unusual days. Figures the org's cards cannot
// produce (store credit without a gift card) are left out. Every text is in the admin's language.

interface Metric {
  key: keyof Totals;
  label: string;
  text: (value: number) => string;
}

function metricsOf(data: DashboardData, lang: ConsoleLang): Metric[] {
  const say = (key: ConsoleKey) => tConsole(lang, key);
  const units = (value: number) => formatNumber(value / 100, lang);
  const count = (value: number) => formatNumber(value, lang);
  const money = (v: number) => formatMoney(v, data.creditCurrency, lang);
  return [
    ...(data.units.includes('stamps') ? [{ key: 'stamps' as const, label: say('console.dashboard.stampsAwarded'), text: units }] : []),
    ...(data.units.includes('points') ? [{ key: 'points' as const, label: say('console.dashboard.pointsAwarded'), text: units }] : []),
    ...(data.units.includes('credit') ? [{ key: 'credit' as const, label: say('console.dashboard.creditAdded'), text: money }] : []),
    { key: 'rewards', label: say('console.dashboard.rewardsRedeemed'), text: count },
    { key: 'newCustomers', label: say('console.dashboard.newCustomers'), text: count },
    // Balances a CSV import brought in, apart from what was awarded: shown only in a month that had an import.
    ...(data.month.importedStamps ? [{ key: 'importedStamps' as const, label: say('console.dashboard.stampsImported'), text: units }] : []),
    ...(data.month.importedPoints ? [{ key: 'importedPoints' as const, label: say('console.dashboard.pointsImported'), text: units }] : []),
    ...(data.month.importedCredit ? [{ key: 'importedCredit' as const, label: say('console.dashboard.creditImported'), text: money }] : []),
  ];
}

const slug = (key: string) => key.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);

function figures(metrics: Metric[], totals: Totals, period: string): Markup {
  return html`<dl class="figures">
  ${metrics.map((m) => html`<div class="figure" id="${period}-${slug(m.key)}"><dt>${m.label}</dt><dd class="stat">${m.text(totals[m.key])}</dd></div>`)}
</dl>`;
}

function breakdownTable<K>(o: { title: string; column: string; id: string; rows: Breakdown<K>[]; metrics: Metric[]; empty: string }): Markup {
  const { title, id, rows, metrics } = o;
  if (rows.length === 0) return html`<div class="breakdown"><h3 id="${id}">${title}</h3><p class="muted">${o.empty}</p></div>`;
  const max = new Map(metrics.map((m) => [m.key, Math.max(0, ...rows.map((r) => r.totals[m.key]))]));
  return html`<div class="breakdown"><h3 id="${id}">${title}</h3>
<div class="table-wrap"><table class="stacked breakdown-table" aria-labelledby="${id}">
  <thead><tr><th scope="col">${o.column}</th>${metrics.map((m) => html`<th scope="col" class="num">${m.label}</th>`)}</tr></thead>
  <tbody>
  ${rows.map(
    (row) => html`<tr><th scope="row" data-label="">${row.label}</th>${metrics.map(
      (m) => html`<td class="num" data-label="${m.label}"><span class="cell-figure"><span class="n">${m.text(row.totals[m.key])}</span>${shareBar(row.totals[m.key], max.get(m.key)!)}</span></td>`,
    )}</tr>`,
  )}
  </tbody>
</table></div></div>`;
}

function breakdowns(data: DashboardData, metrics: Metric[], period: 'today' | 'month', lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey) => tConsole(lang, key);
  const staffMetrics = metrics.filter((m) => m.key !== 'newCustomers' && !m.key.startsWith('imported'));
  return html`<div class="breakdowns">
  ${breakdownTable({ title: say('console.dashboard.byChannel'), column: say('console.dashboard.channel'), id: `${period}-channel`, rows: data.byChannel[period], metrics, empty: '' })}
  ${breakdownTable({
    title: say('console.dashboard.byStaff'),
    column: say('console.dashboard.staffMember'),
    id: `${period}-staff`,
    rows: data.byStaff[period],
    metrics: staffMetrics,
    empty: say(period === 'today' ? 'console.dashboard.noStaffToday' : 'console.dashboard.noStaffMonth'),
  })}
</div>`;
}

function dailyPanels(data: DashboardData, metrics: Metric[], lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const day = (date: string) => formatDay(date, lang);
  return html`<div class="daily-charts">
  ${metrics.map((m) => {
    const values = data.daily.map((d) => d[m.key]);
    return html`<figure class="daily" id="month-${slug(m.key)}" aria-labelledby="month-${slug(m.key)}-caption">
    <figcaption id="month-${slug(m.key)}-caption"><span class="daily-label">${m.label}</span> <span class="daily-total">${m.text(data.month[m.key])}</span></figcaption>
    ${dailyBars({ label: m.label, values, dates: data.dates, text: m.text }, lang)}
    <p class="muted small chart-axis"><span>${day(data.dates[0]!)}</span><span>${say('console.dashboard.todayValue', { value: m.text(data.today[m.key]) })}</span></p>
  </figure>`;
  })}
</div>
<details class="per-day">
  <summary>${say('console.dashboard.perDay')}</summary>
  <div class="table-wrap"><table class="per-day-table">
    <caption class="visually-hidden">${say('console.dashboard.perDayCaption')}</caption>
    <thead><tr><th scope="col">${say('console.dashboard.day')}</th>${metrics.map((m) => html`<th scope="col" class="num">${m.label}</th>`)}</tr></thead>
    <tbody>${[...data.daily.keys()].reverse().map((i) => html`<tr><th scope="row" class="nowrap">${day(data.dates[i]!)}</th>${metrics.map((m) => html`<td class="num">${m.text(data.daily[i]![m.key])}</td>`)}</tr>`)}</tbody>
  </table></div>
</details>`;
}

function unusualPanel(data: DashboardData, lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const strong = (n: number) => html`<strong>${formatNumber(n, lang)}</strong>`;
  const staffRule = data.caps.staff !== null ? sayMarkup(lang, 'console.dashboard.ruleStaffCap', { cap: strong(data.caps.staff) }) : say('console.dashboard.ruleNoStaffCap');
  const customerRule =
    data.caps.customer !== null
      ? sayMarkup(lang, 'console.dashboard.ruleCustomerCap', { cap: strong(data.caps.customer) })
      : sayMarkup(lang, 'console.dashboard.ruleCustomerMark', { mark: strong(data.caps.customerMark) });
  const why = (f: UnusualDay) =>
    f.large
      ? f.large.staffName
        ? say('console.dashboard.whyLargeBy', { amount: f.large.amount, staff: f.large.staffName, above: f.large.above })
        : say('console.dashboard.whyLarge', { amount: f.large.amount, above: f.large.above })
      : f.limitKind === 'cap'
        ? say('console.dashboard.whyCap', { limit: f.limit })
        : say('console.dashboard.whyMark', { limit: f.limit });
  const row = (f: UnusualDay) => html`<tr>
    <td data-label="${say('console.dashboard.day')}" class="nowrap">${formatDay(f.date, lang)}</td>
    <td data-label="${say('console.dashboard.who')}">${
      f.kind === 'staff'
        ? html`<a href="/console/staff/${f.id}">${f.name}</a> <span class="muted small">(${say('console.dashboard.staffTag')})</span>`
        : html`<a href="/console/customers/${f.id}">${f.name}</a> <span class="muted small">(${say('console.dashboard.customerTag')})</span>`
    }</td>
    <td data-label="${say('console.dashboard.counterAwards')}" class="num">${formatNumber(f.awards, lang)}</td>
    <td data-label="${say('console.dashboard.why')}">${why(f)}</td>
  </tr>`;
  return html`<section class="panel" aria-labelledby="unusual-heading">
  <h2 id="unusual-heading">${say('console.dashboard.unusualTitle')}</h2>
  <p class="muted small">${sayMarkup(lang, 'console.dashboard.unusualRules', {
    staffRule,
    customerRule,
    settings: html`<a href="/console/settings#counter-settings">${say('console.nav.settings')}</a>`,
  })}</p>
  ${
    data.unusual.length
      ? html`<div class="table-wrap"><table class="stacked unusual-table"><caption class="visually-hidden">${say('console.dashboard.unusualCaption')}</caption>
  <thead><tr><th scope="col">${say('console.dashboard.day')}</th><th scope="col">${say('console.dashboard.who')}</th><th scope="col" class="num">${say('console.dashboard.counterAwards')}</th><th scope="col">${say('console.dashboard.why')}</th></tr></thead>
  <tbody>${data.unusual.map(row)}</tbody></table></div>`
      : html`<p class="notice ok" role="status">${say('console.dashboard.nothingUnusual')}</p>`
  }
</section>`;
}

/** `start`: panels shown first under the heading (the start checklist). */
export function dashboardBody(data: DashboardData, testCustomers: number | null, start: Markup | string = '', lang: ConsoleLang = 'en'): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const metrics = metricsOf(data, lang);
  const today = data.dates[data.dates.length - 1]!;
  return html`<div class="page-head"><h1>${say('console.dashboard.title')}</h1><p class="muted">${say('console.dashboard.todayIs', { day: formatDay(today, lang), timeZone: data.timeZone.replace(/_/g, ' ') })}</p></div>
${start}
${
  testCustomers !== null
    ? html`<div class="notice warn" role="status"><p><strong>${say('console.dashboard.testUsed', { used: testCustomers, limit: TEST_CUSTOMER_LIMIT })}</strong> ${say('console.dashboard.testOnly', { days: 30 })}</p></div>`
    : ''
}
<section class="panel" aria-labelledby="today-heading">
  <h2 id="today-heading">${say('console.dashboard.today')}</h2>
  ${figures(metrics, data.today, 'today')}
  ${breakdowns(data, metrics, 'today', lang)}
</section>
<section class="panel" aria-labelledby="month-heading">
  <h2 id="month-heading">${say('console.dashboard.last30')}</h2>
  ${dailyPanels(data, metrics, lang)}
  ${breakdowns(data, metrics, 'month', lang)}
</section>
${unusualPanel(data, lang)}`;
}
