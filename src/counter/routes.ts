import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { embeddedAsset } from '../lib/embedded-assets';
import { acceptedLang } from '../i18n/negotiate';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { orgsRepo, type OrgRow } from '../orgs/repo';
import { readOrgSettings } from '../orgs/settings';
import { assetUrl } from '../web/assets';
import { checkPreSessionForm, CSRF_FIELD, preSessionToken } from '../web/csrf';
import { pageErrors, sendErrorPage } from '../web/errors';
import { field, readForm } from '../web/forms';
import { html } from '../web/html';
import { sendDocument } from '../web/page';
import { setSessionMode } from '../web/sessions';
import { orgAccent } from '../cards/face';
import { themeCss } from '../web/theme';
import { bindCounterActions } from './actions';
import { UNDO_WINDOW_MS } from './service';
import { checkCounterRequest, COUNTER_PATH, counterSession, deviceId, lockCounter, startCounterSession } from './session';
import { unlock } from './unlock';
import { counterPage, counterPath, pinPage } from './views';

// {PUBLIC_URL}/counter/<orgId>, one address per shop: the PIN screen while locked, the counter once a
// staff member unlocked it; its service worker at /counter/sw.js (scope /counter/, so it cannot
// live under /assets/ with a hash); the requests of the page's script in actions.ts.

/** The scanner's wasm runs under the page's CSP: 'wasm-unsafe-eval' allows compiling it, nothing else. */
const COUNTER_CSP = { 'script-src': ["'wasm-unsafe-eval'"] };

const modeOf = (value: unknown): 'live' | 'test' => (value === 'test' ? 'test' : 'live');

