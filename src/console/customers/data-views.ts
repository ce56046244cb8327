import type { Card } from '../../cards/model';
import { phoneHint } from '../../lib/contact';
import type { CustomerChange } from '../../customers/edit';
import type { Customer } from '../../customers/model';
import type { MailSend } from '../../mail/service';
import { inputField, formError } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, raw, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { customerLabel, formatTime } from '../format';

// The customer page's share of the customer's own data: their card by email, their card's QR on
// screen, correcting their details, downloading everything, and erasing them; with the emails sent
// and the changes made. Self-contained blocks the customer page places with one line each.

export interface CustomerDataView {
  /** SMTP settings as the console may show them; null when mail is off. */
  mail: { server: string; from: string } | null;
  sends: MailSend[];
  changes: CustomerChange[];
  notice: 'sent' | 'edited' | 'unchanged' | null;
  /** Why the card cannot be emailed, if it cannot (no address). */
  mailBlocker: string | null;
}

const VIA: Record<MailSend['via'], string> = { signup: 'the customer (sign-up page)', console: 'the console', scan: 'the counter', import: 'the import', sweep: 'the loyalty programme (reminder, birthday)' };
const MAIL_KINDS: Record<MailSend['kind'], string> = { card: 'Their card', test: 'Test', expiry_reminder: 'Expiry reminder', birthday: 'Birthday greeting' };
const FIELD_WORDS: Record<string, string> = { name: 'Name', email: 'Email', phone: 'Phone' };

export function dataNotice(view: CustomerDataView): Markup {
  if (view.notice === 'sent') return html`<div class="notice ok" role="status"><p>The card is on its way by email. Its delivery shows under Emails below.</p></div>`;
  if (view.notice === 'edited') return html`<div class="notice ok" role="status"><p>Details saved. The change is recorded under Changes below.</p></div>`;
  if (view.notice === 'unchanged') return html`<div class="notice" role="status"><p>Nothing changed: the details were already as entered.</p></div>`;
  return html``;
}

/** "Card and data": the buttons that act on the customer's card and data. */
export function cardAndDataPanel(c: ConsoleContext, customer: Customer, view: CustomerDataView): Markup {
  const base = `/console/customers/${customer.id}`;
  const mail = !view.mail
    ? html`<p class="muted small" id="mail-off">Email is off on this server: the operator sets <code>SMTP_URL</code> and <code>MAIL_FROM</code> (see Settings → Email).</p>`
    : view.mailBlocker
      ? html`<p class="muted small">Sending the card by email needs an email address: add one with Edit details.</p>`
      : html`<form method="post" action="${base}/send-card" class="inline-form">${csrfField(c)}<button type="submit">Send card by email</button></form>`;
  return html`<section class="panel" aria-labelledby="data-heading">
  <h2 id="data-heading">Card and data</h2>
  <div class="actions data-actions">
    ${mail}
    <a class="button secondary" href="${base}/qr">Show card QR</a>
    <a class="button secondary" href="${base}/edit">Edit details</a>
    <a class="button secondary" href="${base}/data.json" download>Download data</a>
    <a class="button danger" href="${base}/erase">Delete personal data</a>
  </div>
  <p class="muted small">Download data gives the customer everything kept about them (JSON). Delete personal data erases their name, contact details and answers on request; their balance history stays for your books.</p>
</section>`;
}

function sendStatus(send: MailSend, timeZone: string): Markup {
  if (send.status === 'sent') return html`<span class="badge ok">Sent</span>`;
  if (send.status === 'failed') return html`<span class="badge danger">Failed</span>${send.error ? html` <span class="small">${send.error}</span>` : ''}`;
  if (send.attempts === 0) return html`<span class="badge">Waiting to be sent</span>`;
  return html`<span class="badge warn">Retrying</span> <span class="small">attempt ${send.attempts} failed: ${send.error ?? ''}${send.nextAttemptAt ? ` · next try ${formatTime(send.nextAttemptAt, timeZone)}` : ''}</span>`;
}

/** Every email sent to the customer (or tried), newest first. */
export function emailsPanel(view: CustomerDataView, timeZone: string): Markup {
  const body = view.sends.length
    ? html`<div class="table-wrap"><table class="stacked">
  <caption class="visually-hidden">Emails to this customer, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">Email</th><th scope="col">Asked by</th><th scope="col">To</th><th scope="col">Status</th></tr></thead>
  <tbody>${view.sends.map(
    (s) => html`<tr><td data-label="Time" class="nowrap">${formatTime(s.createdAt, timeZone)}</td><td data-label="Email">${MAIL_KINDS[s.kind]}</td><td data-label="Asked by">${VIA[s.via]}</td><td data-label="To">${s.recipient ?? html`<span class="muted">—</span>`}</td><td data-label="Status">${sendStatus(s, timeZone)}</td></tr>`,
  )}</tbody>
</table></div>`
    : html`<p class="empty">No email sent to this customer yet.</p>`;
  return html`<section class="panel" aria-labelledby="emails-heading"><h2 id="emails-heading">Emails</h2>${body}</section>`;
}

