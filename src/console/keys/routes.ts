import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { getApiKey, listApiKeys, revokeApiKey } from '../../keys/admin';
import { NewKeyInput } from '../../keys/schemas';
import { SCOPES } from '../../keys/scopes';
import { createApiKey } from '../../keys/service';
import { ApiError } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { field, fieldAll, parseForm, type FormErrors } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { createdKeyBody, keysBody, revokeBody, type KeyForm } from './views';

// API keys: create with a device name, mode and scopes; the raw key is shown once, in
// the answer to the POST (never in a URL or a redirect); list with hint, mode, scopes and last use;
// revoke after a confirmation step. Keys are the org's credentials rather than data of one mode, so
// the page lists both modes apart, the switch's mode first and preselected for a new key.

const KEY_ID = /^key_[A-Za-z0-9]{1,64}$/;

export function bindKeys(router: Router, deps: AppDeps): void {
  const page = (ctx: Context, view: { form?: KeyForm; errors?: FormErrors; notice?: string }, status = 200) => {
    const c = consoleOf(ctx);
    const form = view.form ?? { deviceName: '', mode: c.livemode ? 'live' : 'test', scopes: [...SCOPES] };
    sendConsolePage(ctx, deps, c, {
      section: 'keys',
      title: 'API keys',
      status,
      body: keysBody(c, { keys: listApiKeys(deps, c.org.id), form, timeZone: readOrgSettings(deps.db, c.org.id).timeZone, errors: view.errors, notice: view.notice }),
    });
  };

  /** A key of the signed-in org, by the id in the path; anything else is the same 404. */
  const ownKey = (ctx: Context) => {
    const id = ctx.params.id ?? '';
    if (!KEY_ID.test(id)) throw new ApiError(404, 'KEY_NOT_FOUND', { detail: 'no such key' });
    return getApiKey(deps, id, consoleOf(ctx).org.id);
  };

  router.get('/console/keys', (ctx) => {
    const revoked = typeof ctx.query.revoked === 'string' && KEY_ID.test(ctx.query.revoked) ? tryKey(deps, ctx.query.revoked, consoleOf(ctx).org.id) : undefined;
    page(ctx, { notice: revoked ? `Key ${revoked.deviceName} (${revoked.hint}) is revoked: requests made with it are refused.` : undefined });
  });

  router.post('/console/keys', (ctx) => {
    const c = consoleOf(ctx);
    const posted = consoleForm(ctx);
    const form: KeyForm = { deviceName: field(posted, 'deviceName'), mode: field(posted, 'mode'), scopes: fieldAll(posted, 'scopes') };
    const parsed = parseForm(NewKeyInput, form);
    if (!parsed.ok) return page(ctx, { form, errors: groupErrors(parsed.errors) }, 400);
    const created = createApiKey(deps, { orgId: c.org.id, deviceName: parsed.value.deviceName, mode: parsed.value.mode, scopes: parsed.value.scopes });
    // Rendered here, not redirected to: the key must never travel in a URL (no-store like every page).
    sendConsolePage(ctx, deps, c, { section: 'keys', title: 'Your new API key', status: 201, scripts: ['console.js'], body: createdKeyBody(created, deps.config.publicUrl) });
  });

  router.get('/console/keys/:id/revoke', (ctx) => {
    const c = consoleOf(ctx);
    const key = ownKey(ctx);
    if (key.revokedAt !== null) return page(ctx, { notice: `Key ${key.deviceName} (${key.hint}) is already revoked.` });
    sendConsolePage(ctx, deps, c, { section: 'keys', title: `Revoke ${key.deviceName}`, body: revokeBody(c, key, readOrgSettings(deps.db, c.org.id).timeZone) });
  });

  router.post('/console/keys/:id/revoke', (ctx) => {
    const key = ownKey(ctx);
    try {
      revokeApiKey(deps, key.id, consoleOf(ctx).org.id);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'KEY_ALREADY_REVOKED') throw err;
      // Revoked meanwhile (another tab, the CLI): what the admin wanted is so.
    }
    ctx.status = 303;
    ctx.redirect(`/console/keys?revoked=${encodeURIComponent(key.id)}`);
  });
}

function tryKey(deps: AppDeps, id: string, orgId: string) {
  try {
    return getApiKey(deps, id, orgId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** Issues on `scopes[2]` belong to the scopes group. */
function groupErrors(errors: FormErrors): FormErrors {
  const fields: Record<string, string> = {};
  for (const [name, message] of Object.entries(errors.fields)) fields[name.replace(/\[\d+\]$/, '')] ??= message;
  return { ...errors, fields };
}
