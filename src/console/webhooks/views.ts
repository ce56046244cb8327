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

/** How many of an endpoint's deliveries its page shows (the API's default page). */
export const DELIVERIES_SHOWN = 50;

/** The endpoint as its form holds it: `events` is ["*"] for "All events", else the checked types. */
export interface EndpointForm {
  url: string;
  events: string[];
}

const EVENT_WORDS: Record<(typeof EVENT_TYPES)[number], string> = {
  'customer.enrolled': 'A customer joins a card',
  'balance.updated': 'A balance changes (stamps, points or credit awarded, redeemed or corrected)',
  'reward.redeemed': 'A customer redeems the card’s reward',
  'level.changed': 'A customer reaches another level',
  'customer.deleted': 'A customer’s personal data is erased (delete your copy)',
};

/** "Test webhook endpoints" on the test side: which data a page shows is never left to guess. */
const modeWord = (c: ConsoleContext) => (c.livemode ? '' : 'test ');
/** A heading as the switch stands: "Deliveries", or "Test deliveries". */
const titled = (c: ConsoleContext, text: string) => (c.livemode ? text : `Test ${text.charAt(0).toLowerCase()}${text.slice(1)}`);

export const formOf = (row: WebhookRow): EndpointForm => ({ url: row.url, events: row.events });

function statusBadge(status: WebhookRow['status']): Markup {
  return status === 'active' ? html`<span class="badge ok">Active</span>` : html`<span class="badge">Disabled</span>`;
}

function eventsText(events: string[]): Markup {
  return events.includes('*') ? html`All events` : html`${events.map((e, i) => html`${i ? ', ' : ''}<code>${e}</code>`)}`;
}

function endpointFields(form: EndpointForm, errors: FormErrors): Markup {
  return html`${inputField({ name: 'url', label: 'Endpoint URL', type: 'url', value: form.url, error: errors.fields.url, required: true, maxlength: 2048, placeholder: 'https://example.com/loyalty-events', hint: 'Where this server sends events, as a signed POST request. http or https.' })}
${choiceGroup({
  name: 'events',
  legend: 'Events to send',
  type: 'checkbox',
  checked: form.events,
  error: errors.fields.events,
  hint: 'All events, or uncheck it and pick single event types.',
  choices: [
    { value: '*', label: 'All events', hint: 'Every event type, also those added in later versions.' },
    ...EVENT_TYPES.map((type) => ({ value: type, label: html`<code>${type}</code>`, hint: EVENT_WORDS[type] })),
  ],
})}`;
}

export function webhooksBody(c: ConsoleContext, view: { endpoints: WebhookRow[]; form: EndpointForm; errors?: FormErrors; notice?: string; timeZone: string }): Markup {
  const errors = view.errors ?? { fields: {} };
  const full = view.endpoints.length >= MAX_WEBHOOKS_PER_MODE;
  return html`<div class="page-head"><h1>${titled(c, 'Webhook endpoints')}</h1></div>
<p class="muted">A webhook tells another system (your CRM, a shop, an automation service) the moment something happens: a customer joins, a balance changes, a reward is redeemed.
${c.livemode ? 'These endpoints receive events of your live data only.' : 'These endpoints receive events of the test sandbox only; live endpoints are listed under live data.'}</p>
${doneNotice(view.notice)}
${formError(errors.form)}
<section class="endpoint-list" aria-labelledby="endpoints-heading">
  <h2 id="endpoints-heading">${titled(c, 'Endpoints')} <span class="small muted">(${view.endpoints.length} of ${MAX_WEBHOOKS_PER_MODE})</span></h2>
  ${
    view.endpoints.length === 0
      ? html`<p class="empty panel">No ${modeWord(c)}endpoints yet.</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col" class="hide-narrow">Created</th></tr></thead>
  <tbody>${view.endpoints.map(
    (e) => html`<tr><td class="url-cell"><a href="/console/webhooks/${e.id}">${e.url}</a></td><td>${eventsText(e.events)}</td><td>${statusBadge(e.status)}</td><td class="nowrap hide-narrow">${when(e.createdAt, view.timeZone)}</td></tr>`,
  )}</tbody>
</table></div>`
  }
</section>
<form method="post" action="/console/webhooks" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${c.livemode ? 'Add an endpoint' : 'Add a test endpoint'}</h2>
  ${full ? html`<p class="notice warn">You have ${MAX_WEBHOOKS_PER_MODE} ${modeWord(c)}endpoints, the most an organisation may have: delete one first.</p>` : ''}
  ${endpointFields(view.form, errors)}
  <div class="actions"><button type="submit">Add endpoint</button></div>
</form>`;
}

