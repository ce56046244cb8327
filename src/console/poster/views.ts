import type { Card } from '../../cards/model';
import { rewardLine } from '../../cards/face';
import type { ConsoleLang, Lang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import { html, raw, type Markup } from '../../web/html';
import { consoleText, messageWith } from '../message-markup';
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
  /** The admin's language: the page around the poster. */
  lang: ConsoleLang;
  /** The shop's language: the poster itself, which customers read. */
  shopLang: Lang;
}

/** After printing, the owner ticks the checklist's step; only a poster phones can follow counts. */
function printedMark(view: PosterView): Markup {
  const { printed } = view;
  const m = consoleText(view.lang);
  if (printed.justNow) return html`<div class="notice ok" role="status"><p>${m('console.poster.printedNow')}</p></div>`;
  if (printed.done) return html`<p class="small muted">${m('console.poster.printedDone')}</p>`;
  if (!printed.possible) return html`<p class="small muted">${m('console.poster.printedLater')}</p>`;
  return html`<form method="post" action="/console/cards/${view.card.id}/poster/printed" class="row printed-mark">
    ${printed.form}<input type="hidden" name="size" value="${view.size}">
    <button type="submit" class="secondary">${m('console.poster.markPrinted')}</button>
    <span class="small muted">${m('console.poster.markPrintedHint')}</span>
  </form>`;
}


function tools(view: PosterView): Markup {
  const base = `/console/cards/${encodeURIComponent(view.card.id)}/poster`;
  const m = consoleText(view.lang);
  return html`<section class="panel no-print poster-tools" aria-labelledby="poster-tools-heading">
  <h2 id="poster-tools-heading" class="visually-hidden">${m('console.poster.tools')}</h2>
  <nav class="row" aria-label="${m('console.poster.paperSize')}">
    <span class="muted">${m('console.poster.paper')}</span>
    ${(Object.keys(PAPER_SIZES) as PaperSize[]).map(
      (size) => html`<a class="button secondary" href="${base}?size=${size}"${size === view.size ? html` aria-current="page"` : ''}>${PAPER_SIZES[size].label}</a>`,
    )}
  </nav>
  <p>${m('console.poster.print', { size: PAPER_SIZES[view.size].label })}</p>
  ${printedMark(view)}
  <div class="row">
    <a class="button secondary" href="${base}/qr.png" download>${m('console.poster.downloadPng')}</a>
    <a class="button secondary" href="${base}/qr.svg" download>${m('console.poster.downloadSvg')}</a>
  </div>
  ${qrAddressNote(view.link)}
  <p class="small">${messageWith(view.lang, 'console.poster.opens', 'link', html`<a href="${view.link}"><code>${view.link}</code></a>`)} ${
    view.livemode ? '' : html`<strong>${m('console.poster.liveSignups')}</strong>`
  }</p>
</section>`;
}

export function posterBody(view: PosterView): Markup {
  const { card } = view;
  const m = consoleText(view.lang);
  const head = html`<div class="page-head no-print"><h1>${m('console.poster.heading', { card: card.name })}</h1><a href="/console/cards">${m('console.poster.allCards')}</a></div>`;
  if (!view.qrSvg && card.archivedAt !== null) {
    return html`${head}
<div class="notice warn" role="status"><p><strong>${m('console.poster.archived', { card: card.name })}</strong> ${m('console.poster.archivedText')} ${messageWith(view.lang, 'console.poster.restoreText', 'link', html`<a href="/console/cards/${card.id}#card-status">${m('console.poster.restore')}</a>`)}</p></div>`;
  }
  if (!view.qrSvg) {
    return html`${head}
<div class="notice warn" role="status">
  <p><strong>${m('console.poster.signupOff')}</strong> ${m('console.poster.signupOffText')}</p>
  <p>${m('console.poster.turnOn', { card: card.name })}</p>
</div>`;
  }
  // The poster speaks to customers: the shop's language, like the sign-up page it leads to.
  const reward = rewardLine(card, view.shopLang);
  return html`${head}
<p class="muted no-print">${m('console.poster.intro', { card: card.name })}</p>
${tools(view)}
<article class="poster poster-${view.size}" aria-label="${m('console.poster.poster')}" lang="${view.shopLang}">
  <div class="poster-inner">
    ${view.logoUrl ? html`<img class="poster-logo" src="${view.logoUrl}" alt="${view.orgName}">` : ''}
    <p class="poster-org">${view.orgName}</p>
    <h2 class="${titleClass(card.name)}">${card.name}</h2>
    ${reward ? html`<p class="poster-reward${[...reward].length > 40 ? ' long' : ''}">${reward}</p>` : ''}
    <div class="poster-qr">${raw(view.qrSvg)}</div>
    <p class="poster-instructions">${t(view.shopLang, 'poster.instructions')}</p>
    <p class="poster-url">${view.link}</p>
  </div>
</article>`;
}
