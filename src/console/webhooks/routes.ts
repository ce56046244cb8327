import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { addFieldError, addFormError, field, fieldAll, formErrorsFrom, noErrors, parseForm, type FormErrors, type FormFields } from '../../web/forms';
import { CreateWebhookBody } from '../../webhooks/schemas';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, MAX_WEBHOOKS_PER_MODE, replayDelivery, updateWebhook, type WebhookRow } from '../../webhooks/service';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { errorsInLang } from '../say';
import { createdWebhookBody, deleteBody, DELIVERIES_SHOWN, endpointBody, formOf, webhooksBody, type EndpointForm } from './views';

// Webhooks of the namespace the switch shows: each key mode has its own endpoints (a live key
// never sees test endpoints, nor a test key live ones). Every write is the API's own service call with the API's own body schema, so
// URL rules, the 20-per-mode limit and the messages are the same; a refusal comes back on the form.

const FIELDS = ['url', 'events'] as const;

/** The form is the API body: "All events" posts "*", each event type its name. */
const readEndpointForm = (posted: FormFields): EndpointForm => ({ url: field(posted, 'url'), events: fieldAll(posted, 'events') });

/**
 * Field names as the form has them (`events[1]` is the events group), messages starting with a
 * capital; the API's words for "*" mixed with single types say it in the form's terms.
 */
function onFields(errors: FormErrors, lang: ConsoleLang): FormErrors {
  const out = noErrors();
  const capital = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);
  // The form's own message first: a field's that has no place of its own goes there only without one.
  if (errors.form) addFormError(out, capital(errors.form), errors.reasons?.form);
  for (const [name, message] of Object.entries(errors.fields)) {
    const base = name.replace(/\[\d+\]$/, '');
    const text = message.includes('["*"] alone') ? tConsole(lang, 'console.webhooks.errAllAlone') : message;
    const reason = errors.reasons?.fields[name];
    if ((FIELDS as readonly string[]).includes(base)) addFieldError(out, base, capital(text), reason);
    else addFormError(out, capital(text), reason);
  }
  return errorsInLang(out, lang, API_MESSAGES);
}

/** The API's messages (English, shared with integrators) as the admin reads them. */
const API_MESSAGES: Readonly<Record<string, ConsoleKey | readonly [ConsoleKey, MessageParams]>> = {
  'Must be an absolute http(s) URL': 'console.webhooks.errUrl',
  'Must not contain a user name or password; verify the X-Loyalty-Signature of each delivery instead': 'console.webhooks.errCredentials',
  'Must list at least one event type': 'console.webhooks.errNoEvents',
  [`An organisation may have ${MAX_WEBHOOKS_PER_MODE} live endpoints; delete one first`]: ['console.webhooks.full', { mode: 'live', max: MAX_WEBHOOKS_PER_MODE }],
  [`An organisation may have ${MAX_WEBHOOKS_PER_MODE} test endpoints; delete one first`]: ['console.webhooks.full', { mode: 'test', max: MAX_WEBHOOKS_PER_MODE }],
};

function validated(form: EndpointForm, lang: ConsoleLang): { ok: true; value: { url: string; events: string[] } } | { ok: false; errors: FormErrors } {
  const parsed = parseForm(CreateWebhookBody, form);
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, errors: onFields(parsed.errors, lang) };
}

const NOTICES: Record<string, ConsoleKey> = {
  saved: 'console.settings.saved',
  disabled: 'console.webhooks.doneDisabled',
  active: 'console.webhooks.doneActive',
  replayed: 'console.webhooks.doneReplayed',
  deleted: 'console.webhooks.doneDeleted',
  otherMode: 'console.webhooks.doneOtherMode',
};
const noticeOf = (ctx: Context) => {
  const key = typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined;
  return key && tConsole(consoleOf(ctx).lang, key);
};
const titleOf = (c: { lang: ConsoleLang; livemode: boolean }, key: ConsoleKey) => tConsole(c.lang, key, { mode: c.livemode ? 'live' : 'test' });

export function bindWebhooks(router: Router, deps: AppDeps): void {
  const timeZone = (ctx: Context) => readOrgSettings(deps.db, consoleOf(ctx).org.id).timeZone;

  const listPage = (ctx: Context, view: { form?: EndpointForm; errors?: FormErrors }, status = 200) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, {
      section: 'webhooks',
      title: titleOf(c, 'console.webhooks.pageTitle'),
      status,
      body: webhooksBody(c, { endpoints: listWebhooks(deps, c.namespace), form: view.form ?? { url: '', events: ['*'] }, errors: view.errors, notice: noticeOf(ctx), timeZone: timeZone(ctx) }),
    });
  };

  const endpointPage = (ctx: Context, endpoint: WebhookRow, view: { form?: EndpointForm; errors?: FormErrors }, status = 200) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, {
      section: 'webhooks',
      title: titleOf(c, 'console.webhooks.endpointPageTitle'),
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
    const checked = validated(form, c.lang);
    if (!checked.ok) return listPage(ctx, { form, errors: checked.errors }, 400);
    let row: WebhookRow;
    try {
      row = await createWebhook(deps, c.namespace, checked.value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return listPage(ctx, { form, errors: onFields(formErrorsFrom(err, FIELDS), c.lang) }, err.status);
    }
    // The secret is shown in this answer only (no-store like every console page), never redirected to.
    sendConsolePage(ctx, deps, c, { section: 'webhooks', title: titleOf(c, 'console.webhooks.addedTitle'), status: 201, scripts: ['console.js'], body: createdWebhookBody(c, row) });
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
    const checked = validated(form, c.lang);
    if (!checked.ok) return endpointPage(ctx, endpoint, { form, errors: checked.errors }, 400);
    try {
      await updateWebhook(deps, c.namespace, endpoint.id, checked.value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return endpointPage(ctx, getWebhook(deps, c.namespace, endpoint.id), { form, errors: onFields(formErrorsFrom(err, FIELDS), c.lang) }, err.status);
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
    sendConsolePage(ctx, deps, c, { section: 'webhooks', title: titleOf(c, 'console.webhooks.delete'), body: deleteBody(c, endpoint) });
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
      return endpointPage(ctx, endpoint, { errors: { fields: {}, form: tConsole(c.lang, 'console.webhooks.errReplayDisabled') } }, err.status);
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
