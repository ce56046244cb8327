import { takesRewards, type Card, type Question } from '../cards/model';
import { phoneHint } from '../lib/contact';
import type { Customer } from '../customers/model';
import { checkboxField, formError, inputField, selectField } from '../web/fields';
import type { FormErrors } from '../web/forms';
import { html, raw, type Markup } from '../web/html';
import { amountText, balanceText, cardTypeWord, channelWord, displayName, entryText, unitWord, whenText } from './format';
import { questionField, type EnrollValues } from './enroll';
import { awardChange } from './large-award';
import { previewOutput, promotionsSection, quickNotes, rewardProgress, rewardsSection } from './offer-panels';
import type { CustomerScreen } from './service';

// The fragments the counter page swaps in: the customer screen (with the confirmation of what was
// just done), a list of search results, the enroll form and its big install QR. Each action is a
// small form the page's script sends with its own idempotency key; without the script nothing posts.

export interface Confirmation {
  /** "+1 stamp", "Free coffee redeemed", "Undone: +1 stamp". */
  done: string;
  /** Not about the balance (an email sent): the balance is not repeated after it. */
  aside?: boolean;
}

function actionForm(action: string, customer: Customer, body: Markup, extra = ''): Markup {
  return html`<form class="cx-form${extra}" data-action="${action}" novalidate><input type="hidden" name="customer" value="${customer.id}">${body}</form>`;
}

function amountForm(o: { action: string; customer: Customer; what: string; id: string; label: string; button: string; decimals: boolean; after?: Markup }): Markup {
  return actionForm(
    o.action,
    o.customer,
    html`<input type="hidden" name="what" value="${o.what}">
<label for="${o.id}">${o.label}</label>
<div class="row"><input id="${o.id}" name="amount" type="text" inputmode="${o.decimals ? 'decimal' : 'numeric'}" autocomplete="off" required><button type="submit">${o.button}</button></div>${o.after ?? ''}`,
  );
}

function progress(screen: CustomerScreen, timeZone: string): Markup {
  const { card, customer } = screen;
  if (takesRewards(card.passType)) return rewardProgress(card, customer, screen.offers, timeZone);
  if (screen.level) {
    return html`<p><strong>${screen.level.name}</strong>${screen.nextLevel ? html` · ${balanceText(card, screen.nextLevel.minPoints - customer.balance)} to ${screen.nextLevel.name}` : ' · the top level'}</p>${rewardProgress(card, customer, screen.offers, timeZone)}`;
  }
  return html``;
}

const QUICK = [1, 2, 3];

/** The stamp card's +1/+2/+3 buttons: the most used taps at the counter. */
function quickStamps(screen: CustomerScreen): Markup {
  const { card, customer, offers } = screen;
  if (card.passType !== 'stamp_card') return html``;
  const described = offers.running.length > 0;
  return actionForm(
    'earn',
    customer,
    html`<input type="hidden" name="what" value="flat">${QUICK.map(
      (n) => html`<button type="submit" name="amount" value="${n}" class="big${n === 1 ? ' cx-main' : ' secondary'}"${described ? html` aria-describedby="cx-gives-${n}"` : ''}>+${n} ${n === 1 ? 'stamp' : 'stamps'}</button>`,
    )}${quickNotes(card, offers, QUICK)}`,
    ' cx-quick',
  );
}

function earnForms(screen: CustomerScreen): Markup {
  const { card, customer, offers } = screen;
  const accrual = card.accrual;
  const flatLabel = card.passType === 'stamp_card' ? 'Stamps to add' : card.passType === 'prepaid_card' ? 'Credit to add' : 'Points to add';
  const flatButton = card.passType === 'stamp_card' ? 'Add stamps' : card.passType === 'prepaid_card' ? 'Add credit' : 'Add points';
  const items = accrual?.items ? Object.keys(accrual.items) : [];
  return html`${amountForm({ action: 'earn', customer, what: 'flat', id: 'cx-flat', label: flatLabel, button: flatButton, decimals: card.passType === 'prepaid_card', after: previewOutput(card, offers, 'cx-flat') })}
${accrual?.spend ? amountForm({ action: 'earn', customer, what: 'spend', id: 'cx-spend', label: `Sale amount (${accrual.spend.currency})`, button: 'Record sale', decimals: true, after: previewOutput(card, offers, 'cx-spend') }) : ''}
${
  items.length
    ? actionForm(
        'earn',
        customer,
        html`<input type="hidden" name="what" value="items">
<div class="row cx-items">
  <div><label for="cx-item">Item sold</label><select id="cx-item" name="item">${items.map((key) => html`<option value="${key}">${key} (${signedUnits(card, accrual!.items![key]!)} each)</option>`)}</select></div>
  <div><label for="cx-qty">How many</label><input id="cx-qty" name="quantity" type="text" inputmode="numeric" value="1" autocomplete="off"></div>
  <button type="submit">Record items</button>
</div>${previewOutput(card, offers, 'cx-item cx-qty', awardChange(card, { from: 'items', items: [{ key: items[0]!, quantity: 1 }] }))}`,
      )
    : ''
}`;
}

