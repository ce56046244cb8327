import type { Card } from '../../cards/model';
import type { Customer, CustomFieldValue } from '../../customers/model';
import { TEST_CUSTOMER_LIFETIME_MS } from '../../customers/test-mode';
import { tConsole } from '../../i18n/translate';
import { levelFor } from '../../loyalty/balance';
import type { LedgerDetails, LedgerEntry } from '../../loyalty/history';
import type { LedgerKind } from '../../lib/changes';
import { formError, inputField, selectField, textareaField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, raw, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { currencyOf, unitOf } from '../format';
import type { ConsoleLang } from '../../i18n/langs';
import { consoleText } from '../message-markup';
import { amountText, changeText, channelText, dayText, labelOf, moneyText, numberText, timeText } from './lang-format';
import { cardAndDataPanel, changesPanel, dataNotice, emailsPanel, type CustomerDataView } from './data-views';
import { statusBadge } from './views';
import { consentPanel } from './consent-panel';
import type { Consent } from '../../privacy/consent';

// One customer as the owner sees them: the balance, who they are, how to get their pass onto a
// phone (the install link and its QR), the correction form and the ledger, newest first.

export interface CorrectionForm {
  action: string;
  amount: string;
  note: string;
  errors?: FormErrors;
}

export interface CustomerView {
  customer: Customer;
  card: Card;
  timeZone: string;
  installUrl: string;
  /** The install link as a QR code (SVG markup this program generated). */
  installQr: string;
  history: { rows: LedgerEntry[]; older: string | null; paged: boolean };
  correction: CorrectionForm;
  corrected: boolean;
  consent: Consent | null;
  /** Email, edits, export and erasure (data-views.ts). */
  data: CustomerDataView;
  /** The customer opened their web pass (the status says so when no wallet holds the pass). */
  usesWebPass?: boolean;
}

const kindLabel = (lang: ConsoleLang, kind: LedgerKind) => tConsole(lang, 'console.customer.kind', { kind });

function answerText(lang: ConsoleLang, card: Card, key: string, value: CustomFieldValue): string {
  const question = card.questions.find((q) => q.key === key);
  if (typeof value === 'boolean') return tConsole(lang, value ? 'console.customer.yes' : 'console.customer.no');
  if (question?.type === 'select') return question.options?.find((o) => o.value === value)?.label ?? String(value);
  return String(value);
}

function balancePanel(lang: ConsoleLang, view: CustomerView): Markup {
  const { card, customer } = view;
  const m = consoleText(lang);
  const amount = (hundredths: number) => amountText(lang, card, hundredths);
  const level = levelFor(card, customer.balance);
  const next = level && card.levels ? card.levels.find((l) => l.minPoints > customer.balance) : undefined;
  const reward = card.reward && unitOf(card.passType) !== 'credit' ? card.reward : null;
  return html`<section class="panel" aria-labelledby="balance-heading">
  <h2 id="balance-heading">${m('console.customer.balance')}</h2>
  <p class="stat" id="balance">${amount(customer.balance)}</p>
  ${level ? html`<p>${m('console.customer.level')} <strong>${level.name}</strong>${next ? html` <span class="muted">· ${m('console.customer.toNext', { amount: amount(next.minPoints - customer.balance), level: next.name })}</span>` : ''}</p>` : ''}
  ${reward ? html`<p class="muted">${customer.balance >= reward.cost ? m('console.customer.enough', { reward: reward.name }) : m('console.customer.toGo', { amount: amount(reward.cost - customer.balance), reward: reward.name })}</p>` : ''}
</section>`;
}

function detailsPanel(c: ConsoleContext, view: CustomerView): Markup {
  const { card, customer, timeZone } = view;
  const answers = Object.entries(customer.customFields);
  const fact = (label: string, value: unknown) => html`<dt>${label}</dt><dd>${value === null || value === undefined || value === '' ? html`<span class="muted">—</span>` : value}</dd>`;
  const m = consoleText(c.lang);
  return html`<section class="panel" aria-labelledby="details-heading">
  <h2 id="details-heading">${m('console.customer.details')}</h2>
  <dl class="facts">
    ${fact(m('console.customer.fact.card'), html`${card.name} <span class="muted small">(${m('console.customer.passType', { type: card.passType })})</span>`)}
    ${fact(m('console.customer.fact.status'), statusBadge(c.lang, customer.status, view.usesWebPass))}
    ${fact(m('console.customer.fact.joinedVia'), channelText(c.lang, customer.source))}
    ${fact(m('console.customer.fact.created'), timeText(c.lang, customer.createdAt, timeZone))}
    ${c.livemode ? '' : fact(m('console.customer.fact.removedOn'), html`${dayText(c.lang, customer.createdAt + TEST_CUSTOMER_LIFETIME_MS, timeZone)} <span class="muted small">${m('console.customer.testLasts')}</span>`)}
    ${fact(m('console.customer.fact.email'), customer.email)}
    ${fact(m('console.customer.fact.phone'), customer.phone)}
    ${fact(m('console.customer.fact.externalId'), customer.externalId ? html`<code>${customer.externalId}</code>` : null)}
    ${fact(m('console.customer.fact.customerId'), html`<code>pu_${customer.id}</code>`)}
    ${answers.map(([key, value]) => fact(card.questions.find((q) => q.key === key)?.label ?? key, answerText(c.lang, card, key, value)))}
  </dl>
</section>`;
}

function installPanel(lang: ConsoleLang, view: CustomerView): Markup {
  const m = consoleText(lang);
  return html`<section class="panel install-panel" aria-labelledby="install-heading">
  <h2 id="install-heading">${m('console.customer.install')}</h2>
  <p class="muted small">${m('console.customer.installHint')}</p>
  <div class="install-qr">${raw(view.installQr)}</div>
  <p class="secret"><code id="install-url">${view.installUrl}</code></p>
  <p><a href="${view.installUrl}" target="_blank" rel="noopener">${m('console.customer.installOpen')}</a></p>
</section>`;
}

function correctionPanel(c: ConsoleContext, view: CustomerView): Markup {
  const { card, correction } = view;
  const errors = correction.errors ?? { fields: {} };
  const unit = unitOf(card.passType);
  const canSet = card.passType === 'point_card' || card.passType === 'level_card';
  const m = consoleText(c.lang);
  const actions = [
    { value: 'add', label: m('console.customer.action.add', { unit }) },
    { value: 'remove', label: m('console.customer.action.remove', { unit }) },
    ...(canSet ? [{ value: 'set', label: m('console.customer.action.set') }] : []),
  ];
  const currency = currencyOf(card);
  const amountHint = m('console.customer.amountHint', { unit, currency: currency ?? 'none' });
  return html`<section class="panel" aria-labelledby="correct-heading">
  <h2 id="correct-heading">${m('console.customer.correct')}</h2>
  <p class="muted small">${m('console.customer.correctHint')}</p>
  ${formError(errors.form)}
  <form method="post" action="/console/customers/${view.customer.id}/correct" class="form" novalidate>
    ${csrfField(c)}
    <div class="row correction-row">
      ${selectField({ name: 'action', label: m('console.customer.change'), value: correction.action, options: actions, error: errors.fields.action, required: true })}
      ${inputField({ name: 'amount', label: m('console.customer.amount'), value: correction.amount, inputmode: unit === 'credit' ? 'decimal' : 'numeric', error: errors.fields.amount, hint: amountHint, required: true, autocomplete: 'off' })}
    </div>
    ${textareaField({ name: 'note', label: m('console.customer.note'), value: correction.note, error: errors.fields.note, hint: m('console.customer.noteHint'), required: true, maxlength: 500, rows: 2 })}
    <div class="actions"><button type="submit">${m('console.customer.correctButton')}</button></div>
  </form>
</section>`;
}

function detailsText(lang: ConsoleLang, card: Card, details: LedgerDetails | null): string {
  if (!details) return '';
  const m = consoleText(lang);
  if ('from' in details && details.from === 'spend') return m('console.customer.detail.sale', { amount: moneyText(lang, details.spend.amount, details.spend.currency), rate: numberText(lang, details.rate), currency: details.spend.currency });
  if ('from' in details) return details.items.map((i) => `${numberText(lang, i.quantity)} × ${i.key}`).join(', ');
  if ('reward' in details) return m('console.customer.detail.reward', { reward: details.reward.name });
  if ('reverses' in details) return m('console.customer.detail.reversal');
  if ('setPoints' in details) return m('console.customer.detail.set', { amount: amountText(lang, card, details.setPoints) });
  return m('console.customer.detail.promotions', { amount: amountText(lang, card, details.promotions.extra) });
}

function historyPanel(lang: ConsoleLang, view: CustomerView): Markup {
  const { card, history, timeZone, customer } = view;
  const m = consoleText(lang);
  const col = {
    time: m('console.customer.col.time'),
    what: m('console.customer.col.what'),
    change: m('console.customer.col.change'),
    after: m('console.customer.col.balanceAfter'),
    source: m('console.customer.col.source'),
    staff: m('console.customer.col.staff'),
    note: m('console.customer.col.note'),
    details: m('console.customer.col.details'),
  };
  const body = history.rows.length
    ? html`<div class="table-wrap"><table class="ledger-table stacked">
  <caption class="visually-hidden">${m('console.customer.historyCaption')}</caption>
  <thead><tr><th scope="col">${col.time}</th><th scope="col">${col.what}</th><th scope="col" class="num">${col.change}</th><th scope="col" class="num">${col.after}</th><th scope="col">${col.source}</th><th scope="col">${col.staff}</th><th scope="col">${col.note}</th><th scope="col">${col.details}</th></tr></thead>
  <tbody>
  ${history.rows.map(
    (row) => html`<tr>
    <td data-label="${col.time}" class="nowrap">${timeText(lang, row.createdAt, timeZone)}</td>
    <td data-label="${col.what}">${kindLabel(lang, row.kind)}</td>
    <td data-label="${col.change}" class="num nowrap">${changeText(lang, card, row.change)}</td>
    <td data-label="${col.after}" class="num nowrap">${amountText(lang, card, row.balanceAfter)}</td>
    <td data-label="${col.source}">${channelText(lang, row.source)}</td>
    <td data-label="${col.staff}">${row.staffName ?? ''}</td>
    <td data-label="${col.note}" class="note">${row.note ?? ''}</td>
    <td data-label="${col.details}">${detailsText(lang, card, row.details)}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`
    : html`<p class="empty">${m('console.customer.historyEmpty')}</p>`;
  const self = `/console/customers/${customer.id}`;
  const pager =
    history.paged || history.older
      ? html`<nav class="pager" aria-label="${m('console.customer.historyPages')}">
  ${history.paged ? html`<a class="button secondary" href="${self}#history-heading">${m('console.customer.newest')}</a>` : html`<span></span>`}
  ${history.older ? html`<a class="button secondary" href="${self}?history=${history.older}#history-heading">${m('console.customer.older')}</a>` : ''}
</nav>`
      : '';
  return html`<section class="panel" aria-labelledby="history-heading">
  <h2 id="history-heading">${m('console.customer.history')}</h2>
  ${body}
  ${pager}
</section>`;
}

export function customerBody(c: ConsoleContext, view: CustomerView): Markup {
  const { customer } = view;
  const title = labelOf(c.lang, customer);
  const m = consoleText(c.lang);
  return html`<p class="crumbs"><a href="/console/customers">${m('console.customer.allCustomers')}</a></p>
<div class="page-head"><h1>${title}</h1>${c.livemode ? '' : html`<span class="badge warn">${m('console.customer.testBadge')}</span>`}<a class="button secondary" href="/console/customers/${customer.id}/message">${m('console.messages.customer.button')}</a></div>
${view.corrected ? html`<div class="notice ok" role="status"><p>${m('console.customer.corrected')}</p></div>` : ''}
${dataNotice(c.lang, view.data)}
<div class="customer-columns">
  <div>${balancePanel(c.lang, view)}${detailsPanel(c, view)}</div>
  <div>${correctionPanel(c, view)}${installPanel(c.lang, view)}${consentPanel(c.lang, view.consent, view.timeZone)}${cardAndDataPanel(c, customer, view.data)}</div>
</div>
${historyPanel(c.lang, view)}
${changesPanel(c.lang, view.data, view.timeZone)}${emailsPanel(c.lang, view.data, view.timeZone)}`;
}

export function customerTitle(lang: ConsoleLang, customer: Customer): string {
  return customer.name ?? customer.externalId ?? tConsole(lang, 'console.customer.untitled');
}
