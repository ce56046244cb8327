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
import type { ConsoleLang, Lang } from '../../i18n/langs';
import { t, tConsole } from '../../i18n/translate';
import { consoleText, messageWith } from '../message-markup';
import { labelOf, timeText } from './lang-format';

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

export function dataNotice(lang: ConsoleLang, view: CustomerDataView): Markup {
  const m = consoleText(lang);
  if (view.notice === 'sent') return html`<div class="notice ok" role="status"><p>${m('console.data.notice.sent')}</p></div>`;
  if (view.notice === 'edited') return html`<div class="notice ok" role="status"><p>${m('console.data.notice.edited')}</p></div>`;
  if (view.notice === 'unchanged') return html`<div class="notice" role="status"><p>${m('console.data.notice.unchanged')}</p></div>`;
  return html``;
}

/** "Card and data": the buttons that act on the customer's card and data. */
export function cardAndDataPanel(c: ConsoleContext, customer: Customer, view: CustomerDataView): Markup {
  const base = `/console/customers/${customer.id}`;
  const m = consoleText(c.lang);
  const mail = !view.mail
    ? html`<p class="muted small" id="mail-off">${messageWith(c.lang, 'console.data.mailOff', 'smtp', html`<code>SMTP_URL</code>`, { from: 'MAIL_FROM' })}</p>`
    : view.mailBlocker
      ? html`<p class="muted small">${m('console.data.needsAddress')}</p>`
      : html`<form method="post" action="${base}/send-card" class="inline-form">${csrfField(c)}<button type="submit">${m('console.data.sendCard')}</button></form>`;
  return html`<section class="panel" aria-labelledby="data-heading">
  <h2 id="data-heading">${m('console.data.heading')}</h2>
  <div class="actions data-actions">
    ${mail}
    <a class="button secondary" href="${base}/qr">${m('console.data.showQr')}</a>
    <a class="button secondary" href="${base}/edit">${m('console.data.edit')}</a>
    <a class="button secondary" href="${base}/data.json" download>${m('console.data.download')}</a>
    <a class="button danger" href="${base}/erase">${m('console.data.erase')}</a>
  </div>
  <p class="muted small">${m('console.data.hint')}</p>
</section>`;
}

function sendStatus(lang: ConsoleLang, send: MailSend, timeZone: string): Markup {
  const m = consoleText(lang);
  if (send.status === 'sent') return html`<span class="badge ok">${m('console.data.send.sent')}</span>`;
  if (send.status === 'failed') return html`<span class="badge danger">${m('console.data.send.failed')}</span>${send.error ? html` <span class="small">${send.error}</span>` : ''}`;
  if (send.attempts === 0) return html`<span class="badge">${m('console.data.send.waiting')}</span>`;
  return html`<span class="badge warn">${m('console.data.send.retrying')}</span> <span class="small">${m('console.data.send.attempt', { attempts: send.attempts, error: send.error ?? '' })}${send.nextAttemptAt ? m('console.data.send.nextTry', { time: timeText(lang, send.nextAttemptAt, timeZone) }) : ''}</span>`;
}

/** Every email sent to the customer (or tried), newest first. */
export function emailsPanel(lang: ConsoleLang, view: CustomerDataView, timeZone: string): Markup {
  const m = consoleText(lang);
  const col = { time: m('console.data.col.time'), email: m('console.data.col.email'), askedBy: m('console.data.col.askedBy'), to: m('console.data.col.to'), status: m('console.data.col.status') };
  const body = view.sends.length
    ? html`<div class="table-wrap"><table class="stacked">
  <caption class="visually-hidden">${m('console.data.emailsCaption')}</caption>
  <thead><tr><th scope="col">${col.time}</th><th scope="col">${col.email}</th><th scope="col">${col.askedBy}</th><th scope="col">${col.to}</th><th scope="col">${col.status}</th></tr></thead>
  <tbody>${view.sends.map(
    (s) => html`<tr><td data-label="${col.time}" class="nowrap">${timeText(lang, s.createdAt, timeZone)}</td><td data-label="${col.email}">${m('console.data.mailKind', { kind: s.kind })}</td><td data-label="${col.askedBy}">${m('console.data.via', { via: s.via })}</td><td data-label="${col.to}">${s.recipient ?? html`<span class="muted">—</span>`}</td><td data-label="${col.status}">${sendStatus(lang, s, timeZone)}</td></tr>`,
  )}</tbody>
</table></div>`
    : html`<p class="empty">${m('console.data.noEmails')}</p>`;
  return html`<section class="panel" aria-labelledby="emails-heading"><h2 id="emails-heading">${m('console.data.emails')}</h2>${body}</section>`;
}

function changeText(lang: ConsoleLang, change: CustomerChange): Markup {
  const m = consoleText(lang);
  if (change.kind === 'erase') return html`${m('console.data.erased', { api: change.channel === 'api' ? 'yes' : 'no' })}`;
  return html`${change.changes.map(
    (f, i) => html`${i ? html`<br>` : ''}${m('console.data.field', { field: f.field })}: ${'from' in f ? html`${f.from ?? '—'} → ${f.to ?? '—'}` : m('console.data.changed')}`,
  )}`;
}

