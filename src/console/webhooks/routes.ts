import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { field, fieldAll, formErrorsFrom, noErrors, parseForm, type FormErrors, type FormFields } from '../../web/forms';
import { CreateWebhookBody } from '../../webhooks/schemas';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, replayDelivery, updateWebhook, type WebhookRow } from '../../webhooks/service';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { createdWebhookBody, deleteBody, DELIVERIES_SHOWN, endpointBody, formOf, webhooksBody, type EndpointForm } from './views';

// Webhooks of the namespace the switch shows: each key mode has its own endpoints
// (decisions §4). Every write is the API's own service call with the API's own body schema, so
// URL rules, the 20-per-mode limit and the messages are the same; a refusal comes back on the form.

const FIELDS = ['url', 'events'] as const;

/** The form is the API body: "All events" posts "*", each event type its name. */
const readEndpointForm = (posted: FormFields): EndpointForm => ({ url: field(posted, 'url'), events: fieldAll(posted, 'events') });

/**
 * Field names as the form has them (`events[1]` is the events group), messages starting with a
 * capital; the API's words for "*" mixed with single types say it in the form's terms.
 */
function onFields(errors: FormErrors): FormErrors {
  const out = noErrors();
  const capital = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);
  for (const [name, message] of Object.entries(errors.fields)) {
    const base = name.replace(/\[\d+\]$/, '');
    const text = message.includes('["*"] alone') ? 'Check "All events" alone, or uncheck it and pick single event types.' : message;
    if ((FIELDS as readonly string[]).includes(base)) out.fields[base] ??= capital(text);
    else out.form ??= capital(text);
  }
  if (errors.form) out.form = capital(errors.form);
  return out;
}

function validated(form: EndpointForm): { ok: true; value: { url: string; events: string[] } } | { ok: false; errors: FormErrors } {
  const parsed = parseForm(CreateWebhookBody, form);
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, errors: onFields(parsed.errors) };
}

const NOTICES: Record<string, string> = {
  saved: 'Saved.',
  disabled: 'The endpoint is disabled: nothing is sent to it.',
  active: 'The endpoint is enabled: events are sent to it again.',
  replayed: 'The event is queued to be sent again: the new delivery is at the top of the list.',
  deleted: 'The endpoint is deleted.',
  otherMode: 'That endpoint belongs to the other data set: use the switch at the top to see it.',
};
const noticeOf = (ctx: Context) => (typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined);

