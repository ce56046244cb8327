// Google Wallet's side: the save/delete callback that moves the customer's status, and the class
// logo Google fetches from us.
import type Router from '@koa/router';
import { cardsRepo } from '../../cards/repo';
import { defaultPassImages } from '../apple/default-images';
import { DEFAULT_PASS_COLORS } from '../apple/pass-builder';
import { parseColor } from '../../lib/colors';
import { GoogleCallbackError, verifyGoogleCallback, type GoogleCallbackMessage } from '../google/callback';
import { refreshInstallStatus } from '../install-status';
import { walletRepo } from '../repo';
import { queuePassResend } from '../updates/queue';
import type { WalletDeps } from './deps';
import { readBodyText } from '../../http/body';

type Outcome = 'applied' | 'replayed' | 'unknown_object' | 'ignored' | 'superseded';

export function bindGoogleRoutes(router: Router, deps: WalletDeps): void {
  const { db, clock, log } = deps;

  router.post('/wallet/google/callback', async (ctx) => {
    const google = deps.wallet.google;
    if (!google) {
      ctx.status = 404;
      return;
    }
    const body = (await readBodyText(ctx)) ?? '';
    let message: GoogleCallbackMessage;
    try {
      message = await verifyGoogleCallback(body, {
        issuerId: google.issuerId,
        senderId: deps.config.google.callbackSenderId,
        rootKeys: () => google.rootKeys.get(),
        now: clock.now,
      });
    } catch (err) {
      if (!(err instanceof GoogleCallbackError) || err.code === 'no_root_keys') {
        // Our side cannot check it now (root keys unreachable): 503 so Google tries again.
        log.error('wallet: cannot verify a Google callback', { err });
        ctx.status = 503;
        return;
      }
      log.warn('wallet: Google callback refused', { reason: err.code });
      ctx.status = err.code === 'malformed' ? 400 : 401;
      return;
    }

    const outcome = db.transaction((): Outcome => {
      const repo = walletRepo(db);
      const now = clock.now();
      // Google retries and may deliver twice: act on each nonce once.
      if (!repo.rememberNonce(message.nonce, message.expTimeMillis, now)) return 'replayed';
      const object = repo.googleObjectById(message.objectId);
      if (!object) return 'unknown_object';
      if (message.eventType !== 'save' && message.eventType !== 'del') return 'ignored';
      // Callbacks come in any order: one older than the event applied last changes nothing.
      if (!repo.applyGoogleEvent(object.customerId, message.eventType === 'save' ? now : null, message.expTimeMillis)) return 'superseded';
      // Google built the object from the save link, which shows the balance of when the link was
      // issued; bring it up to date (a PATCH before the save found no object to update).
      if (message.eventType === 'save') queuePassResend(deps, object.customerId);
      refreshInstallStatus(db, clock, object.customerId);
      return 'applied';
    })();
    log.info('wallet: Google callback', { eventType: message.eventType, outcome });
    ctx.status = 200;
  });

  // The class's programLogo: drawn from the card's colours, like the default Apple pass icon.
  router.get('/wallet/cards/:cardId/logo.png', (ctx) => {
    const card = cardsRepo(db).findById(ctx.params.cardId!);
    if (!card) {
      ctx.status = 404;
      return;
    }
    const background = parseColor(card.design?.backgroundColor ?? DEFAULT_PASS_COLORS.background).rgb;
    const foreground = parseColor(card.design?.foregroundColor ?? DEFAULT_PASS_COLORS.foreground).rgb;
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = defaultPassImages({ background, foreground }).icon['icon@3x.png']!;
  });
}
