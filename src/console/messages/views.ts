import type { Card } from '../../cards/model';
import type { Customer } from '../../customers/model';
import { formatDate, formatNumber, formatUnits } from '../../i18n/format';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { toHundredths } from '../../lib/money';
import { BODY_MAX, HEADER_MAX, type Audience, type Channel, type DeliveryFigures, type Message, type Reach } from '../../messages/model';
import { formError, inputField, textareaField } from '../../web/fields';
import { noErrors, type FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { customerLabel, unitOf } from '../format';
import { csrfField } from '../layout';
import type { MessageForm } from './form';

// The Messages section: write to a card's audience and see, before sending, how many customers
// and passes it reaches (htmx asks /console/messages/reach as the audience changes); the messages
// sent, each with how its passes fared. And the form on a customer's own message page. Every text
// in the admin's language (console catalogues), numbers and times as that language writes them.

export const MESSAGES_PATH = '/console/messages';

const sayer = (lang: ConsoleLang) => (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);

/** An audience in the owner's words; `currency`: the money a prepaid card's balance is in. */
export function audienceText(lang: ConsoleLang, audience: Audience, card: Card | undefined, currency: string | null = null): string {
  const say = sayer(lang);
  if (audience === 'all') return say('console.messages.to.all');
  if ('level' in audience) return say('console.messages.to.level', { level: audience.level });
  if ('visitedWithinDays' in audience) return say('console.messages.to.visited', { days: audience.visitedWithinDays });
  if ('notVisitedForDays' in audience) return say('console.messages.to.lapsed', { days: audience.notVisitedForDays });
  const amount = card ? formatUnits(lang, card, toHundredths(audience.minBalance), currency) : formatNumber(lang, audience.minBalance);
  return say('console.messages.to.balance', { amount });
}

const WALLETS: readonly Channel[] = ['apple', 'google', 'web'];

/** "Reaches 12 customers (15 passes: 8 Apple Wallet, 4 Google Wallet, 3 web pass)." */
export function reachText(lang: ConsoleLang, reach: Reach): string {
  const say = sayer(lang);
  const passes = reach.passes.apple + reach.passes.google + reach.passes.web;
  if (reach.customers === 0) return say('console.messages.reach.none');
  const wallets = WALLETS.filter((w) => reach.passes[w] > 0).map((w) => say('console.messages.reach.wallet', { count: reach.passes[w], wallet: w }));
  return say('console.messages.reach.count', { customers: reach.customers, passes, wallets: listOf(lang, wallets) });
}

/** "a, b and c" as the language joins a list. */
const listOf = (lang: ConsoleLang, items: string[]) => new Intl.ListFormat(lang === 'de' ? 'de-DE' : 'en-GB', { style: 'long', type: 'conjunction' }).format(items);

/** The count before sending, swapped in place by htmx as the audience changes. */
export function reachPanel(lang: ConsoleLang, result: { reach: Reach } | { error: string }): Markup {
  if ('error' in result) return html`<div id="reach" class="reach" role="status" aria-live="polite"><p class="muted">${result.error}</p></div>`;
  const { reach } = result;
  return html`<div id="reach" class="reach" role="status" aria-live="polite">
  <p><strong id="reach-count">${reachText(lang, reach)}</strong></p>
  ${reach.alreadyMessagedToday > 0 ? html`<p class="muted small">${tConsole(lang, 'console.messages.reach.leftOut', { count: reach.alreadyMessagedToday })}</p>` : ''}
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
  /** The shop's currency: a prepaid card's balance when its card names none. */
  currency: string | null;
  /** The message just sent, for the notice. */
  justSent?: Message;
}

function cardChooser(lang: ConsoleLang, view: MessagesView): Markup {
  if (view.cards.length < 2) return html``;
  return html`<form method="get" action="${MESSAGES_PATH}" class="row card-chooser">
  <div class="field"><label for="f-card">${tConsole(lang, 'console.messages.card')}</label>
  <select id="f-card" name="card">${view.cards.map((c) => html`<option value="${c.id}"${c.id === view.card?.id ? html` selected` : ''}>${c.name}</option>`)}</select></div>
  <button type="submit" class="secondary">${tConsole(lang, 'console.messages.chooseCard')}</button>
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

function audienceFieldset(lang: ConsoleLang, view: MessagesView, card: Card, errors: FormErrors): Markup {
  const say = sayer(lang);
  const unit = unitOf(card.passType);
  const levels = card.passType === 'level_card' ? (card.levels ?? []) : [];
  const levelSelect = html`<div class="audience-value field">
    <label for="f-level">${say('console.messages.audience.levelLabel')}</label>
    <select id="f-level" name="level"${errors.fields.level ? html` aria-invalid="true" aria-describedby="f-level-error"` : ''}>${levels.map(
      (l) => html`<option value="${l.name}"${l.name === view.form.level ? html` selected` : ''}>${l.name}</option>`,
    )}</select>
    ${errors.fields.level ? html`<span class="error" id="f-level-error">${errors.fields.level}</span>` : ''}
  </div>`;
  return html`<fieldset class="audience" id="f-audience">
  <legend>${say('console.messages.audience.legend')}</legend>
  ${audienceOption(view, 'all', say('console.messages.audience.all', { card: card.name }))}
  ${levels.length ? audienceOption(view, 'level', say('console.messages.audience.level'), levelSelect) : ''}
  ${audienceOption(view, 'visitedWithinDays', say('console.messages.audience.visited'), numberInput(view, 'visitedWithinDays', say('console.messages.audience.visitedLabel'), errors))}
  ${audienceOption(view, 'notVisitedForDays', say('console.messages.audience.lapsed'), numberInput(view, 'notVisitedForDays', say('console.messages.audience.lapsedLabel'), errors))}
  ${audienceOption(view, 'minBalance', say('console.messages.audience.balance', { unit }), numberInput(view, 'minBalance', say('console.messages.audience.balanceLabel', { unit }), errors))}
  <p class="hint muted small">${say('console.messages.audience.hint')}</p>
</fieldset>`;
}

/** Title and message: the same fields on both forms. */
export function textFields(lang: ConsoleLang, form: Pick<MessageForm, 'header' | 'body'>, errors: FormErrors): Markup {
  const say = sayer(lang);
  return html`${inputField({ name: 'header', label: say('console.messages.field.header'), value: form.header, error: errors.fields.header, required: true, autocomplete: 'off', hint: say('console.messages.field.headerHint', { max: HEADER_MAX }) })}
${textareaField({ name: 'body', label: say('console.messages.field.body'), value: form.body, error: errors.fields.body, required: true, rows: 3, hint: say('console.messages.field.bodyHint', { max: BODY_MAX }) })}`;
}

function composePanel(c: ConsoleContext, view: MessagesView): Markup {
  const say = sayer(c.lang);
  const card = view.card;
  if (!card) return html`<section class="panel"><p class="empty">${say('console.messages.noCard')} <a href="/console/cards">${say('console.messages.cardsLink')}</a></p></section>`;
  const errors = view.errors ?? noErrors();
  return html`<section class="panel" aria-labelledby="compose-heading">
  <h2 id="compose-heading">${say('console.messages.compose.heading')}</h2>
  <p class="muted small">${say('console.messages.compose.intro')}${c.livemode ? '' : ` ${say('console.messages.compose.testData')}`}</p>
  ${cardChooser(c.lang, view)}
  ${formError(errors.form)}
  <form method="post" action="${MESSAGES_PATH}" class="form message-form" novalidate
    hx-get="${MESSAGES_PATH}/reach" hx-target="#reach" hx-swap="outerHTML" hx-trigger="change from:#f-audience, input changed delay:400ms from:#f-audience">
    ${csrfField(c)}<input type="hidden" name="card" value="${card.id}">
    ${audienceFieldset(c.lang, view, card, errors)}
    ${reachPanel(c.lang, view.reach)}
    ${textFields(c.lang, view.form, errors)}
    <div class="actions"><button type="submit">${say('console.messages.send')}</button></div>
  </form>
</section>`;
}

function statusCells(lang: ConsoleLang, f: DeliveryFigures): Markup {
  const say = sayer(lang);
  const n = (value: number, cls = '') => html`<span class="${cls}">${formatNumber(lang, value)}</span>`;
  return html`<td data-label="${say('console.messages.status.delivered')}" class="num">${n(f.delivered)}</td>
<td data-label="${say('console.messages.status.shown')}" class="num">${n(f.shown)}</td>
<td data-label="${say('console.messages.status.failed')}" class="num">${f.failed ? n(f.failed, 'badge danger') : n(0)}</td>
<td data-label="${say('console.messages.status.pending')}" class="num">${n(f.pending)}</td>`;
}

/** Sent messages, newest first, with how their passes fared (reload for the latest figures). */
export function sentTable(
  lang: ConsoleLang,
  rows: MessagesView['sent'],
  shop: Pick<MessagesView, 'cardsById' | 'timeZone' | 'currency'>,
  options: { withAudience: boolean },
): Markup {
  const say = sayer(lang);
  if (rows.length === 0) return html`<p class="empty">${say('console.messages.sent.none')}</p>`;
  return html`<div class="table-wrap"><table class="stacked" id="sent-messages">
  <caption class="visually-hidden">${say('console.messages.sent.caption')}</caption>
  <thead><tr><th scope="col">${say('console.messages.sent.when')}</th>${options.withAudience ? html`<th scope="col">${say('console.messages.sent.to')}</th>` : ''}<th scope="col">${say('console.messages.sent.message')}</th><th scope="col" class="num">${say('console.messages.sent.customers')}</th><th scope="col" class="num">${say('console.messages.status.delivered')}</th><th scope="col" class="num">${say('console.messages.status.shown')}</th><th scope="col" class="num">${say('console.messages.status.failed')}</th><th scope="col" class="num">${say('console.messages.status.pending')}</th></tr></thead>
  <tbody>${rows.map(({ message, figures }) => {
    const card = shop.cardsById.get(message.cardId);
    const to =
      message.audience === null
        ? say('console.messages.to.oneCustomer')
        : say('console.messages.to.cardAudience', { card: card?.name ?? message.cardId, audience: audienceText(lang, message.audience, card, card?.accrual?.spend?.currency ?? shop.currency) });
    return html`<tr>
    <td data-label="${say('console.messages.sent.when')}" class="nowrap">${formatDate(lang, shop.timeZone, message.createdAt, 'dateTime')}</td>
    ${options.withAudience ? html`<td data-label="${say('console.messages.sent.to')}">${message.customerId ? html`<a href="/console/customers/${message.customerId}">${to}</a>` : to}</td>` : ''}
    <td data-label="${say('console.messages.sent.message')}"><strong>${message.header}</strong><br><span class="small">${message.body}</span></td>
    <td data-label="${say('console.messages.sent.customers')}" class="num">${formatNumber(lang, message.recipients)}</td>
    ${statusCells(lang, figures)}
  </tr>`;
  })}</tbody></table></div>`;
}

function sentNotice(lang: ConsoleLang, message: Message | undefined): Markup {
  if (!message) return html``;
  return html`<div class="notice ok" role="status"><p>${tConsole(lang, 'console.messages.sent.notice', { count: message.recipients })}</p></div>`;
}

/** What each column of the sent messages means. */
function statusLegend(lang: ConsoleLang): Markup {
  const say = sayer(lang);
  const item = (term: ConsoleKey, meaning: ConsoleKey) => html`<div><dt>${say(term)}</dt><dd>${say(meaning)}</dd></div>`;
  return html`<dl class="muted small status-legend">
  ${item('console.messages.status.delivered', 'console.messages.status.deliveredHint')}
  ${item('console.messages.status.shown', 'console.messages.status.shownHint')}
  ${item('console.messages.status.failed', 'console.messages.status.failedHint')}
</dl>`;
}

export function messagesBody(c: ConsoleContext, view: MessagesView): Markup {
  const say = sayer(c.lang);
  return html`<div class="page-head"><h1>${say('console.messages.title')}</h1></div>
${sentNotice(c.lang, view.justSent)}
${composePanel(c, view)}
<section class="panel" aria-labelledby="sent-heading">
  <h2 id="sent-heading">${say('console.messages.sent.heading')}</h2>
  ${statusLegend(c.lang)}
  ${sentTable(c.lang, view.sent, view, { withAudience: true })}
</section>`;
}

/** What a message to this customer reaches. */
function customerReachText(lang: ConsoleLang, passes: { apple: boolean; google: boolean; web: boolean }): string {
  const held = WALLETS.filter((w) => passes[w]);
  if (held.length === 0) return tConsole(lang, 'console.messages.customer.noPass');
  const wallets = listOf(lang, held.map((w) => tConsole(lang, 'console.messages.wallet', { wallet: w })));
  return tConsole(lang, 'console.messages.customer.reach', { count: held.length, wallets });
}

export interface CustomerMessageView {
  customer: Customer;
  passes: { apple: boolean; google: boolean; web: boolean };
  form: Pick<MessageForm, 'header' | 'body'>;
  errors?: FormErrors;
  sent: MessagesView['sent'];
  cardsById: Map<string, Card>;
  timeZone: string;
  currency: string | null;
  justSent?: Message;
}

export function customerMessageBody(c: ConsoleContext, view: CustomerMessageView): Markup {
  const say = sayer(c.lang);
  const errors = view.errors ?? noErrors();
  const self = `/console/customers/${view.customer.id}`;
  return html`<p class="crumbs"><a href="${self}">← ${customerLabel(view.customer)}</a></p>
<div class="page-head"><h1>${say('console.messages.customer.heading', { name: customerLabel(view.customer) })}</h1></div>
${sentNotice(c.lang, view.justSent)}
<section class="panel narrow" aria-labelledby="compose-heading">
  <h2 id="compose-heading">${say('console.messages.customer.compose')}</h2>
  <p id="reach" role="status"><strong>${customerReachText(c.lang, view.passes)}</strong></p>
  <p class="muted small">${say('console.messages.customer.hint')}</p>
  ${formError(errors.form)}
  <form method="post" action="${self}/message" class="form" novalidate>
    ${csrfField(c)}
    ${textFields(c.lang, view.form, errors)}
    <div class="actions"><button type="submit">${say('console.messages.send')}</button></div>
  </form>
</section>
<section class="panel" aria-labelledby="sent-heading">
  <h2 id="sent-heading">${say('console.messages.customer.sentHeading')}</h2>
  ${sentTable(c.lang, view.sent, view, { withAudience: false })}
</section>`;
}
