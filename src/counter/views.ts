import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import type { OrgRow } from '../orgs/repo';
import { CSRF_FIELD } from '../web/csrf';
import { formError } from '../web/fields';
import { html, type Markup } from '../web/html';
import { clientTextsBlock } from './client-texts';
import type { CounterContext } from './session';

// The counter's two pages: the PIN screen, and the counter itself (find a customer on one side,
// the customer or the enroll form on the other), in the shop's language. The customer screen and
// the forms are fragments (panels.ts) the page's script asks for; everything is written by these
// escaping templates, and the script's own texts come in the page (client-texts.ts).

export const counterPath = (orgId: string) => `/counter/${encodeURIComponent(orgId)}`;

const PAD = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

export function pinPage(view: { org: OrgRow; lang: Lang; csrf: string; mode: 'live' | 'test'; error?: string }): Markup {
  const { lang } = view;
  const base = counterPath(view.org.id);
  return html`<main class="centered counter-lock" id="counter-lock" data-org="${view.org.id}">
<div class="box">
  <p class="muted counter-lock-org">${t(lang, 'counter.pin.where', { shop: view.org.name })}${view.mode === 'test' ? html` · <span class="mode-badge test">${t(lang, 'counter.testData')}</span>` : ''}</p>
  <h1>${t(lang, 'counter.pin.heading')}</h1>
  ${formError(view.error)}
  <p class="notice warn" id="queue-waiting" role="status" hidden></p>
  <form method="post" action="${base}/unlock" class="pin-form" id="pin-form">
    <input type="hidden" name="${CSRF_FIELD}" value="${view.csrf}">
    <input type="hidden" name="mode" value="${view.mode}">
    <div class="field">
      <label for="f-pin">${t(lang, 'counter.pin.label')}</label>
      <input id="f-pin" name="pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]*" minlength="4" maxlength="8" required autofocus>
      <button type="button" class="link small-button" data-pin-show data-show-text="${t(lang, 'counter.pin.show')}" data-hide-text="${t(lang, 'counter.pin.hide')}" aria-pressed="false" hidden>${t(lang, 'counter.pin.show')}</button>
    </div>
    <div class="pinpad" role="group" aria-label="${t(lang, 'counter.pin.pad')}">
      ${PAD.map((d) => html`<button type="button" class="secondary" data-digit="${d}">${d}</button>`)}
      <button type="button" class="secondary" data-pin-clear aria-label="${t(lang, 'counter.pin.clearLabel')}">${t(lang, 'counter.pin.clear')}</button>
      <button type="button" class="secondary" data-digit="0">0</button>
      <button type="button" class="secondary" data-pin-back aria-label="${t(lang, 'counter.pin.back')}">⌫</button>
    </div>
    <button type="submit" class="big">${t(lang, 'counter.pin.unlock')}</button>
  </form>
  <p class="small muted counter-lock-help">${t(lang, 'counter.pin.help')}</p>
</div>
</main>
${clientTextsBlock(lang)}`;
}

export interface CounterPageView {
  counter: CounterContext;
  livemode: boolean;
  wasmUrl: string;
  lockAfterMs: number;
  undoMinutes: number;
}

export function counterPage(view: CounterPageView): Markup {
  const { counter, livemode } = view;
  const lang = counter.settings.language;
  const base = counterPath(counter.org.id);
  const csrf = html`<input type="hidden" name="${CSRF_FIELD}" value="${counter.csrfToken}">`;
  return html`<header class="counter-bar">
  <div class="counter-bar-inner">
    <span class="brand">${counter.org.name}</span>
    <span class="mode-badge${livemode ? '' : ' test'}" id="mode-badge">${t(lang, livemode ? 'counter.liveData' : 'counter.testData')}</span>
    <span class="queue-badge" id="queue-badge" role="status" hidden></span>
    <span class="counter-staff" id="counter-staff"><span class="hide-narrow">${t(lang, 'counter.staff')} </span>${counter.staff.name}</span>
    <form method="post" action="${base}/lock" id="lock-form">${csrf}<button type="submit" class="button">${t(lang, 'counter.lock')}</button></form>
  </div>
</header>
${
  livemode
    ? ''
    : html`<div class="test-banner" role="note"><p><strong>${t(lang, 'counter.testBanner.title')}</strong> ${t(lang, 'counter.testBanner')}</p>
  <form method="post" action="${base}/mode">${csrf}<input type="hidden" name="mode" value="live"><button type="submit" class="button">${t(lang, 'counter.backToLive')}</button></form></div>`
}
<div class="counter-offline" id="counter-offline" role="status" hidden></div>
<main class="counter" id="counter"
  data-org="${counter.org.id}" data-mode="${livemode ? 'live' : 'test'}" data-csrf="${counter.csrfToken}"
  data-staff-id="${counter.staff.id}" data-staff-name="${counter.staff.name}"
  data-lock-ms="${view.lockAfterMs}" data-wasm="${view.wasmUrl}">
  <section class="counter-find panel" aria-labelledby="find-heading">
    <h1 id="find-heading">${t(lang, 'counter.find.heading')}</h1>
    <button type="button" class="big counter-scan" id="scan-camera">${t(lang, 'counter.find.camera')}</button>
    <p class="small muted" id="camera-note" role="status" hidden></p>
    <div class="camera" id="camera" hidden>
      <video id="camera-video" playsinline muted aria-label="${t(lang, 'counter.find.cameraView')}"></video>
      <button type="button" class="secondary" id="camera-stop">${t(lang, 'counter.find.cameraStop')}</button>
    </div>
    <form id="find-form" role="search" class="counter-search">
      <label for="f-find">${t(lang, 'counter.find.label')}</label>
      <div class="row"><input id="f-find" name="q" type="search" autocomplete="off" enterkeyhint="search" maxlength="200"><button type="submit">${t(lang, 'counter.find.button')}</button></div>
    </form>
    <p class="small muted">${t(lang, 'counter.find.scannerHint')}</p>
    <button type="button" class="secondary counter-new" id="enroll-open">${t(lang, 'counter.newCustomer')}</button>
    ${
      livemode
        ? html`<form method="post" action="${base}/mode" class="counter-practice">${csrf}<input type="hidden" name="mode" value="test"><button type="submit" class="link">${t(lang, 'counter.practise')}</button>
      <span class="small muted">${t(lang, 'counter.practise.hint')}</span></form>`
        : ''
    }
  </section>
  <section class="counter-view" id="counter-view" aria-label="${t(lang, 'counter.customerRegion')}" aria-live="polite">
    <div class="counter-message" id="counter-message"></div>
    <div id="counter-panel"><p class="empty">${t(lang, 'counter.empty')}<br>${t(lang, 'counter.empty.staff', { staff: counter.staff.name, minutes: view.undoMinutes })}</p></div>
  </section>
</main>
${clientTextsBlock(lang)}`;
}