export function counterRouter(deps: AppDeps): Router {
  const router = new Router();
  const boundary = pageErrors(deps.log);
  /** The counter pages' error boundary: an error page (an expired form, a refused unlock) speaks the shop's language. */
  const pages = (ctx: Context, next: Next) =>
    boundary(ctx, async () => {
      const org = orgsRepo(deps.db).findOrg(ctx.params.orgId!);
      if (org) ctx.state.lang = readOrgSettings(deps.db, org.id).language;
      await next();
    });

  // The service worker: a stable address, never cached by the browser's HTTP cache, so a new
  // release's worker is picked up at the next visit. The counter page names its shop (`?org=`):
  // the worker's own offline page is then in the shop's language (without a shop, the browser's).
  router.get(`${COUNTER_PATH}/sw.js`, (ctx) => {
    const org = typeof ctx.query.org === 'string' ? orgsRepo(deps.db).findOrg(ctx.query.org) : undefined;
    const lang = org ? langOf(org) : (acceptedLang(ctx.get('Accept-Language')) ?? 'en');
    const texts = { lang, title: t(lang, 'counter.offline.title'), heading: t(lang, 'counter.offline.heading'), body: t(lang, 'counter.offline.body'), retry: t(lang, 'counter.offline.retry') };
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (!org) ctx.set('Vary', 'Accept-Language');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = Buffer.concat([Buffer.from(`self.counterOfflineTexts = ${JSON.stringify(texts).replace(/</g, '\\u003c')};\n`), embeddedAsset('counter-sw.js').bytes]);
  });

  const findOrg = (ctx: Context): OrgRow | undefined => {
    const org = orgsRepo(deps.db).findOrg(ctx.params.orgId!);
    // No shop, so no shop's language: the browser's, if it is one of ours.
    if (!org) sendErrorPage(ctx, 404, t(acceptedLang(ctx.get('Accept-Language')) ?? 'en', 'counter.noCounter'));
    return org;
  };
  /** Staff at the counter read the shop's language (org setting). */
  const langOf = (org: OrgRow): Lang => readOrgSettings(deps.db, org.id).language;

  const sendPin = (ctx: Context, org: OrgRow, mode: 'live' | 'test', status = 200, error?: string) => {
    const lang = langOf(org);
    sendDocument(ctx, {
      title: t(lang, 'counter.pin.title', { shop: org.name }),
      lang,
      status,
      css: themeCss(orgAccent(deps.db, org.id)),
      scripts: ['counter.js'],
      bodyClass: 'counter-body',
      body: pinPage({ org, lang, csrf: preSessionToken(ctx, deps.config, COUNTER_PATH), mode, error }),
    });
  };

  router.get('/counter/:orgId', pages, (ctx) => {
    const org = findOrg(ctx);
    if (!org) return;
    deviceId(ctx, deps);
    const counter = counterSession(ctx, deps, org.id);
    if (!counter) return sendPin(ctx, org, modeOf(ctx.query.mode));
    // The page a service worker may keep for offline use (only this one: never the PIN screen).
    ctx.set('X-Counter-Shell', '1');
    sendDocument(ctx, {
      title: t(counter.settings.language, 'counter.title', { shop: org.name }),
      lang: counter.settings.language,
      css: themeCss(orgAccent(deps.db, org.id)),
      scripts: ['counter.js'],
      csp: COUNTER_CSP,
      bodyClass: 'counter-body',
      body: counterPage({
        counter,
        livemode: counter.session.livemode,
        wasmUrl: assetUrl('zxing-reader.wasm'),
        lockAfterMs: counter.settings.counter.lockAfterMinutes * 60_000,
        undoMinutes: UNDO_WINDOW_MS / 60_000,
      }),
    });
  });

  router.post('/counter/:orgId/unlock', pages, async (ctx) => {
    const form = await readForm(ctx);
    checkPreSessionForm(ctx, deps.config, field(form, CSRF_FIELD));
    const org = findOrg(ctx);
    if (!org) return;
    const mode = modeOf(field(form, 'mode'));
    const pin = field(form, 'pin').trim();
    if (!pin) return sendPin(ctx, org, mode, 400, t(langOf(org), 'counter.pin.missing'));
    const outcome = unlock(deps, { orgId: org.id, device: deviceId(ctx, deps), ip: ctx.ip, pin, lang: langOf(org) });
    if (!outcome.ok) {
      if (outcome.lockedSeconds > 0) ctx.set('Retry-After', String(outcome.lockedSeconds));
      return sendPin(ctx, org, mode, outcome.lockedSeconds > 0 ? 429 : 401, outcome.message);
    }
    startCounterSession(ctx, deps, org, outcome.staff, mode === 'live');
    ctx.status = 303;
    ctx.redirect(counterPath(org.id));
  });

  router.post('/counter/:orgId/lock', pages, async (ctx) => {
    const form = await readForm(ctx);
    const counter = counterSession(ctx, deps, ctx.params.orgId!);
    // Locking a counter that is already locked needs no proof; ending a live session does.
    if (counter) checkCounterRequest(ctx, deps, counter, field(form, CSRF_FIELD));
    lockCounter(ctx, deps, counter);
    ctx.status = 303;
    ctx.redirect(counterPath(ctx.params.orgId!));
  });

  router.post('/counter/:orgId/mode', pages, async (ctx) => {
    const form = await readForm(ctx);
    const counter = counterSession(ctx, deps, ctx.params.orgId!);
    if (counter) {
      checkCounterRequest(ctx, deps, counter, field(form, CSRF_FIELD));
      setSessionMode(deps, counter.session.id, modeOf(field(form, 'mode')) === 'live');
    }
    ctx.status = 303;
    ctx.redirect(counterPath(ctx.params.orgId!));
  });

  // The page the service worker shows when the counter cannot reach the server and has no copy of
  // the counter: the counter page keeps it (client/offline.ts), so it is in the shop's language.
  router.get('/counter/:orgId/offline', pages, (ctx) => {
    const org = findOrg(ctx);
    if (!org) return;
    const lang = langOf(org);
    sendDocument(ctx, {
      title: t(lang, 'counter.offline.title'),
      lang,
      bodyClass: 'counter-body',
      body: html`<main class="centered"><div class="box" role="alert"><h1>${t(lang, 'counter.offline.heading')}</h1><p>${t(lang, 'counter.offline.body')}</p><p><a href="${counterPath(org.id)}">${t(lang, 'counter.offline.retry')}</a></p></div></main>`,
    });
  });

  bindCounterActions(router, deps);
  return router;
}
