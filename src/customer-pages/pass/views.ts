// The bodies of the public pages. Text only, escaped by `html`; routes decide which to send.
import type { Card } from '../../cards/model';
import type { Lang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import { parseColor } from '../../lib/colors';
import type { PassContent } from '../../wallet/pass-content';
import { openStreetMapUrl } from '../../lib/map-link';
import { html, raw, type Markup } from '../../web/html';

export function notFoundBody(lang: Lang): Markup {
  return html`<h1>${t(lang, 'common.cardNotFound.title')}</h1><p class="note">${t(lang, 'common.cardNotFound')}</p>`;
}

/** An install link or web pass of a customer whose data was erased at their request. */
export function removedCardBody(lang: Lang): Markup {
  return html`<h1>${t(lang, 'common.cardRemoved.heading')}</h1><p class="note">${t(lang, 'common.cardRemoved')}</p>`;
}

/** The card's public page: names the card only, never a customer. */
export function cardPublicBody(card: Card, lang: Lang): Markup {
  return html`<h1>${card.name}</h1>
<p>${t(lang, 'getpass.public.body')}</p>
<p class="note">${t(lang, 'getpass.public.note')}</p>`;
}

/** An archived card's public page: members keep their cards; nobody new joins. */
export function cardClosedBody(card: Card, lang: Lang): Markup {
  return html`<h1>${card.name}</h1>
<p>${t(lang, 'getpass.closed.body')}</p>
<p class="note">${t(lang, 'getpass.closed.note')}</p>`;
}

export interface InstallChoice {
  title: string;
  appleUrl?: string;
  googleUrl?: string;
  webPassUrl: string;
  /** What other features offer under the buttons (the sign-up's "Email me my card"). */
  more?: Markup;
  lang: Lang;
}

/**
 * The wallets this server offers, plus the web pass. Without any wallet the customer is told so in
 * plain words: which settings are missing is the operator's business (start-up log, README).
 */
export function installChoiceBody(choice: InstallChoice): Markup {
  const noWallet = !choice.appleUrl && !choice.googleUrl;
  const { lang } = choice;
  return html`<h1>${choice.title}</h1>
${choice.appleUrl ? html`<a class="button" href="${choice.appleUrl}">${t(lang, 'common.addApple')}</a>` : ''}
${choice.googleUrl ? html`<a class="button" href="${choice.googleUrl}">${t(lang, 'common.addGoogle')}</a>` : ''}
<a class="button secondary" href="${choice.webPassUrl}">${t(lang, 'getpass.browser')}</a>
${noWallet ? html`<p class="note">${t(lang, 'getpass.noWallet')}</p>` : ''}
${choice.more ?? ''}`;
}

/** Card colours as CSS variables; parseColor only ever yields rgb(r, g, b), safe inside CSS. */
export function cardCss(card: Card): string {
  const bg = card.design?.backgroundColor ? parseColor(card.design.backgroundColor).css : undefined;
  const fg = card.design?.foregroundColor ? parseColor(card.design.foregroundColor).css : undefined;
  const label = card.design?.labelColor ? parseColor(card.design.labelColor).css : undefined;
  // Labels take the card's label colour as the Apple pass does, at full strength.
  return (bg || fg ? `.card{${bg ? `--bg:${bg};` : ''}${fg ? `--fg:${fg};` : ''}}` : '') + (label ? `.card .label{color:${label};opacity:1}` : '');
}

/** A stamp card's stamps as a row of marks, filled as on a paper card. */
function stampMarks(stamps: PassContent['stamps'], lang: Lang): Markup {
  if (!stamps) return html``;
  return html`<div class="stamps" id="stamps" role="img" aria-label="${stampsLabel(stamps, lang)}">${Array.from(
    { length: stamps.of },
    (_, i) => html`<span class="stamp${i < stamps.have ? ' on' : ''}"></span>`,
  )}</div>`;
}

/** "3 of 10 stamps": what the row of stamp marks says to a screen reader. */
export function stampsLabel(stamps: NonNullable<PassContent['stamps']>, lang: Lang): string {
  return t(lang, 'webpass.stamps', { have: stamps.have, total: stamps.of });
}

/**
 * The web pass; `logoUrl` is the card's uploaded logo, when it has one. `note` replaces the line
 * under the card. `lang`: the page's, which the pass content is in too. The shop's latest message
 * to the customer is on top.
 */
export function webPassBody(content: PassContent, qr: string, logoUrl?: string, note?: Markup, lang: Lang = 'en'): Markup {
  return html`${passMessage(content)}<div class="card" id="pass-card">
  <div class="pass-top" id="pass-top"${logoUrl || content.logoText ? '' : html` hidden`}><img src="${logoUrl ?? ''}" id="pass-logo" alt=""${logoUrl ? '' : html` hidden`}><span class="logo-text" id="logo-text">${content.logoText ?? ''}</span></div>
  <div class="label" id="org-name">${content.organizationName}</div>
  <h1 id="title">${content.title}</h1>
  <div class="label" id="balance-label">${content.balance.label}</div>
  <div class="balance" id="balance">${content.balance.text}</div>
  ${stampMarks(content.stamps, lang)}
  <div class="details" id="details">${detailsMarkup(content)}</div>
  <div class="qr">${raw(qr)}<div class="code">${content.scanCode}</div></div>
</div>
${passLocations(content)}
${note ?? html`<p class="note">${t(lang, 'webpass.note')}</p>`}`;
}

/** The shop's latest message, above the card; the refresh shows a new one (webPassScript). */
function passMessage(content: PassContent): Markup {
  const m = content.message;
  return html`<section class="pass-message" id="pass-message" aria-live="polite" aria-labelledby="message-header"${m ? '' : html` hidden`}>
  <h2 id="message-header">${m?.header ?? ''}</h2><p id="message-body">${m?.body ?? ''}</p>
</section>`;
}

/** Where the shop is: each location's name, linked to OpenStreetMap with a marker on it. */
function passLocations(content: PassContent): Markup {
  if (content.locations.length === 0) return html``;
  const { lang } = content;
  return html`<section class="pass-locations" aria-labelledby="locations-heading"><h2 id="locations-heading">${t(lang, 'webpass.locations.heading')}</h2><ul>${content.locations.map(
    (l) => html`<li><a href="${openStreetMapUrl(l)}" target="_blank" rel="noopener noreferrer">${t(lang, 'webpass.locations.link', { name: l.name })}</a></li>`,
  )}</ul></section>`;
}

/** Under the customer's own web pass: how to keep it one tap away. */
export function keepPassNote(lang: Lang): Markup {
  return html`<p class="note">${t(lang, 'webpass.keep.note')}</p>
<details class="keep"><summary>${t(lang, 'webpass.keep.summary')}</summary>
<p class="note"><strong>iPhone (Safari):</strong> ${t(lang, 'webpass.keep.iphone')}<br><strong>Android (Chrome):</strong> ${t(lang, 'webpass.keep.android')}<br>${t(lang, 'webpass.keep.icon')}</p>
</details>`;
}

/** The card's look as the web pass's refresh applies it: colours as rgb() only, from the one parser. */
export function cardLook(card: Card, logoUrl: string | undefined) {
  const css = (text: string | undefined) => (text ? parseColor(text).css : null);
  return {
    colors: { background: css(card.design?.backgroundColor), foreground: css(card.design?.foregroundColor), label: css(card.design?.labelColor) },
    logoUrl: logoUrl ?? null,
    logoText: card.design?.logoText || null,
  };
}

function detailsMarkup(content: PassContent): Markup {
  return html`${content.details.map((d) => html`<div><div class="label">${d.label}</div><div data-key="${d.key}">${d.value}</div></div>`)}`;
}

/**
 * Refreshes the pass every 15 s from the JSON endpoint: the balance and details, the shop's latest
 * message, and the card's name, shop name, colours and logo, so an owner's change shows as a balance does. Writes text and
 * attributes only (textContent, src, CSSOM), so nothing the server sends is parsed as markup.
 */
export function webPassScript(balanceUrl: string): string {
  return `
(function () {
  var url = ${JSON.stringify(balanceUrl).replace(/</g, '\\u003c')};
  function byId(id) { return document.getElementById(id); }
  function set(id, text) { var el = byId(id); if (el && el.textContent !== text) el.textContent = text; }
  function look(data) {
    var card = byId('pass-card');
    var c = data.colors || {};
    if (c.background) card.style.setProperty('--bg', c.background); else card.style.removeProperty('--bg');
    if (c.foreground) card.style.setProperty('--fg', c.foreground); else card.style.removeProperty('--fg');
    Array.prototype.forEach.call(card.querySelectorAll('.label'), function (el) { el.style.color = c.label || ''; el.style.opacity = c.label ? '1' : ''; });
    var logo = byId('pass-logo');
    if (data.logoUrl) { if (logo.getAttribute('src') !== data.logoUrl) logo.setAttribute('src', data.logoUrl); logo.hidden = false; } else { logo.hidden = true; }
    set('logo-text', data.logoText || '');
    byId('pass-top').hidden = !data.logoUrl && !data.logoText;
    set('org-name', data.organizationName);
  }
  function stamps(data) {
    var row = byId('stamps');
    if (!row || !data.stamps) return;
    if (data.stamps.label) row.setAttribute('aria-label', data.stamps.label);
    var marks = row.children;
    for (var i = 0; i < marks.length; i++) marks[i].className = i < data.stamps.have ? 'stamp on' : 'stamp';
  }
  function message(m) {
    var box = byId('pass-message');
    if (!box) return;
    set('message-header', m ? m.header : '');
    set('message-body', m ? m.body : '');
    box.hidden = !m;
  }
  function refresh() {
    fetch(url, { cache: 'no-store' }).then(function (r) {
      // The card was removed meanwhile: the page says so once it is loaded again.
      if (r.status === 410) location.reload();
      return r.ok ? r.json() : null;
    }).then(function (data) {
      if (!data) return;
      set('title', data.title);
      if (document.title !== data.title) document.title = data.title;
      set('balance', data.balance.text);
      set('balance-label', data.balance.label);
      var box = byId('details');
      box.textContent = '';
      data.details.forEach(function (d) {
        var item = document.createElement('div');
        var label = document.createElement('div');
        label.className = 'label';
        label.textContent = d.label;
        var value = document.createElement('div');
        value.setAttribute('data-key', d.key);
        value.textContent = d.value;
        item.appendChild(label);
        item.appendChild(value);
        box.appendChild(item);
      });
      stamps(data);
      message(data.message);
      if (data.colors) look(data);
      document.body.setAttribute('data-refreshed', String(Date.now()));
    }).catch(function () {});
  }
  setInterval(refresh, 15000);
  document.addEventListener('visibilitychange', function () { if (!document.hidden) refresh(); });
})();
`;
}
