import type { Card } from '../../cards/model';
import type { Customer } from '../../customers/model';
import { BODY_MAX, HEADER_MAX, type Audience, type DeliveryFigures, type Message, type Reach } from '../../messages/model';
import { formError, inputField, textareaField } from '../../web/fields';
import { noErrors, type FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { customerLabel, formatNumber, formatTime, unitOf } from '../format';
import { csrfField } from '../layout';
import type { MessageForm } from './form';

// The Messages section: write to a card's audience and see, before sending, how many customers
// and passes it reaches (htmx asks /console/messages/reach as the audience changes); the messages
// sent, each with how its passes fared. And the form on a customer's own message page.

export const MESSAGES_PATH = '/console/messages';

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

function unitWords(card: Card): string {
  const unit = unitOf(card.passType);
  return unit === 'credit' ? 'credit' : unit;
}

/** An audience in the owner's words. */
export function audienceText(audience: Audience, card: Card | undefined): string {
  if (audience === 'all') return 'Everyone';
  if ('level' in audience) return `Level ${audience.level}`;
  if ('visitedWithinDays' in audience) return `Visited in the last ${plural(audience.visitedWithinDays, 'day', 'days')}`;
  if ('notVisitedForDays' in audience) return `Not visited for ${plural(audience.notVisitedForDays, 'day', 'days')}`;
  return `Balance at least ${formatNumber(audience.minBalance)}${card ? ` ${unitWords(card)}` : ''}`;
}

const WALLETS = [
  ['apple', 'Apple Wallet'],
  ['google', 'Google Wallet'],
  ['web', 'web pass'],
] as const;

/** "12 customers (15 passes: 8 Apple Wallet, 4 Google Wallet, 3 web pass)". */
export function reachText(reach: Reach): string {
  const passes = reach.passes.apple + reach.passes.google + reach.passes.web;
  if (reach.customers === 0) return 'No customer with a pass is in this audience yet.';
  const byWallet = WALLETS.filter(([key]) => reach.passes[key] > 0).map(([key, label]) => `${formatNumber(reach.passes[key])} ${label}`);
  return `Reaches ${plural(reach.customers, 'customer', 'customers')} (${plural(passes, 'pass', 'passes')}: ${byWallet.join(', ')}).`;
}

/** The count before sending, swapped in place by htmx as the audience changes. */
export function reachPanel(result: { reach: Reach } | { error: string }): Markup {
  if ('error' in result) return html`<div id="reach" class="reach" role="status" aria-live="polite"><p class="muted">${result.error}</p></div>`;
  const { reach } = result;
  return html`<div id="reach" class="reach" role="status" aria-live="polite">
  <p><strong id="reach-count">${reachText(reach)}</strong></p>
  ${reach.alreadyMessagedToday > 0 ? html`<p class="muted small">${plural(reach.alreadyMessagedToday, 'customer', 'customers')} of this audience already got a message today and ${reach.alreadyMessagedToday === 1 ? 'is' : 'are'} left out: one message a day at most.</p>` : ''}
</div>`;
}

export interface MessagesView {
  cards: Card[];
  card: Card | undefined;
  form: MessageForm;
  errors?: FormErrors;
  reach: { reach: Reach } | { error: string };
  sent: { message: Message; figures: DeliveryFigures }[];
  cardsById: Map<string, Card>;
  timeZone: string;
  /** The message just sent, for the notice. */
  justSent?: Message;
}

function cardChooser(view: MessagesView): Markup {
  if (view.cards.length < 2) return html``;
  return html`<form method="get" action="${MESSAGES_PATH}" class="row card-chooser">
  <div class="field"><label for="f-card">Card</label>
  <select id="f-card" name="card">${view.cards.map((c) => html`<option value="${c.id}"${c.id === view.card?.id ? html` selected` : ''}>${c.name}</option>`)}</select></div>
  <button type="submit" class="secondary">Choose card</button>
</form>`;
}

/** One audience option: the radio and, where it takes one, its own labelled value. */
function audienceOption(view: MessagesView, value: MessageForm['audience'], label: string, input?: Markup): Markup {
  const id = `f-audience-${value}`;
  return html`<div class="audience-option">
  <label class="check" for="${id}"><input id="${id}" type="radio" name="audience" value="${value}"${view.form.audience === value ? html` checked` : ''}> <span>${label}</span></label>
  ${input ?? ''}
</div>`;
}

function numberInput(view: MessagesView, name: 'visitedWithinDays' | 'notVisitedForDays' | 'minBalance', label: string, errors: FormErrors): Markup {
  // Required with its choice (the form is novalidate: the server judges only the chosen one).
  return html`<div class="audience-value">${inputField({ name, label, value: view.form[name], inputmode: name === 'minBalance' ? 'decimal' : 'numeric', error: errors.fields[name], required: true, autocomplete: 'off' })}</div>`;
}

function audienceFieldset(view: MessagesView, card: Card, errors: FormErrors): Markup {
  const levels = card.passType === 'level_card' ? (card.levels ?? []) : [];
  const levelSelect = html`<div class="audience-value field">
    <label for="f-level">Level</label>
    <select id="f-level" name="level"${errors.fields.level ? html` aria-invalid="true" aria-describedby="f-level-error"` : ''}>${levels.map(
      (l) => html`<option value="${l.name}"${l.name === view.form.level ? html` selected` : ''}>${l.name}</option>`,
    )}</select>
    ${errors.fields.level ? html`<span class="error" id="f-level-error">${errors.fields.level}</span>` : ''}
  </div>`;
  return html`<fieldset class="audience" id="f-audience">
  <legend>Who gets it</legend>
  ${audienceOption(view, 'all', `Everyone with ${card.name}`)}
  ${levels.length ? audienceOption(view, 'level', 'Customers at one level', levelSelect) : ''}
  ${audienceOption(view, 'visitedWithinDays', 'Customers who visited recently', numberInput(view, 'visitedWithinDays', 'Visited in the last (days)', errors))}
  ${audienceOption(view, 'notVisitedForDays', 'Customers who have not come for a while', numberInput(view, 'notVisitedForDays', 'Not visited for (days)', errors))}
  ${audienceOption(view, 'minBalance', `Customers with enough ${unitWords(card)}`, numberInput(view, 'minBalance', `Balance at least (${unitWords(card)})`, errors))}
  <p class="hint muted small">A visit is anything earned, at the counter or through your till. A customer gets at most one of these messages a day.</p>
</fieldset>`;
}

/** Title and message: the same fields on both forms. */
export function textFields(form: Pick<MessageForm, 'header' | 'body'>, errors: FormErrors): Markup {
  return html`${inputField({ name: 'header', label: 'Title', value: form.header, error: errors.fields.header, required: true, autocomplete: 'off', hint: `Up to ${HEADER_MAX} characters, such as “New: pumpkin pie”.` })}
${textareaField({ name: 'body', label: 'Message', value: form.body, error: errors.fields.body, required: true, rows: 3, hint: `Up to ${BODY_MAX} characters. iPhones show it on the lock screen; Android phones notify up to 3 times a day per pass, then show it on the pass quietly.` })}`;
}

function composePanel(c: ConsoleContext, view: MessagesView): Markup {
  const card = view.card;
  if (!card) return html`<section class="panel"><p class="empty">Make a card first: messages go to the passes of a card's customers. <a href="/console/cards">Cards</a></p></section>`;
  const errors = view.errors ?? noErrors();
  return html`<section class="panel" aria-labelledby="compose-heading">
  <h2 id="compose-heading">Write to your customers</h2>
  <p class="muted small">The message appears on their passes: on the back of an Apple Wallet pass and on the lock screen, on a Google Wallet pass, and on top of the web pass. Each pass shows your latest message.${c.livemode ? '' : ' Test data: it goes to test customers only.'}</p>
  ${cardChooser(view)}
  ${formError(errors.form)}
  <form method="post" action="${MESSAGES_PATH}" class="form message-form" novalidate
    hx-get="${MESSAGES_PATH}/reach" hx-target="#reach" hx-swap="outerHTML" hx-trigger="change from:#f-audience, input changed delay:400ms from:#f-audience">
    ${csrfField(c)}<input type="hidden" name="card" value="${card.id}">
    ${audienceFieldset(view, card, errors)}
    ${reachPanel(view.reach)}
    ${textFields(view.form, errors)}
    <div class="actions"><button type="submit">Send message</button></div>
  </form>
</section>`;
}

function statusCells(f: DeliveryFigures): Markup {
  const n = (value: number, cls = '') => html`<span class="${cls}">${formatNumber(value)}</span>`;
  return html`<td data-label="Delivered" class="num">${n(f.delivered)}</td>
<td data-label="Shown without notification" class="num">${n(f.shown)}</td>
<td data-label="Failed" class="num">${f.failed ? n(f.failed, 'badge danger') : n(0)}</td>
<td data-label="Waiting" class="num">${n(f.pending)}</td>`;
}

/** Sent messages, newest first, with how their passes fared (reload for the latest figures). */
export function sentTable(rows: MessagesView['sent'], cardsById: Map<string, Card>, timeZone: string, options: { withAudience: boolean }): Markup {
  if (rows.length === 0) return html`<p class="empty">No message sent yet.</p>`;
  return html`<div class="table-wrap"><table class="stacked" id="sent-messages">
  <caption class="visually-hidden">Sent messages, newest first</caption>
  <thead><tr><th scope="col">Sent</th>${options.withAudience ? html`<th scope="col">To</th>` : ''}<th scope="col">Message</th><th scope="col" class="num">Customers</th><th scope="col" class="num">Delivered</th><th scope="col" class="num">Shown without notification</th><th scope="col" class="num">Failed</th><th scope="col" class="num">Waiting</th></tr></thead>
  <tbody>${rows.map(({ message, figures }) => {
    const card = cardsById.get(message.cardId);
    const to = message.audience === null ? 'One customer' : `${card?.name ?? 'Card'}: ${audienceText(message.audience, card)}`;
    return html`<tr>
    <td data-label="Sent" class="nowrap">${formatTime(message.createdAt, timeZone)}</td>
    ${options.withAudience ? html`<td data-label="To">${message.customerId ? html`<a href="/console/customers/${message.customerId}">${to}</a>` : to}</td>` : ''}
    <td data-label="Message"><strong>${message.header}</strong><br><span class="small">${message.body}</span></td>
    <td data-label="Customers" class="num">${formatNumber(message.recipients)}</td>
    ${statusCells(figures)}
  </tr>`;
  })}</tbody></table></div>`;
}

function sentNotice(message: Message | undefined): Markup {
  if (!message) return html``;
  return html`<div class="notice ok" role="status"><p>Message sent to ${plural(message.recipients, 'customer', 'customers')}. Their passes are being updated: reload to see how many were reached.</p></div>`;
}

export function messagesBody(c: ConsoleContext, view: MessagesView): Markup {
  return html`<div class="page-head"><h1>Messages</h1></div>
${sentNotice(view.justSent)}
${composePanel(c, view)}
<section class="panel" aria-labelledby="sent-heading">
  <h2 id="sent-heading">Sent messages</h2>
  <p class="muted small"><strong>Delivered</strong>: on the pass with a notification. <strong>Shown without notification</strong>: on the pass quietly (a web pass, a pass that already showed these words, or a Google pass that had its 3 notifications that day). <strong>Failed</strong>: the pass was removed from the wallet, or every retry failed.</p>
  ${sentTable(view.sent, view.cardsById, view.timeZone, { withAudience: true })}
</section>`;
}

/** What a message to this customer reaches. */
function customerReachText(passes: { apple: boolean; google: boolean; web: boolean }): string {
  const names = WALLETS.filter(([key]) => passes[key]).map(([, label]) => label);
  if (names.length === 0) return 'This customer has no pass yet (no wallet, and the web pass was never opened): nobody would see a message now.';
  return `Goes to ${names.length === 1 ? 'their pass' : `their ${names.length} passes`}: ${names.join(', ')}.`;
}

export interface CustomerMessageView {
  customer: Customer;
  passes: { apple: boolean; google: boolean; web: boolean };
  form: Pick<MessageForm, 'header' | 'body'>;
  errors?: FormErrors;
  sent: MessagesView['sent'];
  cardsById: Map<string, Card>;
  timeZone: string;
  justSent?: Message;
}

export function customerMessageBody(c: ConsoleContext, view: CustomerMessageView): Markup {
  const errors = view.errors ?? noErrors();
  const self = `/console/customers/${view.customer.id}`;
  return html`<p class="crumbs"><a href="${self}">← ${customerLabel(view.customer)}</a></p>
<div class="page-head"><h1>Send a message to ${customerLabel(view.customer)}</h1></div>
${sentNotice(view.justSent)}
<section class="panel narrow" aria-labelledby="compose-heading">
  <h2 id="compose-heading">Message</h2>
  <p id="reach" role="status"><strong>${customerReachText(view.passes)}</strong></p>
  <p class="muted small">For this customer alone, such as “Your order is ready”. It does not count toward the one message a day of the Messages page.</p>
  ${formError(errors.form)}
  <form method="post" action="${self}/message" class="form" novalidate>
    ${csrfField(c)}
    ${textFields(view.form, errors)}
    <div class="actions"><button type="submit">Send message</button></div>
  </form>
</section>
<section class="panel" aria-labelledby="sent-heading">
  <h2 id="sent-heading">Messages to this customer</h2>
  ${sentTable(view.sent, view.cardsById, view.timeZone, { withAudience: false })}
</section>`;
}