export function createdWebhookBody(c: ConsoleContext, row: WebhookRow): Markup {
  return html`<div class="page-head"><h1>${titled(c, 'Endpoint added')}</h1></div>
<div class="notice ok" role="status"><p>Events ${row.events.includes('*') ? '' : html`(${eventsText(row.events)}) `}are now sent to <strong class="url-cell">${row.url}</strong>.</p></div>
<section class="panel" aria-labelledby="secret-heading">
  <h2 id="secret-heading">Signing secret</h2>
  <p>Every delivery carries an <code>X-Loyalty-Signature</code> header made with this secret, so your system can check that an event really comes from this server (the README shows how, under "Verify the signature").</p>
  ${shownOnce({ id: 'signing-secret', label: 'Signing secret', value: row.secret, warning: 'Store it in the system that receives the events. If you lose it, delete this endpoint and add it again.' })}
  <div class="actions"><a class="button" href="/console/webhooks/${row.id}">Done, I have stored the secret</a></div>
</section>`;
}

function attemptRows(attempts: AttemptRow[], timeZone: string): Markup {
  // data-label: on a phone each attempt is a small card of labelled lines (app.css), not a wide row.
  return html`${attempts.map(
    (a) => html`<tr>
  <td class="num" data-label="Attempt">${a.number}</td>
  <td data-label="Outcome">${a.status === 'succeeded' ? html`<span class="badge ok">Succeeded</span>` : html`<span class="badge danger">Failed</span>`}</td>
  <td class="num" data-label="Response">${a.responseCode ?? html`<span class="muted">none</span>`}</td>
  <td class="error-cell" data-label="Error">${a.error ?? html`<span class="muted">—</span>`}</td>
  <td class="num nowrap" data-label="Duration">${a.durationMs} ms</td>
  <td class="nowrap" data-label="Time">${when(a.at, timeZone, { seconds: true })}</td>
</tr>`,
  )}`;
}

const DELIVERY_BADGE = {
  pending: html`<span class="badge warn">Pending</span>`,
  succeeded: html`<span class="badge ok">Succeeded</span>`,
  failed: html`<span class="badge danger">Failed</span>`,
};

