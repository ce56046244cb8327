import type Router from '@koa/router';
import type { Context } from 'koa';
import { cardColors, cardColorsCss } from '../../cards/face';
import type { Card } from '../../cards/model';
import { cardsRepo } from '../../cards/repo';
import type { Customer } from '../../customers/model';
import type { AppDeps } from '../../deps';
import { customerOfUnsubscribeToken, unsubscribedAt, unsubscribeFromNotices } from '../../mail/unsubscribe';
import { orgsRepo } from '../../orgs/repo';
import type { RateLimiter } from '../../routing/rate-limit';
import { limitAnonymous } from '../../routing/rate-limited';
import { passLogoUrl } from '../../wallet/logo-images';
import { checkPreSessionForm, CSRF_FIELD, preSessionToken } from '../../web/csrf';
import { pageErrors, sendErrorPage } from '../../web/errors';
import { field, readForm } from '../../web/forms';
import type { Markup } from '../../web/html';
import { sendDocument } from '../../web/page';
import { confirmUnsubscribeBody, unsubscribedBody, type UnsubscribeView } from './views';

// GET /unsubscribe/:token — the link in the reminder and birthday emails (mail/unsubscribe.ts):
// the question and its button; POST records the answer and shows the page again, now saying it is
// done. A GET changes nothing, so a mail program or a scanner that opens the link unsubscribes
// nobody. The form is a pre-session form like the sign-up form (a SameSite=Strict cookie it
// repeats, plus Origin); the token in the address says whose emails stop.

const COOKIE_PATH = '/unsubscribe';
const NOT_FOUND = 'This link does not work. Please check that you opened the whole link from the email.';
const REMOVED = 'This loyalty card was removed with your details at your request, so no more emails are sent for it.';

function sendUnsubscribePage(ctx: Context, deps: AppDeps, card: Card, title: string, body: Markup): void {
  sendDocument(ctx, { title: `${title} · ${card.name}`, css: cardColorsCss(cardColors(deps.db, card)), body });
}

/** The customer of the address's token, or the error page already sent. */
function customerOf(ctx: Context, deps: AppDeps): Customer | undefined {
  const found = customerOfUnsubscribeToken(deps, ctx.params.token!);
  if (found === undefined) sendErrorPage(ctx, 404, NOT_FOUND);
  else if (found === 'erased') sendErrorPage(ctx, 410, REMOVED);
  else return found;
  return undefined;
}

function viewOf(deps: AppDeps, customer: Customer): UnsubscribeView {
  // customers.card_id references cards(id) with ON DELETE CASCADE: the card always exists.
  const card = cardsRepo(deps.db).findById(customer.cardId)!;
  const logoUrl = passLogoUrl(card, cardsRepo(deps.db).logoMeta(card.id));
  return { card, orgName: orgsRepo(deps.db).findOrg(card.orgId)?.name ?? '', ...(logoUrl ? { logoUrl } : {}) };
}

export function bindUnsubscribeRoutes(router: Router, deps: AppDeps, limiter: RateLimiter): void {
  router.get('/unsubscribe/:token', pageErrors(deps.log), (ctx) => {
    // Guessing a token is hopeless (its MAC is 132 bits), and slow on top.
    limitAnonymous(ctx, deps, limiter);
    const customer = customerOf(ctx, deps);
    if (!customer) return;
    const view = viewOf(deps, customer);
    if (unsubscribedAt(deps.db, customer.id) !== undefined) return sendUnsubscribePage(ctx, deps, view.card, 'Unsubscribed', unsubscribedBody(view));
    sendUnsubscribePage(ctx, deps, view.card, 'Unsubscribe', confirmUnsubscribeBody(view, preSessionToken(ctx, deps.config, COOKIE_PATH)));
  });

  router.post('/unsubscribe/:token', pageErrors(deps.log), async (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    const form = await readForm(ctx);
    // The emails link to INSTALL_BASE_URL, which may be another address of this server than PUBLIC_URL.
    checkPreSessionForm(ctx, deps.config, field(form, CSRF_FIELD), [deps.config.installBaseUrl]);
    const customer = customerOf(ctx, deps);
    if (!customer) return;
    unsubscribeFromNotices(deps, customer.id);
    // POST-redirect-GET: the page now says it is done, and a reload sends nothing again.
    ctx.status = 303;
    ctx.redirect(`/unsubscribe/${encodeURIComponent(ctx.params.token!)}`);
  });
}