const signedUnits = (card: Card, hundredths: number) => `${amountText(card, hundredths)} ${unitWord(card, hundredths)}`;

function redeemPoints(screen: CustomerScreen): Markup {
  const { card, customer } = screen;
  return card.passType !== 'stamp_card' && customer.balance > 0
    ? amountForm({
        action: 'redeem',
        customer,
        what: 'points',
        id: 'cx-redeem-points',
        label: card.passType === 'prepaid_card' ? 'Pay with credit' : 'Points to redeem',
        button: card.passType === 'prepaid_card' ? 'Pay' : 'Redeem points',
        decimals: card.passType === 'prepaid_card',
      })
    : html``;
}

function history(screen: CustomerScreen, now: number, timeZone: string): Markup {
  if (!screen.entries.length) return html`<p class="muted">No entries yet.</p>`;
  return html`<ol class="cx-history">${screen.entries.map(
    (row) => html`<li${row.reversed ? html` class="undone"` : ''}>
  <span class="cx-when">${whenText(row.createdAt, now, timeZone)}</span>
  <span class="cx-what">${entryText(screen.card, row, screen.promotionNames)}${row.reversed ? html` <span class="badge">undone</span>` : ''}</span>
  <span class="cx-who">${row.staffName ? `${row.staffName} · ` : ''}${channelWord(row.source)}</span>
</li>`,
  )}</ol>`;
}

/** The customer's card itself: its install QR on screen, and (when the server sends email) the card to their address. */
function cardTools(customer: Customer, mail: boolean): Markup {
  const canEmail = mail && Boolean(customer.email);
  return html`<div class="cx-card-tools">
  <button type="button" class="secondary" data-qr="${customer.id}">Show card QR</button>
  ${canEmail ? actionForm('send-card', customer, html`<button type="submit" class="secondary">Send card by email</button>`, ' cx-inline') : ''}
</div>`;
}

/** The card's install QR, big, for the member to scan with their phone (a lost pass, a new phone). */
export function cardQrPanel(customer: Customer, card: Card, qrSvg: string): Markup {
  const name = displayName(customer);
  return html`<section class="panel enrolled" aria-labelledby="qr-heading">
<h2 id="qr-heading">${name}’s card</h2>
<p>Ask them to scan this with their phone’s camera: their ${card.name} card opens, ready to add to their phone.</p>
<div class="counter-qr">${raw(qrSvg)}</div>
<div class="actions"><button type="button" class="big" data-open="${customer.id}">Back to ${name}</button><button type="button" class="secondary" data-close>Done</button></div>
</section>`;
}

export function customerPanel(screen: CustomerScreen, view: { now: number; timeZone: string; confirmation?: Confirmation; mail?: boolean }): Markup {
  const { card, customer } = screen;
  const name = displayName(customer);
  const undo = screen.undoable;
  return html`<article class="cx panel" id="customer" data-customer="${customer.id}" aria-labelledby="cx-name">
${view.confirmation ? html`<div class="cx-confirm" role="status"><p><strong>✓ ${view.confirmation.done}</strong>${view.confirmation.aside ? '' : html` · ${name} now has ${balanceText(card, customer.balance)}.`}</p></div>` : ''}
<header class="cx-head">
  <div>
    <h2 id="cx-name">${name}</h2>
    <p class="muted">${card.name} · ${cardTypeWord(card)}${customer.livemode ? '' : html` · <span class="badge warn">test customer</span>`}${customer.status === 'pending_install' ? (screen.usesWebPass ? ' · uses the web pass' : ' · pass not added to a phone yet') : ''}</p>
  </div>
  <button type="button" class="secondary" data-close>Close</button>
</header>
<div class="cx-balance">
  <p class="cx-number" id="cx-balance"><span class="cx-big">${amountText(card, customer.balance)}</span> ${unitWord(card, customer.balance)}</p>
  ${progress(screen, view.timeZone)}
</div>
${undo ? actionForm('undo', customer, html`<input type="hidden" name="transaction" value="${undo.id}"><button type="submit" class="secondary cx-undo">Undo ${entryText(card, undo, screen.promotionNames)} (${whenText(undo.createdAt, view.now, view.timeZone)})</button>`) : ''}
${promotionsSection(card, screen.offers, view.timeZone)}
<div class="cx-actions">
  ${quickStamps(screen)}
  ${rewardsSection(card, customer, screen.offers)}
  ${redeemPoints(screen)}
  ${earnForms(screen)}
</div>
${cardTools(customer, view.mail ?? false)}
<h3>Recent entries</h3>
${history(screen, view.now, view.timeZone)}
</article>`;
}

