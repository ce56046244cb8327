import { TEST_CUSTOMER_LIMIT } from '../../customers/test-mode';
import { html, type Markup } from '../../web/html';
import { formatDay, formatMoney, formatNumber } from '../format';
import { dailyBars, shareBar } from './charts';
import type { Breakdown, DashboardData, Totals, UnusualDay } from './service';

// The dashboard page: today, then the last 30 days (a bar per day for each figure), each by
// channel and by staff member, then the counter's unusual days. Figures the org's cards cannot
// produce (store credit without a gift card) are left out.

interface Metric {
  key: keyof Totals;
  label: string;
  text: (value: number) => string;
}

function metricsOf(data: DashboardData): Metric[] {
  const units = (value: number) => formatNumber(value / 100);
  return [
    ...(data.units.includes('stamps') ? [{ key: 'stamps' as const, label: 'Stamps awarded', text: units }] : []),
    ...(data.units.includes('points') ? [{ key: 'points' as const, label: 'Points awarded', text: units }] : []),
    ...(data.units.includes('credit') ? [{ key: 'credit' as const, label: 'Store credit added', text: (v: number) => formatMoney(v, data.creditCurrency) }] : []),
    { key: 'rewards', label: 'Rewards redeemed', text: formatNumber },
    { key: 'newCustomers', label: 'New customers', text: formatNumber },
    ...importedMetrics(data, units),
  ];
}

/** Balances a CSV import brought in, apart from what was awarded: shown only in a month that had an import. */
function importedMetrics(data: DashboardData, units: (value: number) => string): Metric[] {
  return [
    ...(data.month.importedStamps ? [{ key: 'importedStamps' as const, label: 'Stamps imported', text: units }] : []),
    ...(data.month.importedPoints ? [{ key: 'importedPoints' as const, label: 'Points imported', text: units }] : []),
    ...(data.month.importedCredit ? [{ key: 'importedCredit' as const, label: 'Store credit imported', text: (v: number) => formatMoney(v, data.creditCurrency) }] : []),
  ];
}

const slug = (key: string) => key.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);

function figures(metrics: Metric[], totals: Totals, period: string): Markup {
  return html`<dl class="figures">
  ${metrics.map((m) => html`<div class="figure" id="${period}-${slug(m.key)}"><dt>${m.label}</dt><dd class="stat">${m.text(totals[m.key])}</dd></div>`)}
</dl>`;
}

function breakdownTable<K>(title: string, id: string, rows: Breakdown<K>[], metrics: Metric[], empty: string): Markup {
  if (rows.length === 0) return html`<div class="breakdown"><h3 id="${id}">${title}</h3><p class="muted">${empty}</p></div>`;
  const max = new Map(metrics.map((m) => [m.key, Math.max(0, ...rows.map((r) => r.totals[m.key]))]));
  return html`<div class="breakdown"><h3 id="${id}">${title}</h3>
<div class="table-wrap"><table class="stacked breakdown-table" aria-labelledby="${id}">
  <thead><tr><th scope="col">${title.replace(/^By /, '').replace(/^./, (ch) => ch.toUpperCase())}</th>${metrics.map((m) => html`<th scope="col" class="num">${m.label}</th>`)}</tr></thead>
  <tbody>
  ${rows.map(
    (row) => html`<tr><th scope="row" data-label="">${row.label}</th>${metrics.map(
      (m) => html`<td class="num" data-label="${m.label}"><span class="cell-figure"><span class="n">${m.text(row.totals[m.key])}</span>${shareBar(row.totals[m.key], max.get(m.key)!)}</span></td>`,
    )}</tr>`,
  )}
  </tbody>
</table></div></div>`;
}

function breakdowns(data: DashboardData, metrics: Metric[], period: 'today' | 'month'): Markup {
  const staffMetrics = metrics.filter((m) => m.key !== 'newCustomers' && !m.key.startsWith('imported'));
  const when = period === 'today' ? 'today' : 'in the last 30 days';
  return html`<div class="breakdowns">
  ${breakdownTable('By channel', `${period}-channel`, data.byChannel[period], metrics, '')}
  ${breakdownTable('By staff member', `${period}-staff`, data.byStaff[period], staffMetrics, `No staff member awarded or redeemed anything at the counter ${when}.`)}
</div>`;
}

