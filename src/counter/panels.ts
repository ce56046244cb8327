import { takesRewards, type Card, type Question } from '../cards/model';
import type { Customer } from '../customers/model';
import { t } from '../i18n/translate';
import { phoneExample } from '../lib/contact';
import { checkboxField, formError, inputField, selectField } from '../web/fields';
import type { FormErrors } from '../web/forms';
import { html, raw, type Markup } from '../web/html';
import { amountText, balanceText, cardTypeWord, channelWord, displayName, entryText, kindOf, unitWord, whenText, type Voice } from './format';
import { questionField, type EnrollValues } from './enroll';
import { awardChange } from './large-award';
import { previewOutput, promotionsSection, quickNotes, rewardProgress, rewardsSection } from './offer-panels';
import type { CustomerScreen } from './service';

// The fragments the counter page swaps in: the customer screen (with the confirmation of what was
// just done), a list of search results, the enroll form and its big install QR. Each action is a
// small form the page's script sends with its own idempotency key; without the script nothing posts.
// Every text is in the shop's language (`Voice`).

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

function progress(v: Voice, screen: CustomerScreen): Markup {
  const { card, customer } = screen;
  if (takesRewards(card.passType)) return rewardProgress(v, card, customer, screen.offers);
  if (screen.level) {
    const next = screen.nextLevel ? t(v.lang, 'counter.level.toNext', { units: balanceText(v, card, screen.nextLevel.minPoints - customer.balance), level: screen.nextLevel.name }) : t(v.lang, 'counter.level.top');
    return html`<p><strong>${screen.level.name}</strong> · ${next}</p>${rewardProgress(v, card, customer, screen.offers)}`;
  }
  return html``;
}

const QUICK = [1, 2, 3];

/** The stamp card's +1/+2/+3 buttons: the most used taps at the counter. */
function quickStamps(v: Voice, screen: CustomerScreen): Markup {
  const { card, customer, offers } = screen;
  if (card.passType !== 'stamp_card') return html``;
  const described = offers.running.length > 0;
  return actionForm(
    'earn',
    customer,
    html`<input type="hidden" name="what" value="flat">${QUICK.map(
      (n) => html`<button type="submit" name="amount" value="${n}" class="big${n === 1 ? ' cx-main' : ' secondary'}"${described ? html` aria-describedby="cx-gives-${n}"` : ''}>${t(v.lang, 'counter.quick.stamps', { count: n })}</button>`,
    )}${quickNotes(v, card, offers, QUICK)}`,
    ' cx-quick',
  );
}

function earnForms(v: Voice, screen: CustomerScreen): Markup {
  const { card, customer, offers } = screen;
  const accrual = card.accrual;
  const kind = kindOf(card);
  const items = accrual?.items ? Object.keys(accrual.items) : [];
  return html`${amountForm({ action: 'earn', customer, what: 'flat', id: 'cx-flat', label: t(v.lang, 'counter.earn.label', { kind }), button: t(v.lang, 'counter.earn.button', { kind }), decimals: kind === 'credit', after: previewOutput(v, card, offers, 'cx-flat') })}
${accrual?.spend ? amountForm({ action: 'earn', customer, what: 'spend', id: 'cx-spend', label: t(v.lang, 'counter.earn.sale', { currency: accrual.spend.currency }), button: t(v.lang, 'counter.earn.saleButton'), decimals: true, after: previewOutput(v, card, offers, 'cx-spend') }) : ''}
${
  items.length
    ? actionForm(
        'earn',
        customer,
        html`<input type="hidden" name="what" value="items">
<div class="row cx-items">
  <div><label for="cx-item">${t(v.lang, 'counter.earn.item')}</label><select id="cx-item" name="item">${items.map((key) => html`<option value="${key}">${t(v.lang, 'counter.earn.itemOption', { item: key, units: `${amountText(v, card, accrual!.items![key]!)} ${unitWord(v, card, accrual!.items![key]!)}` })}</option>`)}</select></div>
  <div><label for="cx-qty">${t(v.lang, 'counter.earn.quantity')}</label><input id="cx-qty" name="quantity" type="text" inputmode="numeric" value="1" autocomplete="off"></div>
  <button type="submit">${t(v.lang, 'counter.earn.itemsButton')}</button>
</div>${previewOutput(v, card, offers, 'cx-item cx-qty', awardChange(card, { from: 'items', items: [{ key: items[0]!, quantity: 1 }] }))}`,
      )
    : ''
}`;
}