export function bindWebhooks(router: Router, deps: AppDeps): void {
  const timeZone = (ctx: Context) => readOrgSettings(deps.db, consoleOf(ctx).org.id).timeZone;

  const listPage = (ctx: Context, view: { form?: EndpointForm; errors?: FormErrors }, status = 200) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, {
      section: 'webhooks',
      title: c.livemode ? 'Webhooks' : 'Test webhooks',
      status,
      body: webhooksBody(c, { endpoints: listWebhooks(deps, c.namespace), form: view.form ?? { url: '', events: ['*'] }, errors: view.errors, notice: noticeOf(ctx), timeZone: timeZone(ctx) }),
    });
  };

  const endpointPage = (ctx: Context, endpoint: WebhookRow, view: { form?: EndpointForm; errors?: FormErrors }, status = 200) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, {
      section: 'webhooks',
      title: c.livemode ? 'Webhook endpoint' : 'Test webhook endpoint',
      status,
      body: endpointBody(c, {
        endpoint,
        form: view.form ?? formOf(endpoint),
        deliveries: listDeliveries(deps, c.namespace, endpoint.id, DELIVERIES_SHOWN),
        timeZone: timeZone(ctx),
        retryDelaysMs: deps.config.webhooks.retryDelaysMs,
        errors: view.errors,
        notice: noticeOf(ctx),
      }),
    });
  };

  const seeOther = (ctx: Context, path: string) => {
    ctx.status = 303;
    ctx.redirect(path);
  };

  router.get('/console/webhooks', (ctx) => listPage(ctx, {}));

  router.post('/console/webhooks', async (ctx) => {
    const c = consoleOf(ctx);
    const form = readEndpointForm(consoleForm(ctx));
    const checked = validated(form);
    if (!checked.ok) return listPage(ctx, { form, errors: checked.errors }, 400);
    let row: WebhookRow;
    try {
      row = await createWebhook(deps, c.namespace, checked.value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return listPage(ctx, { form, errors: onFields(formErrorsFrom(err, FIELDS)) }, err.status);
    }
    // The secret is shown in this answer only (no-store like every console page), never redirected to.
    sendConsolePage(ctx, deps, c, { section: 'webhooks', title: 'Endpoint added', status: 201, scripts: ['console.js'], body: createdWebhookBody(c, row) });
  });

  router.get('/console/webhooks/:id', (ctx) => {
    const c = consoleOf(ctx);
    const id = ctx.params.id!;
    let endpoint: WebhookRow;
    try {
      endpoint = getWebhook(deps, c.namespace, id);
    } catch (err) {
      // Open on one side of the switch, then switched: lead to the list rather than to "not found".
      if (err instanceof ApiError && err.status === 404 && existsInOtherMode(deps, c.namespace, id)) return seeOther(ctx, '/console/webhooks?done=otherMode');
      throw err;
    }
    endpointPage(ctx, endpoint, {});
  });

  router.post('/console/webhooks/:id', async (ctx) => {
    const c = consoleOf(ctx);
    const endpoint = getWebhook(deps, c.namespace, ctx.params.id!);
    const form = readEndpointForm(consoleForm(ctx));
    const checked = validated(form);
    if (!checked.ok) return endpointPage(ctx, endpoint, { form, errors: checked.errors }, 400);
    try {
      await updateWebhook(deps, c.namespace, endpoint.id, checked.value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return endpointPage(ctx, getWebhook(deps, c.namespace, endpoint.id), { form, errors: onFields(formErrorsFrom(err, FIELDS)) }, err.status);
    }
    seeOther(ctx, `/console/webhooks/${endpoint.id}?done=saved`);
  });

  router.post('/console/webhooks/:id/status', async (ctx) => {
    const c = consoleOf(ctx);
    const status = field(consoleForm(ctx), 'status');
    if (status !== 'active' && status !== 'disabled') throw new ApiError(400, 'VALIDATION_FAILED', { detail: 'status is active or disabled' });
    const row = await updateWebhook(deps, c.namespace, ctx.params.id!, { status });
    seeOther(ctx, `/console/webhooks/${row.id}?done=${status}`);
  });

  router.get('/console/webhooks/:id/delete', (ctx) => {
    const c = consoleOf(ctx);
    const endpoint = getWebhook(deps, c.namespace, ctx.params.id!);
    sendConsolePage(ctx, deps, c, { section: 'webhooks', title: 'Delete endpoint', body: deleteBody(c, endpoint) });
  });

  router.post('/console/webhooks/:id/delete', (ctx) => {
    deleteWebhook(deps, consoleOf(ctx).namespace, ctx.params.id!);
    seeOther(ctx, '/console/webhooks?done=deleted');
  });

  router.post('/console/webhooks/:id/deliveries/:deliveryId/replay', (ctx) => {
    const c = consoleOf(ctx);
    const endpoint = getWebhook(deps, c.namespace, ctx.params.id!);
    let webhookId: string;
    try {
      webhookId = replayDelivery(deps, c.namespace, ctx.params.deliveryId!).delivery.webhookId;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'WEBHOOK_DISABLED') throw err;
      return endpointPage(ctx, endpoint, { errors: { fields: {}, form: 'This endpoint is disabled: enable it before replaying a delivery.' } }, err.status);
    }
    // As the API's replay route: the delivery is committed, wake the worker to send it now.
    deps.afterCommit.eventsWritten();
    seeOther(ctx, `/console/webhooks/${webhookId}?done=replayed`);
  });
}

function existsInOtherMode(deps: AppDeps, namespace: { orgId: string; livemode: boolean }, id: string): boolean {
  try {
    getWebhook(deps, { orgId: namespace.orgId, livemode: !namespace.livemode }, id);
    return true;
  } catch {
    return false;
  }
}
