// The bodies of the public pages. Text only, escaped by `html`; routes decide which to send.
import type { Card } from '../../cards/model';
import { parseColor } from '../../lib/colors';
import type { PassContent } from '../../wallet/pass-content';
import { html, raw, type Markup } from '../../web/html';

export function notFoundBody(): Markup {
  return html`<h1>Card not found</h1><p class="note">This link does not lead to a loyalty card. Please check it, or ask at the counter.</p>`;
}

/** An install link or web pass of a customer whose data was erased at their request. */
export function removedCardBody(): Markup {
  return html`<h1>This card was removed</h1><p class="note">The shop deleted this loyalty card and the details that went with it. If you want a card again, please ask at the counter.</p>`;
}

/** The card's public page: names the card only, never a customer. */
export function cardPublicBody(card: Card): Markup {
  return html`<h1>${card.name}</h1>
<p>To join, please ask at the counter: the staff will add you and give you a personal link to your card.</p>
<p class="note">Online sign-up for this card is not open yet.</p>`;
}

/** An archived card's public page: members keep their cards; nobody new joins. */
export function cardClosedBody(card: Card): Markup {
  return html`<h1>${card.name}</h1>
<p>This card no longer takes new members. If you already have it, it keeps working as before.</p>
<p class="note">Please ask at the counter about the shop's current loyalty card.</p>`;
}

export interface InstallChoice {
  title: string;
  appleUrl?: string;
  googleUrl?: string;
  webPassUrl: string;
  /** What other features offer under the buttons (the sign-up's "Email me my card"). */
  more?: Markup;
}

/**
 * The wallets this server offers, plus the web pass. Without any wallet the customer is told so in
 * plain words: which settings are missing is the operator's business (start-up log, README).
 */
export function installChoiceBody(choice: InstallChoice): Markup {
  const noWallet = !choice.appleUrl && !choice.googleUrl;
  return html`<h1>${choice.title}</h1>
${choice.appleUrl ? html`<a class="button" href="${choice.appleUrl}">Add to Apple Wallet</a>` : ''}
${choice.googleUrl ? html`<a class="button" href="${choice.googleUrl}">Add to Google Wallet</a>` : ''}
<a class="button secondary" href="${choice.webPassUrl}">Show my card in the browser</a>
${
  noWallet
    ? html`<p class="note">Adding this card to Apple Wallet or Google Wallet is not available yet. Your card works in the browser: open it and show its code at the counter.</p>`
    : ''
}
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
function stampMarks(stamps: PassContent['stamps']): Markup {
  if (!stamps) return html``;
  return html`<div class="stamps" id="stamps" role="img" aria-label="${stamps.have} of ${stamps.of} stamps">${Array.from(
    { length: stamps.of },
    (_, i) => html`<span class="stamp${i < stamps.have ? ' on' : ''}"></span>`,
  )}</div>`;
}

/** The web pass; `logoUrl` is the card's uploaded logo, when it has one. `note` replaces the line under the card. */
export function webPassBody(content: PassContent, qr: string, logoUrl?: string, note?: Markup): Markup {
  return html`<div class="card" id="pass-card">
  <div class="pass-top" id="pass-top"${logoUrl || content.logoText ? '' : html` hidden`}><img src="${logoUrl ?? ''}" id="pass-logo" alt=""${logoUrl ? '' : html` hidden`}><span class="logo-text" id="logo-text">${content.logoText ?? ''}</span></div>
  <div class="label" id="org-name">${content.organizationName}</div>
  <h1 id="title">${content.title}</h1>
  <div class="label" id="balance-label">${content.balance.label}</div>
  <div class="balance" id="balance">${content.balance.text}</div>
  ${stampMarks(content.stamps)}
  <div class="details" id="details">${detailsMarkup(content)}</div>
  <div class="qr">${raw(qr)}<div class="code">${content.scanCode}</div></div>
</div>
${note ?? html`<p class="note">Show this code at the counter. The balance refreshes by itself.</p>`}`;
}

/** Under the customer's own web pass: how to keep it one tap away. */
export function keepPassNote(): Markup {
  return html`<p class="note">Show this code at the counter. Your card refreshes by itself.</p>
<details class="keep"><summary>Keep this card on your phone</summary>
<p class="note"><strong>iPhone (Safari):</strong> tap the Share button, then “Add to Home Screen”.<br><strong>Android (Chrome):</strong> tap ⋮, then “Add to Home screen” or “Install app”.<br>The card then opens from its icon, like an app.</p>
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
 * Refreshes the pass every 15 s from the JSON endpoint: the balance and details, and the card's
 * name, shop name, colours and logo, so an owner's change shows as a balance does. Writes text and
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
    row.setAttribute('aria-label', data.stamps.have + ' of ' + data.stamps.of + ' stamps');
    var marks = row.children;
    for (var i = 0; i < marks.length; i++) marks[i].className = i < data.stamps.have ? 'stamp on' : 'stamp';
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
      if (data.colors) look(data);
      document.body.setAttribute('data-refreshed', String(Date.now()));
    }).catch(function () {});
  }
  setInterval(refresh, 15000);
  document.addEventListener('visibilitychange', function () { if (!document.hidden) refresh(); });
})();
`;
}
