import { EVENT_TYPES } from '../../events/types';
import { WEBHOOK_HISTORY_DAYS } from '../../webhooks/history';
import { localDateTime } from '../../lib/days';
import { MAX_WEBHOOKS_PER_MODE, type AttemptRow, type DeliveryView, type WebhookRow } from '../../webhooks/service';
import { html, type Markup } from '../../web/html';
import { formError, inputField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { choiceGroup, doneNotice, shownOnce, when } from '../widgets';
import { formatNumber } from '../../i18n/format';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { sayMarkup } from '../say';

/** How many of an endpoint's deliveries its page shows (the API's default page). */
export const DELIVERIES_SHOWN = 50;

/** The endpoint as its form holds it: `events` is ["*"] for "All events", else the checked types. */
export interface EndpointForm {
  url: string;
  events: string[];
}

const EVENT_WORDS: Record<(typeof EVENT_TYPES)[number], ConsoleKey> = {
  'customer.enrolled': 'console.webhooks.event.enrolled',
  'balance.updated': 'console.webhooks.event.balance',
  'reward.redeemed': 'console.webhooks.event.reward',
  'level.changed': 'console.webhooks.event.level',
  'customer.deleted': 'console.webhooks.event.deleted',
};

/** A console message that names the data set the switch shows ("Test deliveries"): which data a page shows is never left to guess. */
const say = (c: ConsoleContext, key: ConsoleKey, params: MessageParams = {}) => tConsole(c.lang, key, { mode: c.livemode ? 'live' : 'test', ...params });

export const formOf = (row: WebhookRow): EndpointForm => ({ url: row.url, events: row.events });

function statusBadge(c: ConsoleContext, status: WebhookRow['status']): Markup {
  return status === 'active' ? html`<span class="badge ok">${say(c, 'console.webhooks.active')}</span>` : html`<span class="badge">${say(c, 'console.webhooks.disabled')}</span>`;
}

function eventsText(c: ConsoleContext, events: string[]): Markup {
  return events.includes('*') ? html`${say(c, 'console.webhooks.allEvents')}` : html`${events.map((e, i) => html`${i ? ', ' : ''}<code>${e}</code>`)}`;
}

function endpointFields(c: ConsoleContext, form: EndpointForm, errors: FormErrors): Markup {
  return html`${inputField({ name: 'url', label: say(c, 'console.webhooks.url'), type: 'url', value: form.url, error: errors.fields.url, required: true, maxlength: 2048, placeholder: 'https://example.com/loyalty-events', hint: say(c, 'console.webhooks.urlHint') })}
${choiceGroup({
  name: 'events',
  legend: say(c, 'console.webhooks.events'),
  type: 'checkbox',
  checked: form.events,
  error: errors.fields.events,
  hint: say(c, 'console.webhooks.eventsHint'),
  choices: [
    { value: '*', label: say(c, 'console.webhooks.allEvents'), hint: say(c, 'console.webhooks.allEventsHint') },
    ...EVENT_TYPES.map((type) => ({ value: type, label: html`<code>${type}</code>`, hint: say(c, EVENT_WORDS[type]) })),
  ],
})}`;
}

export function webhooksBody(c: ConsoleContext, view: { endpoints: WebhookRow[]; form: EndpointForm; errors?: FormErrors; notice?: string; timeZone: string }): Markup {
  const errors = view.errors ?? { fields: {} };
  const full = view.endpoints.length >= MAX_WEBHOOKS_PER_MODE;
  return html`<div class="page-head"><h1>${say(c, 'console.webhooks.title')}</h1></div>
<p class="muted">${say(c, 'console.webhooks.intro')}
${say(c, 'console.webhooks.introMode')}</p>
${doneNotice(view.notice)}
${formError(errors.form)}
<section class="endpoint-list" aria-labelledby="endpoints-heading">
  <h2 id="endpoints-heading">${say(c, 'console.webhooks.endpoints')} <span class="small muted">(${say(c, 'console.webhooks.count', { n: view.endpoints.length, max: MAX_WEBHOOKS_PER_MODE })})</span></h2>
  ${
    view.endpoints.length === 0
      ? html`<p class="empty panel">${say(c, 'console.webhooks.none')}</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">URL</th><th scope="col">${say(c, 'console.webhooks.eventsColumn')}</th><th scope="col">${say(c, 'console.keys.status')}</th><th scope="col" class="hide-narrow">${say(c, 'console.keys.created')}</th></tr></thead>
  <tbody>${view.endpoints.map(
    (e) =>
      html`<tr><td class="url-cell"><a href="/console/webhooks/${e.id}">${e.url}</a></td><td>${eventsText(c, e.events)}</td><td>${statusBadge(c, e.status)}</td><td class="nowrap hide-narrow">${when(e.createdAt, view.timeZone, {}, c.lang)}</td></tr>`,
  )}</tbody>
</table></div>`
  }
</section>
<form method="post" action="/console/webhooks" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${say(c, 'console.webhooks.addTitle')}</h2>
  ${full ? html`<p class="notice warn">${say(c, 'console.webhooks.full', { max: MAX_WEBHOOKS_PER_MODE })}</p>` : ''}
  ${endpointFields(c, view.form, errors)}
  <div class="actions"><button type="submit">${say(c, 'console.webhooks.add')}</button></div>
</form>`;
}

export function createdWebhookBody(c: ConsoleContext, row: WebhookRow): Markup {
  const url = html`<strong class="url-cell">${row.url}</strong>`;
  return html`<div class="page-head"><h1>${say(c, 'console.webhooks.addedTitle')}</h1></div>
<div class="notice ok" role="status"><p>${
    row.events.includes('*') ? sayMarkup(c.lang, 'console.webhooks.addedAll', { url }) : sayMarkup(c.lang, 'console.webhooks.addedSome', { events: eventsText(c, row.events), url })
  }</p></div>
<section class="panel" aria-labelledby="secret-heading">
  <h2 id="secret-heading">${say(c, 'console.webhooks.secret')}</h2>
  <p>${sayMarkup(c.lang, 'console.webhooks.secretIntro', { header: html`<code>X-Loyalty-Signature</code>` })}</p>
  ${shownOnce({ id: 'signing-secret', label: say(c, 'console.webhooks.secret'), value: row.secret, warning: say(c, 'console.webhooks.secretWarning'), lang: c.lang })}
  <div class="actions"><a class="button" href="/console/webhooks/${row.id}">${say(c, 'console.webhooks.secretStored')}</a></div>
</section>`;
}

function attemptRows(c: ConsoleContext, attempts: AttemptRow[], timeZone: string): Markup {
  const label = (key: ConsoleKey) => say(c, key);
  // data-label: on a phone each attempt is a small card of labelled lines (app.css), not a wide row.
  return html`${attempts.map(
    (a) => html`<tr>
  <td class="num" data-label="${label('console.webhooks.attempt')}">${a.number}</td>
  <td data-label="${label('console.webhooks.outcome')}">${a.status === 'succeeded' ? html`<span class="badge ok">${label('console.webhooks.succeeded')}</span>` : html`<span class="badge danger">${label('console.webhooks.failed')}</span>`}</td>
  <td class="num" data-label="${label('console.webhooks.response')}">${a.responseCode ?? html`<span class="muted">${label('console.webhooks.noResponse')}</span>`}</td>
  <td class="error-cell" data-label="${label('console.webhooks.error')}">${a.error ?? html`<span class="muted">—</span>`}</td>
  <td class="num nowrap" data-label="${label('console.webhooks.duration')}">${formatNumber(c.lang, a.durationMs)} ms</td>
  <td class="nowrap" data-label="${label('console.email.time')}">${when(a.at, timeZone, { seconds: true }, c.lang)}</td>
</tr>`,
  )}`;
}

function deliveryBadge(c: ConsoleContext, status: 'pending' | 'succeeded' | 'failed'): Markup {
  if (status === 'pending') return html`<span class="badge warn">${say(c, 'console.webhooks.pending')}</span>`;
  if (status === 'succeeded') return html`<span class="badge ok">${say(c, 'console.webhooks.succeeded')}</span>`;
  return html`<span class="badge danger">${say(c, 'console.webhooks.failed')}</span>`;
}

function deliveryBlock(c: ConsoleContext, endpoint: WebhookRow, { delivery, attempts }: DeliveryView, timeZone: string): Markup {
  const headingId = `delivery-${delivery.id}`;
  const at = (ms: number) => when(ms, timeZone, { seconds: true }, c.lang);
  return html`<article class="delivery" aria-labelledby="${headingId}">
  <div class="spread">
    <h3 id="${headingId}"><code>${delivery.eventType}</code> ${deliveryBadge(c, delivery.status)}</h3>
    ${
      endpoint.status === 'active'
        ? html`<form method="post" action="/console/webhooks/${endpoint.id}/deliveries/${delivery.id}/replay" class="inline">${csrfField(c)}<button type="submit" class="secondary small-button" aria-label="${say(c, 'console.webhooks.replayWhich', {
            event: delivery.eventType,
            time: localDateTime(delivery.createdAt, timeZone, { seconds: true }),
          })}">${say(c, 'console.webhooks.replay')}</button></form>`
        : ''
    }
  </div>
  <p class="small muted">${sayMarkup(c.lang, 'console.webhooks.eventLine', { id: html`<code>${delivery.eventId}</code>`, created: at(delivery.createdAt) })}${
    delivery.nextAttemptAt !== null ? html` · ${sayMarkup(c.lang, 'console.webhooks.nextAttempt', { time: at(delivery.nextAttemptAt) })}` : ''
  }${delivery.replayOf ? html` · ${sayMarkup(c.lang, 'console.webhooks.replayOf', { id: html`<code>${delivery.replayOf}</code>` })}` : ''}</p>
  ${
    attempts.length === 0
      ? html`<p class="small">${say(c, 'console.webhooks.notSent')}</p>`
      : html`<div class="table-wrap"><table class="attempts stack-narrow" aria-label="${say(c, 'console.webhooks.attempts')}">
  <thead><tr><th scope="col" class="num">${say(c, 'console.webhooks.attempt')}</th><th scope="col">${say(c, 'console.webhooks.outcome')}</th><th scope="col" class="num">${say(c, 'console.webhooks.response')}</th><th scope="col">${say(c, 'console.webhooks.error')}</th><th scope="col" class="num">${say(c, 'console.webhooks.duration')}</th><th scope="col">${say(c, 'console.email.time')}</th></tr></thead>
  <tbody>${attemptRows(c, attempts, timeZone)}</tbody>
</table></div>`
  }
