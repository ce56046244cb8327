import type { Card } from '../../cards/model';
import { rewardLine } from '../../cards/face';
import { html, raw, type Markup } from '../../web/html';
import { qrAddressNote } from '../public-address';

// The counter poster: on screen a preview with its tools, on paper only the poster, filling an A4,
// A5 or A6 page in the card's colours. Its type scales with the poster's width (container query
// units), and the papers share one shape, so one layout serves every paper and the screen.

export const PAPER_SIZES = {
  a4: { label: 'A4', width: '210mm', height: '297mm' },
  a5: { label: 'A5', width: '148mm', height: '210mm' },
  a6: { label: 'A6', width: '105mm', height: '148mm' },
} as const;
export type PaperSize = keyof typeof PAPER_SIZES;

export const paperSize = (value: unknown): PaperSize => (value === 'a5' || value === 'a6' ? value : 'a4');

/**
 * The title's size by the name's length: a short name large on one line, a longer one smaller on
 * two (balanced), the longest (up to 100 characters) smaller still, so it always fits the sheet.
 */
export function titleClass(name: string): string {
  const length = [...name].length;
  return length > 48 ? 'poster-title longer' : length > 16 ? 'poster-title long' : 'poster-title';
}

/**
 * The page box for the chosen paper, and the poster filling it. Sizes in millimetres, not the
 * names: Chromium knows `A4` but not `A6` (it falls back to Letter). A hair under the paper's
 * height: a box exactly as tall as the page can round up and spill a blank second sheet.
 */
export function posterPrintCss(size: PaperSize): string {
  const paper = PAPER_SIZES[size];
  return `@page{size:${paper.width} ${paper.height};margin:0}@media print{.poster{width:${paper.width};height:calc(${paper.height} - 0.5mm)}}`;
}

export interface PosterView {
  card: Card;
  orgName: string;
  link: string;
  size: PaperSize;
  qrSvg: string | null;
  livemode: boolean;
  /** The card's uploaded logo, when it has one. */
  logoUrl?: string;
  /** The start checklist's "print the poster": whether it can be ticked here, and whether it is. */
  printed: { possible: boolean; done: boolean; justNow: boolean; form: Markup };
}

/** After printing, the owner ticks the checklist's step; only a poster phones can follow counts. */
function printedMark(view: PosterView): Markup {
  const { printed } = view;
  if (printed.justNow) return html`<div class="notice ok" role="status"><p>Marked as printed: the dashboard's start checklist ticks it.</p></div>`;
  if (printed.done) return html`<p class="small muted">✓ A poster is marked printed on the dashboard's start checklist.</p>`;
  if (!printed.possible) return html`<p class="small muted">Once the public address is set, print the poster and mark it printed here: the dashboard's start checklist ticks it then.</p>`;
  return html`<form method="post" action="/console/cards/${view.card.id}/poster/printed" class="row printed-mark">
    ${printed.form}<input type="hidden" name="size" value="${view.size}">
    <button type="submit" class="secondary">Printed — mark done</button>
    <span class="small muted">Ticks “Print the poster” on the dashboard's start checklist.</span>
  </form>`;
}


function tools(view: PosterView): Markup {
  const base = `/console/cards/${encodeURIComponent(view.card.id)}/poster`;
  return html`<section class="panel no-print poster-tools" aria-labelledby="poster-tools-heading">
  <h2 id="poster-tools-heading" class="visually-hidden">Print and download</h2>
  <nav class="row" aria-label="Paper size">
    <span class="muted">Paper:</span>
    ${(Object.keys(PAPER_SIZES) as PaperSize[]).map(
      (size) => html`<a class="button secondary" href="${base}?size=${size}"${size === view.size ? html` aria-current="page"` : ''}>${PAPER_SIZES[size].label}</a>`,
    )}
  </nav>
  <p>Print this page with your browser's Print command (Ctrl+P, or ⌘P on a Mac): only the poster is printed, on ${PAPER_SIZES[view.size].label} paper.</p>
  ${printedMark(view)}
  <div class="row">
    <a class="button secondary" href="${base}/qr.png" download>Download QR code (PNG)</a>
    <a class="button secondary" href="${base}/qr.svg" download>Download QR code (SVG)</a>
  </div>
  ${qrAddressNote(view.link)}
  <p class="small">The code opens <a href="${view.link}"><code>${view.link}</code></a>. ${
    view.livemode ? '' : html`<strong>Customers who sign up there are real (live) customers</strong>, even while you look at test data here.`
  }</p>
</section>`;
}

export function posterBody(view: PosterView): Markup {
  const { card } = view;
  const head = html`<div class="page-head no-print"><h1>Counter poster: ${card.name}</h1><a href="/console/cards">All cards</a></div>`;
  if (!view.qrSvg && card.archivedAt !== null) {
    return html`${head}
<div class="notice warn" role="status"><p><strong>${card.name} is archived.</strong> It takes no new members, so there is no poster to print. <a href="/console/cards/${card.id}#card-status">Restore it</a> to print one again.</p></div>`;
  }
  if (!view.qrSvg) {
    return html`${head}
<div class="notice warn" role="status">
  <p><strong>Online sign-up is off for this card.</strong> Without data collection the card has no sign-up form: its link tells customers to ask at the counter, so there is nothing for a poster to lead to.</p>
  <p>Turn on data collection for ${card.name} in its card settings, then come back here to print the poster.</p>
</div>`;
  }
  const reward = rewardLine(card);
  return html`${head}
<p class="muted no-print">Put it by the till: customers scan the code with their phone and join ${card.name} by themselves, in a minute.</p>
${tools(view)}
<article class="poster poster-${view.size}" aria-label="Poster">
  <div class="poster-inner">
    ${view.logoUrl ? html`<img class="poster-logo" src="${view.logoUrl}" alt="${view.orgName}">` : ''}
    <p class="poster-org">${view.orgName}</p>
    <h2 class="${titleClass(card.name)}">${card.name}</h2>
    ${reward ? html`<p class="poster-reward${[...reward].length > 40 ? ' long' : ''}">${reward}</p>` : ''}
    <div class="poster-qr">${raw(view.qrSvg)}</div>
    <p class="poster-instructions">Scan with your phone's camera to get your loyalty card</p>
    <p class="poster-url">${view.link}</p>
  </div>
</article>`;
}
