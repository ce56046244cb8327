// The web pass: the card, its live balance and the scan code as a QR code, for customers without
// a wallet app and for servers without wallet certificates. Reached with the install code.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { cardsRepo } from '../../cards/repo';
import { limitAnonymous } from '../../routing/rate-limited';
import type { RateLimiter } from '../../routing/rate-limit';
import { isoTime } from '../../lib/clock';
import { organizationName } from '../apple/customer-pass';
import { findCustomerByInstallCode } from '../install-code';
import { passContent, type PassContent } from '../pass-content';
import { qrSvg } from '../qr';
import { noteWebPassOpened } from '../web-pass-opens';
import type { WalletDeps } from './deps';
import { sendPage } from './html';
import { cardCss, notFoundBody, passLogoUrl, webPassBody, webPassScript } from './pages';

export function bindWebPassRoutes(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
  function load(ctx: Context): { content: PassContent; css: string; updatedAt: number; logoUrl: string | undefined; customerId: string } | undefined {
    limitAnonymous(ctx, deps, limiter);
    const customer = findCustomerByInstallCode(deps.db, ctx.params.code);
    const card = customer && cardsRepo(deps.db).findById(customer.cardId);
    if (!customer || !card) return undefined;
    const logoUrl = passLogoUrl(card, cardsRepo(deps.db).logoMeta(card.id));
    return { content: passContent(card, customer, organizationName(deps.db, card)), css: cardCss(card), updatedAt: customer.passUpdatedAt, logoUrl, customerId: customer.id };
  }

  router.get('/pass/:code', async (ctx) => {
    const found = load(ctx);
    if (!found) return sendPage(ctx, 'Card not found', notFoundBody(), { status: 404 });
    noteWebPassOpened(deps, found.customerId);
    const balanceUrl = `/pass/${encodeURIComponent(ctx.params.code!)}/balance`;
    const qr = await qrSvg(found.content.scanCode);
    sendPage(ctx, found.content.title, webPassBody(found.content, qr, found.logoUrl), { private: true, script: webPassScript(balanceUrl), css: found.css });
  });

  router.get('/pass/:code/balance', (ctx) => {
    const found = load(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json';
    if (!found) {
      ctx.status = 404;
      ctx.body = JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'PASS_NOT_FOUND' });
      return;
    }
    const { content } = found;
    ctx.body = JSON.stringify({
      title: content.title,
      balance: { label: content.balance.label, text: content.balance.text },
      details: content.details.map((d) => ({ key: d.key, label: d.label, value: d.value })),
      updatedAt: isoTime(found.updatedAt),
    });
  });
}
