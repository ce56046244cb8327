import type { Card } from '../../cards/model';
import type { Customer, CustomFieldValue } from '../../customers/model';
import { TEST_CUSTOMER_LIFETIME_MS } from '../../customers/test-mode';
import { levelFor } from '../../loyalty/balance';
import type { LedgerDetails, LedgerEntry } from '../../loyalty/history';
import type { LedgerKind } from '../../lib/changes';
import { formError, inputField, selectField, textareaField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, raw, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { channelLabel, currencyOf, customerLabel, formatAmount, formatChange, formatDate, formatMoney, formatNumber, formatTime, passTypeLabel, unitOf } from '../format';
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

const KIND_LABELS: Record<LedgerKind, string> = { initial: 'Opening balance', earn: 'Earned', redeem: 'Redeemed', adjust: 'Correction', reversal: 'Undone', expiry: 'Expired', birthday: 'Birthday' };

function answerText(card: Card, key: string, value: CustomFieldValue): string {
  const question = card.questions.find((q) => q.key === key);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (question?.type === 'select') return question.options?.find((o) => o.value === value)?.label ?? String(value);
  return String(value);
}

function balancePanel(view: CustomerView): Markup {
  const { card, customer } = view;
  const level = levelFor(card, customer.balance);
  const next = level && card.levels ? card.levels.find((l) => l.minPoints > customer.balance) : undefined;
  const reward = card.reward && unitOf(card.passType) !== 'credit' ? card.reward : null;
  return html`<section class="panel" aria-labelledby="balance-heading">
  <h2 id="balance-heading">Balance</h2>
  <p class="stat" id="balance">${formatAmount(card, customer.balance)}</p>
  ${level ? html`<p>Level: <strong>${level.name}</strong>${next ? html` <span class="muted">· ${formatAmount(card, next.minPoints - customer.balance)} to ${next.name}</span>` : ''}</p>` : ''}
  ${reward ? html`<p class="muted">${customer.balance >= reward.cost ? html`Enough for the reward (${reward.name}).` : html`${formatAmount(card, reward.cost - customer.balance)} to go for ${reward.name}.`}</p>` : ''}
</section>`;
}

function detailsPanel(c: ConsoleContext, view: CustomerView): Markup {
  const { card, customer, timeZone } = view;
  const answers = Object.entries(customer.customFields);
  const fact = (label: string, value: unknown) => html`<dt>${label}</dt><dd>${value === null || value === undefined || value === '' ? html`<span class="muted">—</span>` : value}</dd>`;
  return html`<section class="panel" aria-labelledby="details-heading">
  <h2 id="details-heading">Details</h2>
  <dl class="facts">
    ${fact('Card', html`${card.name} <span class="muted small">(${passTypeLabel(card.passType)})</span>`)}
    ${fact('Status', statusBadge(customer.status, view.usesWebPass))}
    ${fact('Joined via', channelLabel(customer.source))}
    ${fact('Created', formatTime(customer.createdAt, timeZone))}
    ${c.livemode ? '' : fact('Removed on', html`${formatDate(customer.createdAt + TEST_CUSTOMER_LIFETIME_MS, timeZone)} <span class="muted small">(test customers last 30 days)</span>`)}
    ${fact('Email', customer.email)}
    ${fact('Phone', customer.phone)}
    ${fact('External id', customer.externalId ? html`<code>${customer.externalId}</code>` : null)}
    ${fact('Customer id', html`<code>pu_${customer.id}</code>`)}
    ${answers.map(([key, value]) => fact(card.questions.find((q) => q.key === key)?.label ?? key, answerText(card, key, value)))}
  </dl>
</section>`;
}

function installPanel(view: CustomerView): Markup {
  return html`<section class="panel install-panel" aria-labelledby="install-heading">
  <h2 id="install-heading">Install link</h2>
  <p class="muted small">Send this link to the customer, or let them scan the code with their phone's camera: it adds the pass to Apple Wallet, Google Wallet or the browser.</p>
  <div class="install-qr">${raw(view.installQr)}</div>
  <p class="secret"><code id="install-url">${view.installUrl}</code></p>
  <p><a href="${view.installUrl}" target="_blank" rel="noopener">Open the install page</a></p>
</section>`;
}

function correctionPanel(c: ConsoleContext, view: CustomerView): Markup {
  const { card, correction } = view;
  const errors = correction.errors ?? { fields: {} };
  const unit = unitOf(card.passType);
  const canSet = card.passType === 'point_card' || card.passType === 'level_card';
  const actions = [
    { value: 'add', label: `Add ${unit === 'credit' ? 'credit' : unit}` },
    { value: 'remove', label: `Remove ${unit === 'credit' ? 'credit' : unit}` },
    ...(canSet ? [{ value: 'set', label: 'Set the balance to' }] : []),
  ];
  const currency = currencyOf(card);
  const amountHint = unit === 'credit' ? `Money${currency ? ` in ${currency}` : ''}, e.g. 5 or 2.50.` : `Whole ${unit}.`;
  return html`<section class="panel" aria-labelledby="correct-heading">
  <h2 id="correct-heading">Correct the balance</h2>
  <p class="muted small">For mistakes and goodwill: the same rules as at the counter and in the API apply (earning limits when adding, never below zero). The change and your note go into the history.</p>
  ${formError(errors.form)}
  <form method="post" action="/console/customers/${view.customer.id}/correct" class="form" novalidate>
    ${csrfField(c)}
    <div class="row correction-row">
      ${selectField({ name: 'action', label: 'Change', value: correction.action, options: actions, error: errors.fields.action, required: true })}
      ${inputField({ name: 'amount', label: 'Amount', value: correction.amount, inputmode: unit === 'credit' ? 'decimal' : 'numeric', error: errors.fields.amount, hint: amountHint, required: true, autocomplete: 'off' })}
    </div>
    ${textareaField({ name: 'note', label: 'Note', value: correction.note, error: errors.fields.note, hint: 'Why you correct it. Kept in the history; the customer does not see it.', required: true, maxlength: 500, rows: 2 })}
    <div class="actions"><button type="submit">Correct balance</button></div>
  </form>
</section>`;
}

function detailsText(card: Card, details: LedgerDetails | null): string {
  if (!details) return '';
  if ('from' in details && details.from === 'spend') return `Sale of ${formatMoney(details.spend.amount, details.spend.currency)} at ${formatNumber(details.rate)} per ${details.spend.currency}`;
  if ('from' in details) return details.items.map((i) => `${formatNumber(i.quantity)} × ${i.key}`).join(', ');
  if ('reward' in details) return `Reward: ${details.reward.name}`;
  if ('reverses' in details) return 'Undoes an earlier entry (at the counter)';
  if ('setPoints' in details) return `Set to ${formatAmount(card, details.setPoints)}`;
  return `Promotions added ${formatAmount(card, details.promotions.extra)}`;
}

function historyPanel(view: CustomerView): Markup {
  const { card, history, timeZone, customer } = view;
  const body = history.rows.length
    ? html`<div class="table-wrap"><table class="ledger-table stacked">
  <caption class="visually-hidden">Balance history, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">What</th><th scope="col" class="num">Change</th><th scope="col" class="num">Balance after</th><th scope="col">Source</th><th scope="col">Staff</th><th scope="col">Note</th><th scope="col">Details</th></tr></thead>
  <tbody>
  ${history.rows.map(
    (row) => html`<tr>
    <td data-label="Time" class="nowrap">${formatTime(row.createdAt, timeZone)}</td>
    <td data-label="What">${KIND_LABELS[row.kind]}</td>
    <td data-label="Change" class="num nowrap">${formatChange(card, row.change)}</td>
    <td data-label="Balance after" class="num nowrap">${formatAmount(card, row.balanceAfter)}</td>
    <td data-label="Source">${channelLabel(row.source)}</td>
    <td data-label="Staff">${row.staffName ?? ''}</td>
    <td data-label="Note" class="note">${row.note ?? ''}</td>
    <td data-label="Details">${detailsText(card, row.details)}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`
    : html`<p class="empty">Nothing yet: awards, redemptions and corrections appear here.</p>`;
  const self = `/console/customers/${customer.id}`;
  const pager =
    history.paged || history.older
      ? html`<nav class="pager" aria-label="History pages">
  ${history.paged ? html`<a class="button secondary" href="${self}#history-heading">← Newest entries</a>` : html`<span></span>`}
  ${history.older ? html`<a class="button secondary" href="${self}?history=${history.older}#history-heading">Older entries →</a>` : ''}
</nav>`
      : '';
  return html`<section class="panel" aria-labelledby="history-heading">
  <h2 id="history-heading">History</h2>
  ${body}
  ${pager}
</section>`;
}

export function customerBody(c: ConsoleContext, view: CustomerView): Markup {
  const { customer } = view;
  const title = customerLabel(customer);
  return html`<p class="crumbs"><a href="/console/customers">← All customers</a></p>
<div class="page-head"><h1>${title}</h1>${c.livemode ? '' : html`<span class="badge warn">Test customer</span>`}</div>
${view.corrected ? html`<div class="notice ok" role="status"><p>Balance corrected. An installed pass shows the new balance.</p></div>` : ''}
${dataNotice(view.data)}
<div class="customer-columns">
  <div>${balancePanel(view)}${detailsPanel(c, view)}</div>
  <div>${correctionPanel(c, view)}${installPanel(view)}${consentPanel(view.consent, view.timeZone)}${cardAndDataPanel(c, customer, view.data)}</div>
</div>
${historyPanel(view)}
${changesPanel(view.data, view.timeZone)}${emailsPanel(view.data, view.timeZone)}`;
}

export function customerTitle(customer: Customer): string {
  return customer.name ?? customer.externalId ?? 'Customer';
}
