import type { OrgRow } from '../orgs/repo';
import { CSRF_FIELD } from '../web/csrf';
import { formError } from '../web/fields';
import { html, type Markup } from '../web/html';
import type { CounterContext } from './session';

// The counter's two pages: the PIN screen, and the counter itself (find a customer on one side,
// the customer or the enroll form on the other). The customer screen and the forms are fragments
// (panels.ts) the page's script asks for; everything is written by these escaping templates.

export const counterPath = (orgId: string) => `/counter/${encodeURIComponent(orgId)}`;

const PAD = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

export function pinPage(view: { org: OrgRow; csrf: string; mode: 'live' | 'test'; error?: string }): Markup {
  const base = counterPath(view.org.id);
  return html`<main class="centered counter-lock" id="counter-lock" data-org="${view.org.id}">
<div class="box">
  <p class="muted counter-lock-org">${view.org.name} · Counter${view.mode === 'test' ? html` · <span class="mode-badge test">TEST DATA</span>` : ''}</p>
  <h1>Enter your PIN</h1>
  ${formError(view.error)}
  <p class="notice warn" id="queue-waiting" role="status" hidden></p>
  <form method="post" action="${base}/unlock" class="pin-form" id="pin-form">
    <input type="hidden" name="${CSRF_FIELD}" value="${view.csrf}">
    <input type="hidden" name="mode" value="${view.mode}">
    <div class="field">
      <label for="f-pin">PIN</label>
      <input id="f-pin" name="pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]*" minlength="4" maxlength="8" required autofocus>
      <button type="button" class="link small-button" data-pin-show aria-pressed="false" hidden>Show PIN</button>
    </div>
    <div class="pinpad" role="group" aria-label="Number pad">
      ${PAD.map((d) => html`<button type="button" class="secondary" data-digit="${d}">${d}</button>`)}
      <button type="button" class="secondary" data-pin-clear aria-label="Clear PIN">Clear</button>
      <button type="button" class="secondary" data-digit="0">0</button>
      <button type="button" class="secondary" data-pin-back aria-label="Delete last digit">⌫</button>
    </div>
    <button type="submit" class="big">Unlock</button>
  </form>
  <p class="small muted counter-lock-help">Your PIN comes from the shop’s owner (console, Staff). Wrong PINs are counted: after a few, unlocking pauses.</p>
</div>
</main>`;
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
  const base = counterPath(counter.org.id);
  const csrf = html`<input type="hidden" name="${CSRF_FIELD}" value="${counter.csrfToken}">`;
  return html`<header class="counter-bar">
  <div class="counter-bar-inner">
    <span class="brand">${counter.org.name}</span>
    <span class="mode-badge${livemode ? '' : ' test'}" id="mode-badge">${livemode ? 'LIVE DATA' : 'TEST DATA'}</span>
    <span class="queue-badge" id="queue-badge" role="status" hidden></span>
    <span class="counter-staff" id="counter-staff"><span class="hide-narrow">Staff: </span>${counter.staff.name}</span>
    <form method="post" action="${base}/lock" id="lock-form">${csrf}<button type="submit" class="button">Lock</button></form>
  </div>
</header>
${
  livemode
    ? ''
    : html`<div class="test-banner" role="note"><p><strong>Test data.</strong> Stamps and rewards here are not real: use this to practise and to try test passes.</p>
  <form method="post" action="${base}/mode">${csrf}<input type="hidden" name="mode" value="live"><button type="submit" class="button">Back to live data</button></form></div>`
}
<div class="counter-offline" id="counter-offline" role="status" hidden></div>
<main class="counter" id="counter"
  data-org="${counter.org.id}" data-mode="${livemode ? 'live' : 'test'}" data-csrf="${counter.csrfToken}"
  data-staff-id="${counter.staff.id}" data-staff-name="${counter.staff.name}"
  data-lock-ms="${view.lockAfterMs}" data-wasm="${view.wasmUrl}">
  <section class="counter-find panel" aria-labelledby="find-heading">
    <h1 id="find-heading">Find a customer</h1>
    <button type="button" class="big counter-scan" id="scan-camera">Scan with camera</button>
    <p class="small muted" id="camera-note" role="status" hidden></p>
    <div class="camera" id="camera" hidden>
      <video id="camera-video" playsinline muted aria-label="Camera view"></video>
      <button type="button" class="secondary" id="camera-stop">Stop camera</button>
    </div>
    <form id="find-form" role="search" class="counter-search">
      <label for="f-find">Pass code, name, phone or email</label>
      <div class="row"><input id="f-find" name="q" type="search" autocomplete="off" enterkeyhint="search" maxlength="200"><button type="submit">Find</button></div>
    </form>
    <p class="small muted">A barcode scanner works wherever the cursor is: just scan.</p>
    <button type="button" class="secondary counter-new" id="enroll-open">New customer</button>
    ${
      livemode
        ? html`<form method="post" action="${base}/mode" class="counter-practice">${csrf}<input type="hidden" name="mode" value="test"><button type="submit" class="link">Practise with test data</button>
      <span class="small muted">Test customers and test passes, apart from real ones.</span></form>`
        : ''
    }
  </section>
  <section class="counter-view" id="counter-view" aria-label="Customer" aria-live="polite">
    <div class="counter-message" id="counter-message"></div>
    <div id="counter-panel"><p class="empty">Scan a pass, or search for a customer.<br>Staff: <strong>${counter.staff.name}</strong>. Your own entries can be undone for ${view.undoMinutes} minutes.</p></div>
  </section>
</main>`;
}
