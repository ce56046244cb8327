import { html, type Markup } from '../../web/html';

// The month's movements as a bar chart drawn on the server (inline SVG: no script, no library,
// nothing for the CSP to allow): one row per movement, increases to the right of the zero line
// and decreases to the left, each bar as long as its share of the largest. The numbers are in the
// table beside it; a screen reader gets the chart's title and a description listing every bar.
// Colours come from the style sheet through classes; sizes are presentation attributes.

export interface MovementBar {
  label: string;
  /** Signed, in any consistent unit (hundredths). */
  value: number;
  /** The value as the owner reads it: "+40 stamps". */
  text: string;
}

const WIDTH = 360;
const ROW = 28;
const BARS_FROM = 124;
const BARS_WIDTH = WIDTH - BARS_FROM - 8;

const round = (n: number) => Math.round(n * 100) / 100;

export function movementsChart(o: { id: string; title: string; bars: MovementBar[] }): Markup {
  const most = Math.max(0, ...o.bars.map((b) => b.value));
  const least = Math.min(0, ...o.bars.map((b) => b.value));
  const span = most - least;
  const zero = span === 0 ? BARS_FROM : BARS_FROM + (BARS_WIDTH * -least) / span;
  const height = o.bars.length * ROW + 4;
  const description = o.bars.map((b) => `${b.label}: ${b.text}`).join('; ');
  const rows = o.bars.map((b, i) => {
    const y = 2 + i * ROW;
    // A movement that happened is always visible, however small beside the largest.
    const length = span === 0 || b.value === 0 ? 0 : Math.max(2, (BARS_WIDTH * Math.abs(b.value)) / span);
    const x = b.value < 0 ? zero - length : zero;
    return html`<g class="movement">
    <text class="label" x="0" y="${y + ROW / 2 + 4}" font-size="13">${b.label}</text>
    <rect class="bar ${b.value < 0 ? 'out' : 'in'}" x="${round(x)}" y="${y + 5}" width="${round(length)}" height="${ROW - 10}"><title>${b.label}: ${b.text}</title></rect>
  </g>`;
  });
  return html`<svg class="movements-chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${o.id}-title ${o.id}-desc">
  <title id="${o.id}-title">${o.title}</title>
  <desc id="${o.id}-desc">${description}.</desc>
  <rect class="lane" x="${BARS_FROM}" y="0" width="${BARS_WIDTH}" height="${height}"></rect>
  ${rows}
  <rect class="axis" x="${round(zero - 0.5)}" y="0" width="1" height="${height}"></rect>
</svg>`;
}