</article>`;
}

export interface EndpointView {
  endpoint: WebhookRow;
  form: EndpointForm;
  deliveries: DeliveryView[];
  timeZone: string;
  /** The server's retry schedule (WEBHOOK_RETRY_DELAYS_MS). */
  retryDelaysMs: readonly number[];
  errors?: FormErrors;
  notice?: string;
}

function retryText(c: ConsoleContext, delays: readonly number[]): string {
  if (delays.length === 0) return say(c, 'console.webhooks.noRetry');
  const wait = (ms: number) => (ms % 1000 === 0 ? `${formatNumber(c.lang, ms / 1000)} s` : `${formatNumber(c.lang, ms)} ms`);
  return say(c, 'console.webhooks.retries', { n: delays.length, waits: delays.map(wait).join(say(c, 'console.webhooks.then')) });
}

export function endpointBody(c: ConsoleContext, view: EndpointView): Markup {
  const { endpoint } = view;
  const errors = view.errors ?? { fields: {} };
  const active = endpoint.status === 'active';
  return html`<p class="small"><a href="/console/webhooks">← ${say(c, 'console.webhooks.title')}</a></p>
<div class="page-head"><h1>${say(c, 'console.webhooks.endpoint')} ${statusBadge(c, endpoint.status)}</h1></div>
<p class="url-cell"><code>${endpoint.url}</code> · <a href="#deliveries-heading">${say(c, 'console.webhooks.deliveriesLink')}</a></p>
${doneNotice(view.notice)}
${formError(errors.form)}
<div class="grid endpoint-grid">
<form method="post" action="/console/webhooks/${endpoint.id}" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${say(c, 'console.nav.settings')}</h2>
  ${endpointFields(c, view.form, errors)}
  <div class="actions"><button type="submit">${say(c, 'console.webhooks.save')}</button></div>
