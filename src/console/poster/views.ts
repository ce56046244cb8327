import type { Card } from '../../cards/model';
import { rewardLine } from '../../signup/card-face';
import { html, raw, type Markup } from '../../web/html';
import { qrAddressNote } from '../public-address';

// The counter poster: on screen a preview with its tools, on paper only the poster, filling an A4
// or A6 page in the card's colours. Its type scales with the poster's width (container query
// units), so one layout serves both papers and the screen.

export const PAPER_SIZES = {
  a4: { label: 'A4', width: '210mm', height: '297mm' },
  a6: { label: 'A6', width: '105mm', height: '148mm' },
} as const;
export type PaperSize = keyof typeof PAPER_SIZES;

export const paperSize = (value: unknown): PaperSize => (value === 'a6' ? 'a6' : 'a4');

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
    <h2 class="poster-title${card.name.length > 28 ? ' long' : ''}">${card.name}</h2>
    ${reward ? html`<p class="poster-reward">${reward}</p>` : ''}
    <div class="poster-qr">${raw(view.qrSvg)}</div>
    <p class="poster-instructions">Scan with your phone's camera to get your loyalty card</p>
    <p class="poster-url">${view.link}</p>
  </div>
</article>`;
}
