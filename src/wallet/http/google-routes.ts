// Google Wallet's side: the save/delete callback that moves the customer's status, and the class
// logo Google fetches from us. The rules are in wallet/google/callback-service.ts and class-logo.ts.
import type Router from '@koa/router';
import { limitAnonymous } from '../../routing/rate-limited';
import type { RateLimiter } from '../../routing/rate-limit';
import { receiveGoogleCallback } from '../google/callback-service';
import type { Context } from 'koa';
import { classLogoPng, passLogoPng } from '../google/class-logo';
import type { WalletDeps } from './deps';
import { APP_ICON_SIZES, appIconPng } from '../app-icon';
import { readBodyText } from '../../routing/json-body';

export function bindGoogleRoutes(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
  router.post('/wallet/google/callback', async (ctx) => {
    const google = deps.wallet.google;
    if (!google) {
      ctx.status = 404;
      return;
    }
    const result = await receiveGoogleCallback(deps, google, deps.config.google.callbackSenderId, (await readBodyText(ctx)) ?? '');
    // 503 makes Google try again later; a refusal is final.
    ctx.status = result.kind === 'unverifiable' ? 503 : result.kind === 'refused' ? (result.malformed ? 400 : 401) : 200;
  });

  // Public and unauthenticated, like the install page: it shares that per-address budget. Google
  // fetches it rarely (it keeps its own copy), so the limit only ever meets a flood.
  router.get('/wallet/cards/:cardId/logo.png', (ctx) => sendPng(ctx, classLogoPng));
  // The uploaded logo in its own proportions, for the web pass and the console's preview.
  router.get('/wallet/cards/:cardId/pass-logo.png', (ctx) => sendPng(ctx, passLogoPng));
  // The web pass's home-screen icons (wallet/app-icon.ts).
  for (const size of APP_ICON_SIZES) router.get(`/wallet/cards/:cardId/app-icon-${size}.png`, (ctx) => sendPng(ctx, (db, cardId) => appIconPng(db, cardId, size)));

  function sendPng(ctx: Context, draw: (db: WalletDeps['db'], cardId: string) => Buffer | undefined): void {
    limitAnonymous(ctx, deps, limiter);
    const png = draw(deps.db, ctx.params.cardId!);
    if (!png) {
      ctx.status = 404;
      return;
    }
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = png;
  }
}