function changeText(change: CustomerChange): Markup {
  if (change.kind === 'erase') return html`Personal data deleted${change.channel === 'api' ? ' (through the API)' : ''}`;
  return html`${change.changes.map(
    (f, i) => html`${i ? html`<br>` : ''}${FIELD_WORDS[f.field] ?? f.field}: ${'from' in f ? html`${f.from ?? '—'} → ${f.to ?? '—'}` : 'changed'}`,
  )}`;
}

/** Changes to the customer's details: what, who and when. */
export function changesPanel(view: CustomerDataView, timeZone: string): Markup {
  if (!view.changes.length) return html``;
  return html`<section class="panel" aria-labelledby="changes-heading"><h2 id="changes-heading">Changes to the details</h2>
<div class="table-wrap"><table class="stacked">
  <caption class="visually-hidden">Changes to the customer's details, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">Change</th><th scope="col">By</th></tr></thead>
  <tbody>${view.changes.map(
    (ch) => html`<tr><td data-label="Time" class="nowrap">${formatTime(ch.createdAt, timeZone)}</td><td data-label="Change">${changeText(ch)}</td><td data-label="By">${ch.adminEmail ?? (ch.channel === 'api' ? 'API' : '—')}</td></tr>`,
  )}</tbody>
</table></div></section>`;
}

export interface EditForm {
  name: string;
  email: string;
  phone: string;
  errors?: FormErrors;
}

/** `country`: the shop's; a phone number without `+` is read as one of its numbers. */
export function editBody(c: ConsoleContext, customer: Customer, card: Card, form: EditForm, country: string | null): Markup {
  const errors = form.errors ?? { fields: {} };
  const req = (field: 'name' | 'email' | 'phone') => card.signupFields[field] === 'required' && customer[field] !== null;
  return html`<p class="crumbs"><a href="/console/customers/${customer.id}">← ${customerLabel(customer)}</a></p>
<div class="page-head"><h1>Edit details</h1></div>
<section class="panel narrow">
  <p class="muted">The same rules as the sign-up form of ${card.name}. An email or phone number another customer of this card has cannot be used twice. The change is recorded with your login.</p>
  ${formError(errors.form)}
  <form method="post" action="/console/customers/${customer.id}/edit" class="form" novalidate>
    ${csrfField(c)}
    ${inputField({ name: 'name', label: 'Name', value: form.name, error: errors.fields.name, required: req('name'), maxlength: 200, autocomplete: 'off' })}
    ${inputField({ name: 'email', label: 'Email', type: 'email', value: form.email, error: errors.fields.email, required: req('email'), maxlength: 254, autocomplete: 'off' })}
    ${inputField({ name: 'phone', label: 'Phone', type: 'tel', value: form.phone, error: errors.fields.phone, required: req('phone'), maxlength: 50, autocomplete: 'off', hint: phoneHint(country) })}
    <div class="actions"><button type="submit">Save details</button><a href="/console/customers/${customer.id}">Cancel</a></div>
  </form>
</section>`;
}

export function eraseBody(c: ConsoleContext, customer: Customer, card: Card): Markup {
  return html`<p class="crumbs"><a href="/console/customers/${customer.id}">← ${customerLabel(customer)}</a></p>
<div class="page-head"><h1>Delete personal data</h1></div>
<section class="panel narrow" aria-labelledby="erase-heading">
  <h2 id="erase-heading">Delete the personal data of ${customerLabel(customer)}?</h2>
  <p>For a customer who asks to be forgotten. This cannot be undone:</p>
  <ul>
    <li>Their name, email, phone, answers and external id are deleted, here and from the search.</li>
    <li>Their card on ${card.name} stops working: the pass on their phone is marked void, the install link and the pass's code open nothing.</li>
    <li>Their balance history stays for your books, without anything that says who they were.</li>
    <li>Connected systems are told through the webhook <code>customer.deleted</code>.</li>
  </ul>
  <p class="muted small">Download their data first if they asked for a copy. Backups made before the deletion still hold the data until they are rotated out.</p>
  <form method="post" action="/console/customers/${customer.id}/erase" class="form">
    ${csrfField(c)}
    <div class="actions"><button type="submit" class="danger">Delete personal data</button><a class="button secondary" href="/console/customers/${customer.id}">Cancel</a></div>
  </form>
</section>`;
}

export function erasedBody(passUserId: string): Markup {
  return html`<div class="page-head"><h1>Personal data deleted</h1></div>
<section class="panel narrow">
  <div class="notice ok" role="status"><p>The customer's personal data was deleted. Their pass is void and their balance history stays under <code>pu_${passUserId}</code>.</p></div>
  <p><a class="button secondary" href="/console/customers">Back to the customers</a></p>
</section>`;
}

/** The card's install QR, large, for the customer to scan from this screen. */
export function qrBody(customer: Customer, card: Card, qrSvg: string): Markup {
  return html`<p class="crumbs"><a href="/console/customers/${customer.id}">← ${customerLabel(customer)}</a></p>
<section class="panel card-qr-screen" aria-labelledby="qr-heading">
  <h1 id="qr-heading">${card.name}</h1>
  <p class="lead">${customer.name ? html`${customer.name}, scan` : 'Scan'} this with your phone's camera to add your card to your phone.</p>
  <div class="card-qr">${raw(qrSvg)}</div>
  <p><a class="button secondary" href="/console/customers/${customer.id}">Done</a></p>
</section>`;
}
