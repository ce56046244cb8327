import type { Context } from 'koa';

/**
 * Sets a response header with Node's own setHeader. Koa's `ctx.set` builds an array of entries
 * and normalises each value on every call: ~1 µs each, and an API answer sets five (issue 13).
 * The values here are strings already; like `ctx.set`, nothing happens once the head was sent.
 */
export function setHeader(ctx: Context, name: string, value: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value);
}
