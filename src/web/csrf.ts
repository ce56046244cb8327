import type { Context } from 'koa';
import type { Config } from '../config';
import { ApiError } from '../lib/errors';
import { randomToken } from '../lib/ids';
import { sameLengthTextEqual } from '../lib/secrets';
import { readCookie, setCookie } from './cookies';

// Every state-changing request of the merchant pages passes two checks:
// 1. Origin: the browser's own statement of which page sent it must be this server (PUBLIC_URL, or
//    the address the request came to). A missing Origin is refused: every browser this serves sends
//    one on a POST (pages set Referrer-Policy same-origin, under which it is never `null`).
// 2. A token only our own page could know: the session's CSRF token, in the form field `_csrf` or
//    the `X-CSRF-Token` header (htmx sends it from the page's hx-headers). Before there is a
//    session (sign-in, counter unlock, the public sign-up form) the token is a random value in a
//    SameSite=Strict cookie that the form repeats (double submit).

export const CSRF_FIELD = '_csrf';
const FORM_COOKIE = 'wl_form';

const forbidden = (detail: string) => new ApiError(403, 'CSRF_CHECK_FAILED', { detail });

/** `alsoFrom`: more addresses of this server whose pages may post (the sign-up form's INSTALL_BASE_URL). */
export function checkOrigin(ctx: Context, config: Pick<Config, 'publicUrl'>, alsoFrom: readonly string[] = []): void {
  const origin = ctx.get('Origin');
  if (!origin) throw forbidden('the request carries no Origin header');
  const allowed = new Set([new URL(config.publicUrl).origin, `${ctx.protocol}://${ctx.host}`, ...alsoFrom.map((url) => new URL(url).origin)]);
  if (!allowed.has(origin)) throw forbidden(`a page of ${origin} cannot send this request`);
}

/** The token the request carries in the form or the X-CSRF-Token header must equal `expected`. */
export function checkToken(ctx: Context, expected: string, formValue: string | undefined): void {
  const given = formValue || ctx.get('X-CSRF-Token');
  if (!given || !sameLengthTextEqual(expected, given)) throw forbidden('the form has expired; reload the page and try again');
}

/** The pre-session token for a public form: the cookie's value, set when the page is first shown. */
export function preSessionToken(ctx: Context, config: Pick<Config, 'publicUrl'>, path: string): string {
  const existing = readCookie(ctx, FORM_COOKIE) ?? (ctx.state.preSessionToken as string | undefined);
  if (existing && existing.length >= 32) return existing;
  const token = randomToken(32);
  setCookie(ctx, config, FORM_COOKIE, token, { path });
  // A page with two forms (the language switcher and "Email me my card") sets one cookie, not two
  // of which the browser keeps only the last: every form of the response carries the same token.
  ctx.state.preSessionToken = token;
  return token;
}

/** Checks a pre-session form: Origin, and the field equal to the cookie. */
export function checkPreSessionForm(ctx: Context, config: Pick<Config, 'publicUrl'>, formValue: string | undefined, alsoFrom: readonly string[] = []): void {
  checkOrigin(ctx, config, alsoFrom);
  const cookie = readCookie(ctx, FORM_COOKIE);
  if (!cookie) throw forbidden('cookies are needed for this form; allow them and reload the page');
  checkToken(ctx, cookie, formValue);
}
