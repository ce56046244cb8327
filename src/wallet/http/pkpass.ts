import type { Context } from 'koa';
import type { Card } from '../../cards/model';

/**
 * The pass's Last-Modified, in the whole seconds HTTP dates carry. A pass that changed within the
 * current second may change again before the second is over, and that version would carry the
 * same date: a device sending it back as If-Modified-Since would be told its copy is current. So
 * a change of the current second is dated one second earlier, which costs at most one download
 * the device did not need, never an update it misses.
 */
export function lastModifiedSeconds(modifiedAt: number, now: number): number {
  return Math.min(Math.floor(modifiedAt / 1000), Math.floor(now / 1000) - 1);
}

/** Sends a signed pass: the MIME type makes Safari and Wallet open it; never cached by proxies. */
export function sendPkpass(ctx: Context, pkpass: Buffer, card: Card, lastModified: number): void {
  const fileName = card.name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'loyalty-card';
  ctx.status = 200;
  ctx.type = 'application/vnd.apple.pkpass';
  ctx.set('Content-Disposition', `attachment; filename="${fileName}.pkpass"`);
  ctx.set('Last-Modified', new Date(lastModified * 1000).toUTCString());
  ctx.set('Cache-Control', 'no-store');
  ctx.body = pkpass;
}
