import type Router from '@koa/router';
import type { Context } from 'koa';
import { cardColors, cardColorsCss } from '../../cards/face';
import { cardsRepo } from '../../cards/repo';
import type { Customer } from '../../customers/model';
import type { AppDeps } from '../../deps';
import { customerOfUnsubscribeToken, unsubscribedAt, unsubscribeFromNotices } from '../../mail/unsubscribe';
import { orgsRepo } from '../../orgs/repo';
import type { RateLimiter } from '../../routing/rate-limit';
import { limitAnonymous } from '../../routing/rate-limited';
import { passLogoUrl } from '../../wallet/logo-images';
import { checkPreSessionForm, CSRF_FIELD, preSessionToken } from '../../web/csrf';
import { isLang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import { errorLang, pageErrors, sendErrorPage } from '../../web/errors';
import { customerPageLang, languageLinks, withLang } from '../lang';
import { field, readForm } from '../../web/forms';
import type { Markup } from '../../web/html';
import { sendDocument } from '../../web/page';
import { confirmUnsubscribeBody, unsubscribedBody, type UnsubscribeView } from './views';

// GET /unsubscribe/:token — the link in the reminder and birthday emails (mail/unsubscribe.ts):
// the question and its button; POST records the answer and shows the page again, now saying it is
// done. A GET changes nothing, so a mail program or a scanner that opens the link unsubscribes
// nobody. The form is a pre-session form like the sign-up form (a SameSite=Strict cookie it
// repeats, plus Origin); the token in the address says whose emails stop. The page speaks the
// language of the customer's emails unless the browser or the switcher asks for another.

const COOKIE_PATH = '/unsubscribe';

function sendUnsubscribePage(ctx: Context, deps: AppDeps, view: UnsubscribeView, title: string, body: Markup): void {
  sendDocument(ctx, { title: `${title} · ${view.card.name}`, css: cardColorsCss(cardColors(deps.db, view.card)), body, lang: view.language.lang });
}

/** The customer of the address's token, or the error page already sent. */
function customerOf(ctx: Context, deps: AppDeps): Customer | undefined {
  const found = customerOfUnsubscribeToken(deps, ctx.params.token!);
  if (found === undefined) sendErrorPage(ctx, 404, t(errorLang(ctx), 'unsubscribe.notFound'));
  else if (found === 'erased') sendErrorPage(ctx, 410, t(errorLang(ctx), 'unsubscribe.removed'));
  else return found;
  return undefined;
}

function viewOf(ctx: Context, deps: AppDeps, customer: Customer): UnsubscribeView {
  // customers.card_id references cards(id) with ON DELETE CASCADE: the card always exists.
  const card = cardsRepo(deps.db).findById(customer.cardId)!;
  const logoUrl = passLogoUrl(card, cardsRepo(deps.db).logoMeta(card.id));
  const lang = customerPageLang(ctx, deps.db, card.orgId, customer.language);
  const language = { lang, switcher: languageLinks(lang, `/unsubscribe/${encodeURIComponent(ctx.params.token!)}`) };
  return { card, orgName: orgsRepo(deps.db).findOrg(card.orgId)?.name ?? '', ...(logoUrl ? { logoUrl } : {}), language };
}

export function bindUnsubscribeRoutes(router: Router, deps: AppDeps, limiter: RateLimiter): void {
  router.get('/unsubscribe/:token', pageErrors(deps.log), (ctx) => {
    // Guessing a token is hopeless (its MAC is 132 bits), and slow on top.
    limitAnonymous(ctx, deps, limiter);
    const customer = customerOf(ctx, deps);
    if (!customer) return;
    const view = viewOf(ctx, deps, customer);
    const { lang } = view.language;
    if (unsubscribedAt(deps.db, customer.id) !== undefined) return sendUnsubscribePage(ctx, deps, view, t(lang, 'unsubscribe.title.done'), unsubscribedBody(view));
    sendUnsubscribePage(ctx, deps, view, t(lang, 'unsubscribe.title'), confirmUnsubscribeBody(view, preSessionToken(ctx, deps.config, COOKIE_PATH)));
  });

  router.post('/unsubscribe/:token', pageErrors(deps.log), async (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    const form = await readForm(ctx);
    // The emails link to INSTALL_BASE_URL, which may be another address of this server than PUBLIC_URL.
    checkPreSessionForm(ctx, deps.config, field(form, CSRF_FIELD), [deps.config.installBaseUrl]);
    const customer = customerOf(ctx, deps);
    if (!customer) return;
    unsubscribeFromNotices(deps, customer.id);
    // POST-redirect-GET: the page now says it is done (in the language it was read in), and a reload sends nothing again.
    const page = `/unsubscribe/${encodeURIComponent(ctx.params.token!)}`;
    ctx.status = 303;
    ctx.redirect(isLang(ctx.query.lang) ? withLang(page, ctx.query.lang) : page);
  });
}
