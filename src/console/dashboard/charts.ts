import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { html, type Markup } from '../../web/html';
import { formatDay } from '../format';

// Small charts drawn on the server as SVG: no script, no library, nothing for the CSP to allow.
// Colours come from the style sheet through classes (the CSP has no 'unsafe-inline', so no style
// attributes); sizes are presentation attributes. Every chart has its numbers in text beside it.

const WIDTH = 300;
const HEIGHT = 64;
const SLOT = WIDTH / 30;

const round = (n: number) => Math.round(n * 100) / 100;

export interface DailySeries {
  /** "Stamps awarded" — what one bar counts. */
  label: string;
  /** One value per local day, oldest first; the last is today. */
  values: number[];
  dates: string[];
  /** A value as the owner reads it ("12 stamps", "€40.00"). */
  text: (value: number) => string;
}

/** The description a screen reader gives the chart (the numbers are also printed beside it). */
export function seriesSummary(s: DailySeries, lang: ConsoleLang = 'en'): string {
  const total = s.values.reduce((a, b) => a + b, 0);
  const best = s.values.reduce((bi, v, i) => (v > s.values[bi]! ? i : bi), 0);
  const params = { label: s.label, days: s.values.length, total: s.text(total), today: s.text(s.values[s.values.length - 1]!) };
  return s.values[best]! > 0
    ? tConsole(lang, 'console.chart.summaryBest', { bestDay: formatDay(s.dates[best]!, lang), best: s.text(s.values[best]!), ...params })
    : tConsole(lang, 'console.chart.summary', params);
}

/** One bar per day, today's marked; each bar names its day and value on hover. */
export function dailyBars(s: DailySeries, lang: ConsoleLang = 'en'): Markup {
  const max = Math.max(0, ...s.values);
  const slot = WIDTH / s.values.length || SLOT;
  const bars = s.values.map((value, i) => {
    // A day with activity is always visible, however small beside the busiest.
    const h = max === 0 || value <= 0 ? 0 : Math.max(2, (value / max) * (HEIGHT - 2));
    const today = i === s.values.length - 1;
    return html`<rect class="bar${today ? ' today' : ''}" x="${round(i * slot + slot * 0.1)}" y="${round(HEIGHT - 1 - h)}" width="${round(slot * 0.8)}" height="${round(h)}"><title>${tConsole(lang, today ? 'console.chart.barToday' : 'console.chart.bar', { day: formatDay(s.dates[i]!, lang), value: s.text(value) })}</title></rect>`;
  });
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${seriesSummary(s, lang)}">
  <rect class="axis" x="0" y="${HEIGHT - 1}" width="${WIDTH}" height="1"></rect>
  ${bars}
</svg>`;
}

/** A bar for one cell of a breakdown table: its length is the value's share of the column's largest. Decoration only: the number stands beside it. */
export function shareBar(value: number, max: number): Markup {
  const width = max > 0 && value > 0 ? Math.max(2, (value / max) * 100) : 0;
  return html`<svg class="share" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="track" width="100" height="6"></rect><rect class="bar" width="${round(width)}" height="6"></rect></svg>`;
}