export function resultsPanel(query: string, results: { customer: Customer; card: Card }[]): Markup {
  if (!results.length) return html`<div class="panel"><p class="empty">Nobody matches “${query}”. Check the spelling, or enroll them as a new customer.</p></div>`;
  return html`<section class="panel" aria-labelledby="results-heading">
<h2 id="results-heading">${results.length === 1 ? '1 customer matches' : `${results.length} customers match`} “${query}”</h2>
<ul class="cx-results">${results.map(
    ({ customer, card }) => html`<li><button type="button" class="secondary" data-open="${customer.id}"><strong>${displayName(customer)}</strong><span>${card.name} · ${balanceText(card, customer.balance)}${customer.email ? ` · ${customer.email}` : customer.phone ? ` · ${customer.phone}` : ''}</span></button></li>`,
  )}</ul>
</section>`;
}

function questionInput(q: Question, value: string, error: string | undefined, phoneHint: string): Markup {
  const name = questionField(q);
  const common = { name, label: q.label, error, required: q.required };
  switch (q.type) {
    case 'checkbox':
      return checkboxField({ name, label: q.label, checked: value === 'on', error, required: q.required });
    case 'select':
      return selectField({ ...common, value, placeholder: 'Choose…', options: q.options ?? [] });
    case 'number':
      return inputField({ ...common, value, inputmode: 'decimal' });
    case 'email':
      return inputField({ ...common, value, type: 'email', autocomplete: 'off' });
    case 'phone':
      return inputField({ ...common, value, type: 'tel', autocomplete: 'off', hint: phoneHint });
    case 'date':
      return inputField({ ...common, value, type: 'date' });
    default:
      return inputField({ ...common, value, maxlength: 500 });
  }
}

/** `country`: the shop's; the phone fields show a number of it as their example. */
export function enrollPanel(view: { cards: Card[]; card: Card; values: EnrollValues; errors?: FormErrors; key: string; country: string | null }): Markup {
  const { card, values } = view;
  const errors = view.errors ?? { fields: {} };
  const hint = phoneHint(view.country);
  const contact = (name: 'name' | 'email' | 'phone', label: string, type: 'text' | 'email' | 'tel') =>
    card.signupFields[name] === 'off'
      ? ''
      : inputField({ name, label, type, value: values[name], error: errors.fields[name], required: card.signupFields[name] === 'required', autocomplete: 'off', maxlength: name === 'name' ? 200 : 254, ...(name === 'phone' ? { hint } : {}) });
  return html`<section class="panel enroll" aria-labelledby="enroll-heading">
<h2 id="enroll-heading">New customer</h2>
${formError(errors.form)}
<form class="cx-form" data-action="enroll" novalidate>
  <input type="hidden" name="key" value="${view.key}">
  ${selectField({ name: 'card', label: 'Card', value: card.id, required: true, options: view.cards.map((c) => ({ value: c.id, label: c.name })) })}
  ${contact('name', 'Name', 'text')}
  ${contact('email', 'Email', 'email')}
  ${contact('phone', 'Phone', 'tel')}
  ${card.questions.map((q) => questionInput(q, values.answers[q.key] ?? '', errors.fields[questionField(q)], hint))}
  <div class="actions"><button type="submit" class="big">Enroll</button><button type="button" class="secondary" data-close>Cancel</button></div>
</form>
</section>`;
}

export function enrolledPanel(view: { customer: Customer; card: Card; matched: boolean; installUrl: string; qrSvg: string }): Markup {
  const name = displayName(view.customer);
  return html`<section class="panel enrolled" aria-labelledby="enrolled-heading">
<h2 id="enrolled-heading">${view.matched ? `${name} is already a member of ${view.card.name}` : `${name} is enrolled on ${view.card.name}`}</h2>
<p>${view.matched ? 'Nobody new was created. ' : ''}Ask them to scan this with their phone’s camera to add the card to their phone.</p>
<div class="counter-qr">${raw(view.qrSvg)}</div>
<p class="small muted counter-link">${view.installUrl}</p>
<div class="actions"><button type="button" class="big" data-open="${view.customer.id}">Open ${name}’s card</button><button type="button" class="secondary" data-close>Done</button></div>
</section>`;
}
