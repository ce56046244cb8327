import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { getApiKey, listApiKeys, revokeApiKey } from '../../keys/admin';
import { NewKeyInput } from '../../keys/schemas';
import { SCOPES } from '../../keys/scopes';
import { createApiKey } from '../../keys/service';
import { ApiError, inWords } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { field, fieldAll, parseForm, type FormErrors } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { createdKeyBody, keysBody, revokeBody, type KeyForm } from './views';
import { DEVICE_NAME_MAX } from '../../keys/schemas';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { errorsInLang } from '../say';

/** The key schema's messages (shared with the API, in English) as the admin reads them. */
const SCHEMA_MESSAGES: Readonly<Record<string, ConsoleKey | readonly [ConsoleKey, { max: number }]>> = {
  'Name the device or integration that will use this key.': 'console.keys.errName',
  [`At most ${DEVICE_NAME_MAX} characters.`]: ['console.keys.errNameLong', { max: DEVICE_NAME_MAX }],
  'Choose live or test.': 'console.keys.errMode',
  'Unknown permission.': 'console.keys.errScope',
  'Choose at least one permission: a key without any can do nothing.': 'console.keys.errNoScope',
};

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
      title: tConsole(c.lang, 'console.nav.keys'),
      status,
      body: keysBody(c, { keys: listApiKeys(deps, c.org.id), form, timeZone: readOrgSettings(deps.db, c.org.id).timeZone, errors: view.errors, notice: view.notice }),
    });
  };

  /** A key of the signed-in org, by the id in the path; anything else is the same 404. */
  const ownKey = (ctx: Context) => {
    const id = ctx.params.id ?? '';
    if (!KEY_ID.test(id)) throw inWords(new ApiError(404, 'KEY_NOT_FOUND', { detail: tConsole(consoleOf(ctx).lang, 'console.keys.notFound') }));
    return getApiKey(deps, id, consoleOf(ctx).org.id);
  };

  router.get('/console/keys', (ctx) => {
    const revoked = typeof ctx.query.revoked === 'string' && KEY_ID.test(ctx.query.revoked) ? tryKey(deps, ctx.query.revoked, consoleOf(ctx).org.id) : undefined;
    page(ctx, { notice: revoked ? tConsole(consoleOf(ctx).lang, 'console.keys.revokedNotice', { name: revoked.deviceName, hint: revoked.hint }) : undefined });
  });

  router.post('/console/keys', (ctx) => {
    const c = consoleOf(ctx);
    const posted = consoleForm(ctx);
    const form: KeyForm = { deviceName: field(posted, 'deviceName'), mode: field(posted, 'mode'), scopes: fieldAll(posted, 'scopes') };
    const parsed = parseForm(NewKeyInput, form);
    if (!parsed.ok) return page(ctx, { form, errors: errorsInLang(groupErrors(parsed.errors), c.lang, SCHEMA_MESSAGES) }, 400);
    const created = createApiKey(deps, { orgId: c.org.id, deviceName: parsed.value.deviceName, mode: parsed.value.mode, scopes: parsed.value.scopes });
    // Rendered here, not redirected to: the key must never travel in a URL (no-store like every page).
    sendConsolePage(ctx, deps, c, { section: 'keys', title: tConsole(c.lang, 'console.keys.newTitle'), status: 201, scripts: ['console.js'], body: createdKeyBody(created, deps.config.publicUrl, c.lang) });
  });

  router.get('/console/keys/:id/revoke', (ctx) => {
    const c = consoleOf(ctx);
    const key = ownKey(ctx);
    if (key.revokedAt !== null) return page(ctx, { notice: tConsole(c.lang, 'console.keys.alreadyRevoked', { name: key.deviceName, hint: key.hint }) });
    sendConsolePage(ctx, deps, c, { section: 'keys', title: tConsole(c.lang, 'console.keys.revokePageTitle', { name: key.deviceName }), body: revokeBody(c, key, readOrgSettings(deps.db, c.org.id).timeZone) });
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