function redeemPoints(v: Voice, screen: CustomerScreen): Markup {
  const { card, customer } = screen;
  const kind = kindOf(card);
  return card.passType !== 'stamp_card' && customer.balance > 0
    ? amountForm({
        action: 'redeem',
        customer,
        what: 'points',
        id: 'cx-redeem-points',
        label: t(v.lang, 'counter.redeemPoints.label', { kind }),
        button: t(v.lang, 'counter.redeemPoints.button', { kind }),
        decimals: kind === 'credit',
      })
    : html``;
}

function history(v: Voice, screen: CustomerScreen, now: number): Markup {
  if (!screen.entries.length) return html`<p class="muted">${t(v.lang, 'counter.history.empty')}</p>`;
  return html`<ol class="cx-history">${screen.entries.map(
    (row) => html`<li${row.reversed ? html` class="undone"` : ''}>
  <span class="cx-when">${whenText(v, row.createdAt, now)}</span>
  <span class="cx-what">${entryText(v, screen.card, row, screen.promotionNames)}${row.reversed ? html` <span class="badge">${t(v.lang, 'counter.history.undone')}</span>` : ''}</span>
  <span class="cx-who">${row.staffName ? `${row.staffName} · ` : ''}${channelWord(v, row.source)}</span>
</li>`,
  )}</ol>`;
}

/** The customer's card itself: its install QR on screen, and (when the server sends email) the card to their address. */
function cardTools(v: Voice, customer: Customer, mail: boolean): Markup {
  const canEmail = mail && Boolean(customer.email);
  return html`<div class="cx-card-tools">
  <button type="button" class="secondary" data-qr="${customer.id}">${t(v.lang, 'counter.card.showQr')}</button>
  ${canEmail ? actionForm('send-card', customer, html`<button type="submit" class="secondary">${t(v.lang, 'counter.card.email')}</button>`, ' cx-inline') : ''}
</div>`;
}

/** The card's install QR, big, for the member to scan with their phone (a lost pass, a new phone). */
export function cardQrPanel(v: Voice, customer: Customer, card: Card, qrSvg: string): Markup {
  const name = displayName(v, customer);
  return html`<section class="panel enrolled" aria-labelledby="qr-heading">
<h2 id="qr-heading">${t(v.lang, 'counter.card.qrHeading', { name })}</h2>
<p>${t(v.lang, 'counter.card.qrHelp', { card: card.name })}</p>
<div class="counter-qr">${raw(qrSvg)}</div>
<div class="actions"><button type="button" class="big" data-open="${customer.id}">${t(v.lang, 'counter.card.back', { name })}</button><button type="button" class="secondary" data-close>${t(v.lang, 'counter.done')}</button></div>
</section>`;
}

function pendingNote(v: Voice, screen: CustomerScreen): string {
  if (screen.customer.status !== 'pending_install') return '';
  return ` · ${t(v.lang, screen.usesWebPass ? 'counter.customer.webPass' : 'counter.customer.notInstalled')}`;
}

export function customerPanel(v: Voice, screen: CustomerScreen, view: { now: number; confirmation?: Confirmation; mail?: boolean }): Markup {
  const { card, customer } = screen;
  const name = displayName(v, customer);
  const undo = screen.undoable;
  return html`<article class="cx panel" id="customer" data-customer="${customer.id}" aria-labelledby="cx-name">
${view.confirmation ? html`<div class="cx-confirm" role="status"><p><strong>✓ ${view.confirmation.done}</strong>${view.confirmation.aside ? '' : html` · ${t(v.lang, 'counter.confirm.balance', { name, balance: balanceText(v, card, customer.balance) })}`}</p></div>` : ''}
<header class="cx-head">
  <div>
    <h2 id="cx-name">${name}</h2>
    <p class="muted">${card.name} · ${cardTypeWord(v, card)}${customer.livemode ? '' : html` · <span class="badge warn">${t(v.lang, 'counter.customer.test')}</span>`}${pendingNote(v, screen)}</p>
  </div>
  <button type="button" class="secondary" data-close>${t(v.lang, 'counter.close')}</button>
</header>
<div class="cx-balance">
  <p class="cx-number" id="cx-balance"><span class="cx-big">${amountText(v, card, customer.balance)}</span> ${unitWord(v, card, customer.balance)}</p>
  ${progress(v, screen)}
</div>
${undo ? actionForm('undo', customer, html`<input type="hidden" name="transaction" value="${undo.id}"><button type="submit" class="secondary cx-undo">${t(v.lang, 'counter.undo.button', { entry: entryText(v, card, undo, screen.promotionNames), when: whenText(v, undo.createdAt, view.now) })}</button>`) : ''}
${promotionsSection(v, card, screen.offers)}
<div class="cx-actions">
  ${quickStamps(v, screen)}
  ${rewardsSection(v, card, customer, screen.offers)}
  ${redeemPoints(v, screen)}
  ${earnForms(v, screen)}
</div>
${cardTools(v, customer, view.mail ?? false)}
<h3>${t(v.lang, 'counter.history.heading')}</h3>
${history(v, screen, view.now)}
</article>`;
}

