import type { Context } from 'koa';
import type { Card } from '../../cards/model';

/** Sends a signed pass: the MIME type makes Safari and Wallet open it; never cached by proxies. */
export function sendPkpass(ctx: Context, pkpass: Buffer, card: Card, modifiedAt: number): void {
  const fileName = card.name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'loyalty-card';
  ctx.status = 200;
  ctx.type = 'application/vnd.apple.pkpass';
  ctx.set('Content-Disposition', `attachment; filename="${fileName}.pkpass"`);
  ctx.set('Last-Modified', new Date(Math.floor(modifiedAt / 1000) * 1000).toUTCString());
  ctx.set('Cache-Control', 'no-store');
  ctx.body = pkpass;
}
