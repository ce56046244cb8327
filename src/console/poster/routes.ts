import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { tConsole } from '../../i18n/translate';
import { cardColors, cardFaceVars } from '../../cards/face';
import { field, type FormFields } from '../../web/forms';
import { html, raw } from '../../web/html';
import { consoleOf } from '../context';
import { cardLogoMeta } from '../../cards/service';
import { passLogoUrl } from '../../wallet/logo-images';
import { readOrgSettings } from '../../orgs/settings';
import { csrfField, sendConsolePage } from '../layout';
import { assertSignupOpen, downloadName, downloadPng, downloadSvg, markPosterPrinted, posterCard, posterLink, posterQrSvg, printablePoster } from './service';
import { paperSize, posterBody, posterPrintCss } from './views';

// The counter poster of a card: GET /console/cards/:cardId/poster (?size=a4|a5|a6), its QR code
// as downloads, and "Printed — mark done" for the start checklist. Behind the console guard like
// every section.

function sendDownload(ctx: Context, body: Buffer | string, type: string, fileName: string): void {
  ctx.status = 200;
  ctx.type = type;
  ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = body;
}

export function bindPoster(router: Router, deps: AppDeps): void {
  router.get('/console/cards/:cardId/poster', async (ctx) => {
    const c = consoleOf(ctx);
    const card = posterCard(deps.db, c.org.id, ctx.params.cardId!, c.lang);
    const size = paperSize(ctx.query.size);
    const link = posterLink(deps.config, card);
    const qrSvg = card.dataCollectionEnabled && card.archivedAt === null ? await posterQrSvg(link, c.lang) : null;
    const printed = {
      possible: printablePoster(link),
      done: readOrgSettings(deps.db, c.org.id).started.posterPrintedAt !== null,
      justNow: ctx.query.done === 'printed',
      form: csrfField(c),
    };
    sendConsolePage(ctx, deps, c, {
      section: 'cards',
      title: tConsole(c.lang, 'console.poster.title', { card: card.name }),
      // The card's colours and the paper's page box, generated here from parsed values: safe under the nonce.
      body: (nonce) => html`<style nonce="${nonce}">${raw(`.poster{${cardFaceVars(cardColors(deps.db, card))}}${posterPrintCss(size)}`)}</style>
${posterBody({ card, orgName: c.org.name, link, size, qrSvg, livemode: c.livemode, logoUrl: passLogoUrl(card, cardLogoMeta(deps, card.id)), printed, lang: c.lang, shopLang: readOrgSettings(deps.db, c.org.id).language })}`,
    });
  });

  router.post('/console/cards/:cardId/poster/printed', (ctx) => {
    const c = consoleOf(ctx);
    const card = posterCard(deps.db, c.org.id, ctx.params.cardId!, c.lang);
    markPosterPrinted(deps, c.org.id, card, c.lang);
    ctx.status = 303;
    ctx.redirect(`/console/cards/${encodeURIComponent(card.id)}/poster?size=${paperSize(field(ctx.state.form as FormFields, 'size'))}&done=printed`);
  });

  router.get('/console/cards/:cardId/poster/qr.svg', async (ctx) => {
    const card = posterCard(deps.db, consoleOf(ctx).org.id, ctx.params.cardId!, consoleOf(ctx).lang);
    assertSignupOpen(card, consoleOf(ctx).lang);
    sendDownload(ctx, await downloadSvg(posterLink(deps.config, card)), 'image/svg+xml', downloadName(card, 'svg'));
  });

  router.get('/console/cards/:cardId/poster/qr.png', async (ctx) => {
    const card = posterCard(deps.db, consoleOf(ctx).org.id, ctx.params.cardId!, consoleOf(ctx).lang);
    assertSignupOpen(card, consoleOf(ctx).lang);
    sendDownload(ctx, await downloadPng(posterLink(deps.config, card)), 'image/png', downloadName(card, 'png'));
  });
}
