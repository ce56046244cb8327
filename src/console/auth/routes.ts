import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { oneAtATime } from '../../lib/one-at-a-time';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../lib/password';
import { clearCookie, readCookie, setCookie } from '../../web/cookies';
import { checkPreSessionForm, CSRF_FIELD, preSessionToken } from '../../web/csrf';
import { field, noErrors, readForm } from '../../web/forms';
import { sendDocument } from '../../web/page';
import { CONSOLE_SESSIONS, createSession, endSession, findSession, setSessionMode } from '../../web/sessions';
import { acceptedLang } from '../../i18n/negotiate';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { consoleForm, consoleOf } from '../context';
import { safeNext } from '../guard';
import { sendConsolePage } from '../layout';
import { changePassword, signIn } from './service';
import { passwordBody, signInBody } from './views';

const SIGN_IN_PATH = '/console/sign-in';

/**
 * Before sign-in no admin is known, so the page follows the browser: German when its
 * Accept-Language puts German before English, else English.
 */
export function signInLang(acceptLanguage: string | undefined): ConsoleLang {
  const ours = (acceptLanguage ?? '')
    .split(',')
    .filter((entry) => /^\s*(de|en)(-|\s*;|\s*$)/i.test(entry))
    .join(',');
  return acceptedLang(ours) === 'de' ? 'de' : 'en';
}

/** "10 minutes", "1 Sekunde": how long a paused sign-in waits. */
export const waitWords = (lang: ConsoleLang, seconds: number) =>
  seconds >= 90 ? tConsole(lang, 'console.signIn.minutes', { n: Math.ceil(seconds / 60) }) : tConsole(lang, 'console.signIn.seconds', { n: seconds });

/** Sign-in: the only console pages reachable without a session. */
export function bindSignIn(router: Router, deps: AppDeps): void {
  // This server's sign-in password checks: one at a time, the least busy addresses' first.
  const checks = oneAtATime();
  router.get(SIGN_IN_PATH, (ctx) => {
    const next = safeNext(ctx.query.next);
    if (findSession(deps, CONSOLE_SESSIONS, readCookie(ctx, CONSOLE_SESSIONS.cookie))) return ctx.redirect(next);
    const lang = signInLang(ctx.get('Accept-Language'));
    ctx.state.lang = lang;
    const notice = ctx.query.signedOut === '1' ? tConsole(lang, 'console.signIn.signedOut') : undefined;
    sendDocument(ctx, { lang, title: tConsole(lang, 'console.signIn.pageTitle'), body: signInBody(lang, { csrf: preSessionToken(ctx, deps.config, SIGN_IN_PATH), next, notice }) });
  });

  router.post(SIGN_IN_PATH, async (ctx) => {
    const lang = signInLang(ctx.get('Accept-Language'));
    ctx.state.lang = lang;
    const form = await readForm(ctx);
    checkPreSessionForm(ctx, deps.config, field(form, CSRF_FIELD));
    const email = field(form, 'email').slice(0, 320);
    const password = field(form, 'password').slice(0, PASSWORD_MAX_LENGTH);
    const next = safeNext(field(form, 'next'));
    const again = (status: number, errors: ReturnType<typeof noErrors>) =>
      sendDocument(ctx, { lang, title: tConsole(lang, 'console.signIn.pageTitle'), status, body: signInBody(lang, { csrf: preSessionToken(ctx, deps.config, SIGN_IN_PATH), next, email, errors }) });

    const missing = noErrors();
    if (!email.trim()) missing.fields.email = tConsole(lang, 'console.signIn.enterEmail');
    if (!password) missing.fields.password = tConsole(lang, 'console.signIn.enterPassword');
    if (Object.keys(missing.fields).length) return again(400, missing);

    const outcome = await signIn(deps, { email, password, ip: ctx.ip }, checks);
    if (!outcome.ok) {
      // The same words whether the email exists or not: a sign-in never reveals whether an account exists.
      const form = outcome.lockedSeconds > 0
        ? tConsole(lang, 'console.signIn.paused', { wait: waitWords(lang, outcome.lockedSeconds) })
        : tConsole(lang, 'console.signIn.wrong');
      if (outcome.lockedSeconds > 0) ctx.set('Retry-After', String(outcome.lockedSeconds));
      return again(outcome.lockedSeconds > 0 ? 429 : 401, { fields: {}, form });
    }
    const { token } = createSession(deps, CONSOLE_SESSIONS, { orgId: outcome.admin.orgId, adminId: outcome.admin.id });
    setCookie(ctx, deps.config, CONSOLE_SESSIONS.cookie, token, { path: CONSOLE_SESSIONS.path, maxAge: CONSOLE_SESSIONS.absoluteMs / 1000 });
    ctx.status = 303;
    ctx.redirect(next);
  });
}

/** Behind the guard: sign-out, password change and the live/test switch. */
export function bindAccount(router: Router, deps: AppDeps): void {
  router.post('/console/sign-out', (ctx) => {
    endSession(deps, consoleOf(ctx).session.id);
    clearCookie(ctx, deps.config, CONSOLE_SESSIONS.cookie, CONSOLE_SESSIONS.path);
    ctx.status = 303;
    ctx.redirect(`${SIGN_IN_PATH}?signedOut=1`);
  });

  router.post('/console/mode', (ctx) => {
    const c = consoleOf(ctx);
    const form = consoleForm(ctx);
    const mode = field(form, 'mode');
    if (mode === 'live' || mode === 'test') setSessionMode(deps, c.session.id, mode === 'live');
    ctx.status = 303;
    ctx.redirect(safeNext(field(form, 'returnTo')));
  });

  router.get('/console/password', (ctx) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, { section: null, title: tConsole(c.lang, 'console.password.title'), body: passwordBody(c, { done: ctx.query.done === '1' }) });
  });

  router.post('/console/password', async (ctx) => {
    const c = consoleOf(ctx);
    const form = consoleForm(ctx);
    const current = field(form, 'current');
    const next = field(form, 'next');
    const errors = noErrors();
    const say = (key: Parameters<typeof tConsole>[1], params?: Record<string, number>) => tConsole(c.lang, key, params);
    if (!current) errors.fields.current = say('console.password.enterCurrent');
    if (next.length < PASSWORD_MIN_LENGTH) errors.fields.next = say('console.password.tooShort', { min: PASSWORD_MIN_LENGTH });
    else if (next.length > PASSWORD_MAX_LENGTH) errors.fields.next = say('console.password.tooLong', { max: PASSWORD_MAX_LENGTH });
    else if (next === current) errors.fields.next = say('console.password.same');
    if (!errors.fields.next && field(form, 'confirm') !== next) errors.fields.confirm = say('console.password.notSame');
    if (Object.keys(errors.fields).length === 0) {
      const outcome = await changePassword(deps, { admin: c.admin, sessionId: c.session.id, current, next, ip: ctx.ip, lang: c.lang });
      if (outcome.ok) {
        ctx.status = 303;
        return ctx.redirect('/console/password?done=1');
      }
      errors.fields[outcome.field] = outcome.message;
    }
    sendConsolePage(ctx, deps, c, { section: null, title: tConsole(c.lang, 'console.password.title'), status: 400, body: passwordBody(c, { errors }) });
  });
}