function dailyPanels(data: DashboardData, metrics: Metric[]): Markup {
  return html`<div class="daily-charts">
  ${metrics.map((m) => {
    const values = data.daily.map((d) => d[m.key]);
    return html`<figure class="daily" id="month-${slug(m.key)}" aria-labelledby="month-${slug(m.key)}-caption">
    <figcaption id="month-${slug(m.key)}-caption"><span class="daily-label">${m.label}</span> <span class="daily-total">${m.text(data.month[m.key])}</span></figcaption>
    ${dailyBars({ label: m.label, values, dates: data.dates, text: m.text })}
    <p class="muted small chart-axis"><span>${formatDay(data.dates[0]!)}</span><span>Today: ${m.text(data.today[m.key])}</span></p>
  </figure>`;
  })}
</div>
<details class="per-day">
  <summary>The numbers per day</summary>
  <div class="table-wrap"><table class="per-day-table">
    <caption class="visually-hidden">Per day, newest first</caption>
    <thead><tr><th scope="col">Day</th>${metrics.map((m) => html`<th scope="col" class="num">${m.label}</th>`)}</tr></thead>
    <tbody>${[...data.daily.keys()].reverse().map((i) => html`<tr><th scope="row" class="nowrap">${formatDay(data.dates[i]!)}</th>${metrics.map((m) => html`<td class="num">${m.text(data.daily[i]![m.key])}</td>`)}</tr>`)}</tbody>
  </table></div>
</details>`;
}

function unusualPanel(data: DashboardData): Markup {
  const staffRule = data.caps.staff !== null ? html`a staff member who reached the daily cap of <strong>${data.caps.staff}</strong> counter awards` : html`no staff member (no daily cap for staff is set)`;
  const customerRule =
    data.caps.customer !== null
      ? html`a customer who reached the daily cap of <strong>${data.caps.customer}</strong> counter awards`
      : html`a customer who got <strong>${data.caps.customerMark}</strong> or more counter awards in one day`;
  const row = (f: UnusualDay) => html`<tr>
    <td data-label="Day" class="nowrap">${formatDay(f.date)}</td>
    <td data-label="Who">${f.kind === 'staff' ? html`<a href="/console/staff/${f.id}">${f.name}</a> <span class="muted small">(staff)</span>` : html`<a href="/console/customers/${f.id}">${f.name}</a> <span class="muted small">(customer)</span>`}</td>
    <td data-label="Counter awards" class="num">${formatNumber(f.awards)}</td>
    <td data-label="Why">${
      f.large
        ? `One award of ${f.large.amount}${f.large.staffName ? ` by ${f.large.staffName}` : ''}: more than ${f.large.above}`
        : f.limitKind === 'cap'
          ? `Reached the daily cap of ${f.limit}`
          : `${f.limit} or more in one day`
    }</td>
  </tr>`;
  return html`<section class="panel" aria-labelledby="unusual-heading">
  <h2 id="unusual-heading">Unusual days at the counter</h2>
  <p class="muted small">Flagged in the last 30 days: ${staffRule}, ${customerRule}, and every single award larger than the size staff must confirm. Set the caps and sizes in <a href="/console/settings#counter-settings">Settings</a>.</p>
  ${
    data.unusual.length
      ? html`<div class="table-wrap"><table class="stacked unusual-table"><caption class="visually-hidden">Unusual days, newest first</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Who</th><th scope="col" class="num">Counter awards</th><th scope="col">Why</th></tr></thead>
  <tbody>${data.unusual.map(row)}</tbody></table></div>`
      : html`<p class="notice ok" role="status">Nothing unusual in the last 30 days.</p>`
  }
</section>`;
}

/** `start`: panels shown first under the heading (the start checklist). */
export function dashboardBody(data: DashboardData, testCustomers: number | null, start: Markup | string = ''): Markup {
  const metrics = metricsOf(data);
  const today = data.dates[data.dates.length - 1]!;
  return html`<div class="page-head"><h1>Dashboard</h1><p class="muted">Today is ${formatDay(today)} · times in ${data.timeZone.replace(/_/g, ' ')}</p></div>
${start}
${
  testCustomers !== null
    ? html`<div class="notice warn" role="status"><p><strong>${testCustomers} of ${TEST_CUSTOMER_LIMIT} test customers used.</strong> These figures count test data only; each test customer is removed 30 days after it was created.</p></div>`
    : ''
}
<section class="panel" aria-labelledby="today-heading">
  <h2 id="today-heading">Today</h2>
  ${figures(metrics, data.today, 'today')}
  ${breakdowns(data, metrics, 'today')}
</section>
<section class="panel" aria-labelledby="month-heading">
  <h2 id="month-heading">Last 30 days</h2>
  ${dailyPanels(data, metrics)}
  ${breakdowns(data, metrics, 'month')}
</section>
${unusualPanel(data)}`;
}
