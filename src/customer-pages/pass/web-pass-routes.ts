// The web pass: the card, its live balance and the scan code as a QR code, for customers without
// a wallet app and for servers without wallet certificates. Reached with the install code.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { cardsRepo } from '../../cards/repo';
import { limitAnonymous } from '../../routing/rate-limited';
import type { RateLimiter } from '../../routing/rate-limit';
import { isoTime } from '../../lib/clock';
import { findCustomerByInstallCode, isErasedInstallCode } from '../../wallet/install-code';
import type { PassContent } from '../../wallet/pass-content';
import { qrSvg } from '../../wallet/qr';
import { noteWebPassOpened } from '../../wallet/web-pass-opens';
import type { WalletDeps } from '../../wallet/http/deps';
import { sendPage } from '../shell';
import { cardCss, cardLook, keepPassNote, notFoundBody, removedCardBody, webPassBody, webPassScript } from './views';
import type { Card, CardLogoMeta } from '../../cards/model';
import { APP_ICON_SIZES, appIconUrl } from '../../wallet/app-icon';
import { cardBackground, passLogoUrl } from '../../wallet/logo-images';
import { html, type Markup } from '../../web/html';
import { customerPassContent } from '../../wallet/customer-content';

const cardBackgroundHex = (card: Card) => `#${cardBackground(card).map((n) => n.toString(16).padStart(2, '0')).join('')}`;

/** What a phone reads to put the card on its home screen: the manifest, the icon, the name and colour. */
function homeScreenHead(code: string, card: Card, logo: CardLogoMeta | undefined, title: string): Markup {
  return html`<link rel="manifest" href="/pass/${encodeURIComponent(code)}/manifest.webmanifest">
<link rel="apple-touch-icon" href="${appIconUrl(card, logo, 180)}">
<meta name="theme-color" content="${cardBackgroundHex(card)}">
<meta name="apple-mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-title" content="${title}">`;
}

export function bindWebPassRoutes(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
  function load(ctx: Context): { content: PassContent; css: string; updatedAt: number; logoUrl: string | undefined; customerId: string; card: Card; logo: CardLogoMeta | undefined } | undefined {
    limitAnonymous(ctx, deps, limiter);
    const customer = findCustomerByInstallCode(deps.db, ctx.params.code);
    const card = customer && cardsRepo(deps.db).findById(customer.cardId);
    if (!customer || !card) return undefined;
    const logo = cardsRepo(deps.db).logoMeta(card.id);
    const logoUrl = passLogoUrl(card, logo);
    return { content: customerPassContent(deps.db, card, customer), css: cardCss(card), updatedAt: customer.passUpdatedAt, logoUrl, customerId: customer.id, card, logo };
  }

  router.get('/pass/:code', async (ctx) => {
    const found = load(ctx);
    if (!found && isErasedInstallCode(deps.db, ctx.params.code)) return sendPage(ctx, 'Card removed', removedCardBody(), { status: 410 });
    if (!found) return sendPage(ctx, 'Card not found', notFoundBody(), { status: 404 });
    noteWebPassOpened(deps, found.customerId);
    const balanceUrl = `/pass/${encodeURIComponent(ctx.params.code!)}/balance`;
    const qr = await qrSvg(found.content.scanCode);
    sendPage(ctx, found.content.title, webPassBody(found.content, qr, found.logoUrl, keepPassNote()), {
      private: true,
      script: webPassScript(balanceUrl),
      css: found.css,
      head: homeScreenHead(ctx.params.code!, found.card, found.logo, found.content.title),
    });
  });

  // The web app manifest: "Add to Home Screen" makes an icon that opens this card, full screen.
  router.get('/pass/:code/manifest.webmanifest', (ctx) => {
    const found = load(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (!found) {
      ctx.status = 404;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'PASS_NOT_FOUND' });
      return;
    }
    const start = `/pass/${encodeURIComponent(ctx.params.code!)}`;
    const background = cardBackgroundHex(found.card);
    ctx.type = 'application/manifest+json';
    ctx.body = JSON.stringify({
      name: found.content.title,
      short_name: found.content.cardName.slice(0, 12),
      description: `${found.content.organizationName}: your loyalty card`,
      start_url: start,
      scope: start,
      display: 'standalone',
      background_color: background,
      theme_color: background,
      icons: APP_ICON_SIZES.filter((size) => size !== 180).map((size) => ({ src: appIconUrl(found.card, found.logo, size), sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' })),
    });
  });

  router.get('/pass/:code/balance', (ctx) => {
    const found = load(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json';
    if (!found && isErasedInstallCode(deps.db, ctx.params.code)) {
      ctx.status = 410;
      ctx.body = JSON.stringify({ statusCode: 410, error: 'Gone', message: 'PASS_REMOVED: the card was removed with the customer’s personal data' });
      return;
    }
    if (!found) {
      ctx.status = 404;
      ctx.body = JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'PASS_NOT_FOUND' });
      return;
    }
    const { content } = found;
    ctx.body = JSON.stringify({
      title: content.title,
      organizationName: content.organizationName,
      stamps: content.stamps,
      ...cardLook(found.card, found.logoUrl),
      balance: { label: content.balance.label, text: content.balance.text },
      details: content.details.map((d) => ({ key: d.key, label: d.label, value: d.value })),
      updatedAt: isoTime(found.updatedAt),
    });
  });
}