function deliveryBlock(c: ConsoleContext, endpoint: WebhookRow, { delivery, attempts }: DeliveryView, timeZone: string): Markup {
  const headingId = `delivery-${delivery.id}`;
  return html`<article class="delivery" aria-labelledby="${headingId}">
  <div class="spread">
    <h3 id="${headingId}"><code>${delivery.eventType}</code> ${DELIVERY_BADGE[delivery.status]}</h3>
    ${
      endpoint.status === 'active'
        ? html`<form method="post" action="/console/webhooks/${endpoint.id}/deliveries/${delivery.id}/replay" class="inline">${csrfField(c)}<button type="submit" class="secondary small-button" aria-label="Replay ${delivery.eventType} of ${localDateTime(delivery.createdAt, timeZone, { seconds: true })}">Replay</button></form>`
        : ''
    }
  </div>
  <p class="small muted">Event <code>${delivery.eventId}</code> · created ${when(delivery.createdAt, timeZone, { seconds: true })}${
    delivery.nextAttemptAt !== null ? html` · next attempt ${when(delivery.nextAttemptAt, timeZone, { seconds: true })}` : ''
  }${delivery.replayOf ? html` · replay of <code>${delivery.replayOf}</code>` : ''}</p>
  ${
    attempts.length === 0
      ? html`<p class="small">Not sent yet.</p>`
      : html`<div class="table-wrap"><table class="attempts stack-narrow" aria-label="Attempts">
  <thead><tr><th scope="col" class="num">Attempt</th><th scope="col">Outcome</th><th scope="col" class="num">Response</th><th scope="col">Error</th><th scope="col" class="num">Duration</th><th scope="col">Time</th></tr></thead>
  <tbody>${attemptRows(attempts, timeZone)}</tbody>
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

function retryText(delays: readonly number[]): string {
  if (delays.length === 0) return 'A failed attempt is not retried';
  const wait = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
  return `A failed attempt is retried ${delays.length === 1 ? 'once' : `${delays.length} times`} (after ${delays.map(wait).join(', then ')})`;
}

export function endpointBody(c: ConsoleContext, view: EndpointView): Markup {
  const { endpoint } = view;
  const errors = view.errors ?? { fields: {} };
  const active = endpoint.status === 'active';
  return html`<p class="small"><a href="/console/webhooks">← ${titled(c, 'Webhook endpoints')}</a></p>
<div class="page-head"><h1>${titled(c, 'Endpoint')} ${statusBadge(endpoint.status)}</h1></div>
<p class="url-cell"><code>${endpoint.url}</code> · <a href="#deliveries-heading">Deliveries</a></p>
${doneNotice(view.notice)}
${formError(errors.form)}
<div class="grid endpoint-grid">
<form method="post" action="/console/webhooks/${endpoint.id}" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>Settings</h2>
  ${endpointFields(view.form, errors)}
  <div class="actions"><button type="submit">Save changes</button></div>
</form>
<section class="panel" aria-labelledby="state-heading">
  <h2 id="state-heading">${active ? 'Sending' : 'Paused'}</h2>
  <p>${active ? 'Events are sent to this endpoint as they happen.' : 'Nothing is sent to this endpoint, and events that happen meanwhile are not kept for it.'}</p>
  <form method="post" action="/console/webhooks/${endpoint.id}/status" class="actions">
    ${csrfField(c)}<input type="hidden" name="status" value="${active ? 'disabled' : 'active'}">
    <button type="submit" class="secondary">${active ? 'Disable endpoint' : 'Enable endpoint'}</button>
  </form>
  ${active ? html`<p class="small muted">Disabling stops deliveries that are still waiting for a retry.</p>` : ''}
  <h2>Delete</h2>
  <p><a class="button secondary" href="/console/webhooks/${endpoint.id}/delete">Delete endpoint…</a></p>
</section>
</div>
<section aria-labelledby="deliveries-heading">
  <h2 id="deliveries-heading">${titled(c, 'Deliveries')}</h2>
  <p class="muted small">The latest ${DELIVERIES_SHOWN}, newest first, each with every attempt. ${retryText(view.retryDelaysMs)}; replay sends the same event again${active ? '' : ' (enable the endpoint first)'}. History is kept ${WEBHOOK_HISTORY_DAYS} days.</p>
  ${view.deliveries.length === 0 ? html`<p class="empty panel">No deliveries yet. Events are sent here as they happen.</p>` : view.deliveries.map((d) => deliveryBlock(c, endpoint, d, view.timeZone))}
</section>`;
}

export function deleteBody(c: ConsoleContext, endpoint: WebhookRow): Markup {
  return html`<div class="page-head"><h1>Delete this ${modeWord(c)}endpoint?</h1></div>
<section class="panel confirm">
  <p><strong>Delete the endpoint <span class="url-cell">${endpoint.url}</span>? Nothing more is sent to it, and its delivery history is removed.</strong></p>
  <form method="post" action="/console/webhooks/${endpoint.id}/delete" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">Delete endpoint</button>
    <a class="button secondary" href="/console/webhooks/${endpoint.id}">Cancel</a>
  </form>
</section>`;
}
