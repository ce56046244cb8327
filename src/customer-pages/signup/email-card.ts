import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Card } from '../../cards/model';
import { cardsRepo } from '../../cards/repo';
import type { Customer } from '../../customers/model';
import type { AppDeps } from '../../deps';
import { maskEmail } from '../../lib/contact';
import { cardEmailBlocker, mailSetup, queueSignupCardEmail } from '../../mail/service';
import type { RateLimiter } from '../../routing/rate-limit';
import { limitAnonymous } from '../../routing/rate-limited';
import { findCustomerByInstallCode } from '../../wallet/install-code';
import { checkPreSessionForm, CSRF_FIELD, preSessionToken } from '../../web/csrf';
import { pageErrors, sendErrorPage } from '../../web/errors';
import { field, readForm } from '../../web/forms';
import { html, type Markup } from '../../web/html';

// "Email me my card" on the page after sign-up and on the install page of the customer's link: the
// customer's own card to the address they gave, so they can open it on their phone later. Only the
// holder of the link can ask (the install code is the proof), within the abuse limits per
// recipient and per client address (mail/signup-limits.ts: anyone can sign up with anyone's
// address), and only when the server sends email at all. The form is a pre-session form like
// sign-up. A held-back email is told in the same neutral words whichever limit held it: the page
// must not tell a stranger that an address was sent a card today.

const COOKIE_PATH = '/get-pass';
/** Where the form sends the customer back: the welcome after sign-up, or the install page of their link. */
export type EmailCardPage = 'welcome' | 'install';
const pagePath = (page: EmailCardPage, cardId: string, code: string, extra = '') =>
  `/get-pass/${encodeURIComponent(cardId)}${page === 'welcome' ? '/welcome' : ''}?code=${encodeURIComponent(code)}${extra}`;

/** The block under the wallet buttons, when email can be sent: the button, or what became of the last request. */
export function emailCardOffer(ctx: Context, deps: Pick<AppDeps, 'config'>, card: Card, customer: Customer, code: string, page: EmailCardPage): Markup {
  if (!mailSetup(deps.config) || cardEmailBlocker(customer)) return html``;
  const to = maskEmail(customer.email!);
  const emailed = ctx.query.emailed;
  const notice =
    emailed === '1'
      ? html`<p class="note done" role="status">Your card is on its way to ${to}. It may take a minute; look in the spam folder too.</p>`
      : emailed === 'held'
        ? html`<p class="note" role="status">We could not send your card by email just now. Your card is here: add it to your phone or open it with the buttons on this page, or ask at the counter.</p>`
        : '';
  return html`${notice}
<form method="post" action="/get-pass/${card.id}/email" class="email-card">
  <input type="hidden" name="${CSRF_FIELD}" value="${preSessionToken(ctx, deps.config, COOKIE_PATH)}">
  <input type="hidden" name="code" value="${code}">
  <input type="hidden" name="page" value="${page}">
  <button type="submit" class="button secondary">Email me my card</button>
  <p class="note">To ${to}: open it on your phone whenever you like.</p>
</form>`;
}

export function bindEmailCardRoute(router: Router, deps: AppDeps, limiter: RateLimiter): void {
  router.post('/get-pass/:cardId/email', pageErrors(deps.log), async (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    const form = await readForm(ctx);
    checkPreSessionForm(ctx, deps.config, field(form, CSRF_FIELD), [deps.config.installBaseUrl]);
    const card = cardsRepo(deps.db).findById(ctx.params.cardId!);
    const code = field(form, 'code');
    const customer = card && findCustomerByInstallCode(deps.db, code, card.id);
    if (!card || !customer) return sendErrorPage(ctx, 404, 'This link does not lead to a loyalty card. Please check it, or ask at the counter.');
    const outcome = queueSignupCardEmail(deps, customer, ctx.ip);
    if (!outcome.queued) deps.log.info('sign-up email held back by the abuse limits', { limit: outcome.reason, cardId: card.id, requestId: ctx.state.requestId });
    // POST-redirect-GET: a reload of the page never asks again.
    ctx.status = 303;
    ctx.redirect(pagePath(field(form, 'page') === 'welcome' ? 'welcome' : 'install', card.id, code, `&emailed=${outcome.queued ? '1' : 'held'}`));
  });
}