</form>
<section class="panel" aria-labelledby="state-heading">
  <h2 id="state-heading">${say(c, active ? 'console.webhooks.sending' : 'console.webhooks.paused')}</h2>
  <p>${say(c, active ? 'console.webhooks.sendingText' : 'console.webhooks.pausedText')}</p>
  <form method="post" action="/console/webhooks/${endpoint.id}/status" class="actions">
    ${csrfField(c)}<input type="hidden" name="status" value="${active ? 'disabled' : 'active'}">
    <button type="submit" class="secondary">${say(c, active ? 'console.webhooks.disable' : 'console.webhooks.enable')}</button>
  </form>
  ${active ? html`<p class="small muted">${say(c, 'console.webhooks.disableHint')}</p>` : ''}
  <h2>${say(c, 'console.webhooks.deleteHeading')}</h2>
  <p><a class="button secondary" href="/console/webhooks/${endpoint.id}/delete">${say(c, 'console.webhooks.deleteLink')}</a></p>
</section>
</div>
<section aria-labelledby="deliveries-heading">
  <h2 id="deliveries-heading">${say(c, 'console.webhooks.deliveries')}</h2>
  <p class="muted small">${say(c, active ? 'console.webhooks.deliveriesIntro' : 'console.webhooks.deliveriesIntroPaused', {
    shown: DELIVERIES_SHOWN,
    retries: retryText(c, view.retryDelaysMs),
    days: WEBHOOK_HISTORY_DAYS,
  })}</p>
  ${view.deliveries.length === 0 ? html`<p class="empty panel">${say(c, 'console.webhooks.noDeliveries')}</p>` : view.deliveries.map((d) => deliveryBlock(c, endpoint, d, view.timeZone))}
</section>`;
}

export function deleteBody(c: ConsoleContext, endpoint: WebhookRow): Markup {
  return html`<div class="page-head"><h1>${say(c, 'console.webhooks.deleteTitle')}</h1></div>
<section class="panel confirm">
  <p><strong>${sayMarkup(c.lang, 'console.webhooks.deleteQuestion', { url: html`<span class="url-cell">${endpoint.url}</span>` })}</strong></p>
  <form method="post" action="/console/webhooks/${endpoint.id}/delete" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">${say(c, 'console.webhooks.delete')}</button>
    <a class="button secondary" href="/console/webhooks/${endpoint.id}">${say(c, 'console.keys.cancel')}</a>
  </form>
</section>`;
}