export function resultsPanel(v: Voice, query: string, results: { customer: Customer; card: Card }[]): Markup {
  if (!results.length) return html`<div class="panel"><p class="empty">${t(v.lang, 'counter.results.none', { query })}</p></div>`;
  return html`<section class="panel" aria-labelledby="results-heading">
<h2 id="results-heading">${t(v.lang, 'counter.results.heading', { count: results.length, query })}</h2>
<ul class="cx-results">${results.map(
    ({ customer, card }) => html`<li><button type="button" class="secondary" data-open="${customer.id}"><strong>${displayName(v, customer)}</strong><span>${card.name} · ${balanceText(v, card, customer.balance)}${customer.email ? ` · ${customer.email}` : customer.phone ? ` · ${customer.phone}` : ''}</span></button></li>`,
  )}</ul>
</section>`;
}

/** The hint under a phone field: the shop's country's own example, or the international form. */
export function phoneHintText(v: Pick<Voice, 'lang'>, country: string | null): string {
  const example = phoneExample(country);
  return example ? t(v.lang, 'counter.enroll.phoneHint', example) : t(v.lang, 'counter.enroll.phoneHintIntl', { international: '+44 20 7946 0958' });
}

function questionInput(v: Voice, q: Question, value: string, error: string | undefined, phoneHint: string): Markup {
  const name = questionField(q);
  const common = { name, label: q.label, error, required: q.required, lang: v.lang };
  switch (q.type) {
    case 'checkbox':
      return checkboxField({ name, label: q.label, checked: value === 'on', error, required: q.required });
    case 'select':
      return selectField({ ...common, value, placeholder: t(v.lang, 'counter.enroll.choose'), options: q.options ?? [] });
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
export function enrollPanel(v: Voice, view: { cards: Card[]; card: Card; values: EnrollValues; errors?: FormErrors; key: string; country: string | null }): Markup {
  const { card, values } = view;
  const errors = view.errors ?? { fields: {} };
  const hint = phoneHintText(v, view.country);
  const contact = (name: 'name' | 'email' | 'phone', type: 'text' | 'email' | 'tel') =>
    card.signupFields[name] === 'off'
      ? ''
      : inputField({
          name,
          label: t(v.lang, `counter.enroll.${name}`),
          type,
          value: values[name],
          error: errors.fields[name],
          required: card.signupFields[name] === 'required',
          lang: v.lang,
          autocomplete: 'off',
          maxlength: name === 'name' ? 200 : 254,
          ...(name === 'phone' ? { hint } : {}),
        });
  return html`<section class="panel enroll" aria-labelledby="enroll-heading">
<h2 id="enroll-heading">${t(v.lang, 'counter.newCustomer')}</h2>
${formError(errors.form)}
<form class="cx-form" data-action="enroll" novalidate>
  <input type="hidden" name="key" value="${view.key}">
  ${selectField({ name: 'card', label: t(v.lang, 'counter.enroll.card'), value: card.id, required: true, options: view.cards.map((c) => ({ value: c.id, label: c.name })) })}
  ${contact('name', 'text')}
  ${contact('email', 'email')}
  ${contact('phone', 'tel')}
  ${card.questions.map((q) => questionInput(v, q, values.answers[q.key] ?? '', errors.fields[questionField(q)], hint))}
  <div class="actions"><button type="submit" class="big">${t(v.lang, 'counter.enroll.submit')}</button><button type="button" class="secondary" data-close>${t(v.lang, 'counter.cancel')}</button></div>
</form>
</section>`;
}

export function enrolledPanel(v: Voice, view: { customer: Customer; card: Card; matched: boolean; installUrl: string; qrSvg: string }): Markup {
  const name = displayName(v, view.customer);
  const heading = t(v.lang, view.matched ? 'counter.enrolled.matched' : 'counter.enrolled.new', { name, card: view.card.name });
  return html`<section class="panel enrolled" aria-labelledby="enrolled-heading">
<h2 id="enrolled-heading">${heading}</h2>
<p>${view.matched ? `${t(v.lang, 'counter.enrolled.noneCreated')} ` : ''}${t(v.lang, 'counter.enrolled.scan')}</p>
<div class="counter-qr">${raw(view.qrSvg)}</div>
<p class="small muted counter-link">${view.installUrl}</p>
<div class="actions"><button type="button" class="big" data-open="${view.customer.id}">${t(v.lang, 'counter.enrolled.open', { name })}</button><button type="button" class="secondary" data-close>${t(v.lang, 'counter.done')}</button></div>
</section>`;
}