/** Changes to the customer's details: what, who and when. */
export function changesPanel(lang: ConsoleLang, view: CustomerDataView, timeZone: string): Markup {
  if (!view.changes.length) return html``;
  const m = consoleText(lang);
  const col = { time: m('console.data.col.time'), change: m('console.data.col.change'), by: m('console.data.col.by') };
  return html`<section class="panel" aria-labelledby="changes-heading"><h2 id="changes-heading">${m('console.data.changes')}</h2>
<div class="table-wrap"><table class="stacked">
  <caption class="visually-hidden">${m('console.data.changesCaption')}</caption>
  <thead><tr><th scope="col">${col.time}</th><th scope="col">${col.change}</th><th scope="col">${col.by}</th></tr></thead>
  <tbody>${view.changes.map(
    (ch) => html`<tr><td data-label="${col.time}" class="nowrap">${timeText(lang, ch.createdAt, timeZone)}</td><td data-label="${col.change}">${changeText(lang, ch)}</td><td data-label="${col.by}">${ch.adminEmail ?? (ch.channel === 'api' ? 'API' : '—')}</td></tr>`,
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
  const m = consoleText(c.lang);
  return html`<p class="crumbs"><a href="/console/customers/${customer.id}">← ${labelOf(c.lang, customer)}</a></p>
<div class="page-head"><h1>${m('console.data.editTitle')}</h1></div>
<section class="panel narrow">
  <p class="muted">${m('console.data.editHint', { card: card.name })}</p>
  ${formError(errors.form)}
  <form method="post" action="/console/customers/${customer.id}/edit" class="form" novalidate>
    ${csrfField(c)}
    ${inputField({ name: 'name', label: m('console.data.name'), value: form.name, error: errors.fields.name, required: req('name'), maxlength: 200, autocomplete: 'off' })}
    ${inputField({ name: 'email', label: m('console.data.email'), type: 'email', value: form.email, error: errors.fields.email, required: req('email'), maxlength: 254, autocomplete: 'off' })}
    ${inputField({ name: 'phone', label: m('console.data.phone'), type: 'tel', value: form.phone, error: errors.fields.phone, required: req('phone'), maxlength: 50, autocomplete: 'off', hint: phoneHint(country) })}
    <div class="actions"><button type="submit">${m('console.data.save')}</button><a href="/console/customers/${customer.id}">${m('console.data.cancel')}</a></div>
  </form>
</section>`;
}

export function eraseBody(c: ConsoleContext, customer: Customer, card: Card): Markup {
  const m = consoleText(c.lang);
  const label = labelOf(c.lang, customer);
  return html`<p class="crumbs"><a href="/console/customers/${customer.id}">← ${label}</a></p>
<div class="page-head"><h1>${m('console.data.eraseTitle')}</h1></div>
<section class="panel narrow" aria-labelledby="erase-heading">
  <h2 id="erase-heading">${m('console.data.eraseQuestion', { name: label })}</h2>
  <p>${m('console.data.eraseIntro')}</p>
  <ul>
    <li>${m('console.data.erase1')}</li>
    <li>${m('console.data.erase2', { card: card.name })}</li>
    <li>${m('console.data.erase3')}</li>
    <li>${messageWith(c.lang, 'console.data.erase4', 'event', html`<code>customer.deleted</code>`)}</li>
  </ul>
  <p class="muted small">${m('console.data.eraseCopy')}</p>
  <form method="post" action="/console/customers/${customer.id}/erase" class="form">
    ${csrfField(c)}
    <div class="actions"><button type="submit" class="danger">${m('console.data.erase')}</button><a class="button secondary" href="/console/customers/${customer.id}">${m('console.data.cancel')}</a></div>
  </form>
</section>`;
}

export function erasedBody(lang: ConsoleLang, passUserId: string): Markup {
  const m = consoleText(lang);
  return html`<div class="page-head"><h1>${m('console.data.erasedTitle')}</h1></div>
<section class="panel narrow">
  <div class="notice ok" role="status"><p>${messageWith(lang, 'console.data.erasedText', 'id', html`<code>pu_${passUserId}</code>`)}</p></div>
  <p><a class="button secondary" href="/console/customers">${m('console.data.back')}</a></p>
</section>`;
}

/** The card's install QR, large, for the customer to scan from this screen: its words in the shop's language. */
export function qrBody(lang: ConsoleLang, shopLang: Lang, customer: Customer, card: Card, qrSvg: string): Markup {
  return html`<p class="crumbs"><a href="/console/customers/${customer.id}">← ${labelOf(lang, customer)}</a></p>
<section class="panel card-qr-screen" aria-labelledby="qr-heading">
  <h1 id="qr-heading">${card.name}</h1>
  <p class="lead" lang="${shopLang}">${customer.name ? t(shopLang, 'poster.scanToAddNamed', { name: customer.name }) : t(shopLang, 'poster.scanToAdd')}</p>
  <div class="card-qr">${raw(qrSvg)}</div>
  <p><a class="button secondary" href="/console/customers/${customer.id}">${tConsole(lang, 'console.data.done')}</a></p>
</section>`;
}
