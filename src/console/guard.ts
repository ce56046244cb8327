import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { adminLang } from '../admins/service';
import { findAdminAndOrg } from '../orgs/service';
import { readCookie, clearCookie } from '../web/cookies';
import { checkOrigin, checkToken, CSRF_FIELD } from '../web/csrf';
import { field, readForm, type FormFields } from '../web/forms';
import { CONSOLE_SESSIONS, endSession, findSession } from '../web/sessions';
import { unsupportedBody, type ConsoleContext } from './context';

const SAFE_METHODS = new Set(['GET', 'HEAD']);
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

const bodiless = (ctx: Context) => !ctx.get('Content-Type') && !ctx.get('Transfer-Encoding') && !(Number(ctx.get('Content-Length')) > 0);

/** A path of this console to come back to after signing in; anything else goes to the start page. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/console(\/[A-Za-z0-9_\-./?=&%]*)?$/.test(next) && !next.includes('//') ? next : '/console';
}

function toSignIn(ctx: Context): void {
  const next = SAFE_METHODS.has(ctx.method) ? ctx.url : '/console';
  const target = `/console/sign-in${next === '/console' ? '' : `?next=${encodeURIComponent(next)}`}`;
  if (ctx.get('HX-Request') === 'true') {
    // htmx follows HX-Redirect with a full page load instead of swapping a sign-in form into a fragment.
    ctx.status = 401;
    ctx.set('HX-Redirect', target);
    ctx.body = '';
    return;
  }
  ctx.status = 303;
  ctx.redirect(target);
}

/**
 * In front of every console page but sign-in: a live session (else to the sign-in page), its admin
 * and org on ctx.state.console, and for every state-changing request the Origin and CSRF checks of
 * decisions §8. A url-encoded form is read here (ctx.state.form, read by routes with consoleForm)
 * so its token is checked before any route sees it; a multipart upload from a plain form carries
 * the token in the `_csrf` query parameter (or, like any request, the X-CSRF-Token header). Any
 * other body is refused with 415.
 */
export function consoleGuard(deps: AppDeps) {
  return async (ctx: Context, next: Next) => {
    const session = findSession(deps, CONSOLE_SESSIONS, readCookie(ctx, CONSOLE_SESSIONS.cookie));
    const signedIn = session?.adminId ? findAdminAndOrg(deps, session.adminId) : undefined;
    if (!session || !signedIn) {
      if (session) endSession(deps, session.id);
      clearCookie(ctx, deps.config, CONSOLE_SESSIONS.cookie, CONSOLE_SESSIONS.path);
      return toSignIn(ctx);
    }
    if (!SAFE_METHODS.has(ctx.method)) {
      checkOrigin(ctx, deps.config);
      const type = ctx.request.is(FORM, MULTIPART);
      if (type === FORM) {
        ctx.state.form = await readForm(ctx);
        checkToken(ctx, session.csrfToken, field(ctx.state.form, CSRF_FIELD));
      } else {
        const fromQuery = type === MULTIPART && typeof ctx.query[CSRF_FIELD] === 'string' ? (ctx.query[CSRF_FIELD] as string) : undefined;
        checkToken(ctx, session.csrfToken, fromQuery);
        // No body at all is an empty form; multipart is read by the upload pages themselves
        // (consoleForm refuses it everywhere else); no console page takes any other body.
        if (bodiless(ctx)) ctx.state.form = Object.create(null) as FormFields;
        else if (type !== MULTIPART) throw unsupportedBody();
      }
    }
    const { admin, org } = signedIn;
    const state: ConsoleContext = {
      session,
      admin,
      org,
      livemode: session.livemode,
      namespace: { orgId: org.id, livemode: session.livemode },
      csrfToken: session.csrfToken,
      lang: adminLang(deps.db, admin),
    };
    ctx.state.console = state;
    await next();
  };
}
