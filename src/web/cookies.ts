import type { Context } from 'koa';
import type { Config } from '../config';

// Cookies of the merchant pages: HttpOnly, SameSite=Strict, Secure when PUBLIC_URL is
// https. Written by hand rather than through Koa's cookies: Koa refuses a Secure cookie on a request
// it sees as plain http, which is exactly the case behind a TLS-terminating proxy. A request that
// came over HTTPS is marked too: directly, or through a proxy trusted with TRUST_PROXY, whose
// X-Forwarded-Proto Koa reads then (and ignores otherwise).

export interface CookieOptions {
  path: string;
  /** Seconds; without it the cookie ends with the browser session. */
  maxAge?: number;
}

const NAME = /^[A-Za-z0-9_-]+$/;
const VALUE = /^[A-Za-z0-9_.-]*$/;

export function setCookie(ctx: Context, config: Pick<Config, 'publicUrl'>, name: string, value: string, options: CookieOptions): void {
  if (!NAME.test(name) || !VALUE.test(value)) throw new Error(`cookie ${name}: only token characters are written`);
  const parts = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAge))}`);
  if (config.publicUrl.startsWith('https:') || ctx.secure) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(ctx: Context, config: Pick<Config, 'publicUrl'>, name: string, path: string): void {
  setCookie(ctx, config, name, '', { path, maxAge: 0 });
}

/** The cookie's value, or undefined; a value that is not a plain token is ignored. */
export function readCookie(ctx: Context, name: string): string | undefined {
  const header = ctx.get('Cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return VALUE.test(value) && value !== '' ? value : undefined;
  }
  return undefined;
}
