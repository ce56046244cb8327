import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Card } from '../../cards/model';
import { cardsRepo } from '../../cards/repo';
import type { AppDeps } from '../../deps';
import { limitAnonymous } from '../../routing/rate-limited';
import type { RateLimiter } from '../../routing/rate-limit';
import { randomToken } from '../../lib/ids';
import { orgsRepo } from '../../orgs/repo';
import { readOrgSettings, shopCountry } from '../../orgs/settings';
import { checkPreSessionForm, CSRF_FIELD, preSessionToken } from '../../web/csrf';
import { pageErrors, sendErrorPage } from '../../web/errors';
import { field, readForm, type FormErrors } from '../../web/forms';
import type { Markup } from '../../web/html';
import { sendDocument } from '../../web/page';
import { cardColors, cardColorsCss } from '../../cards/face';
import { HONEYPOT_FIELD, readSignup, SUBMISSION_FIELD, type SignupTyped } from './form';
import { signUp } from './service';
import { alreadyMemberBody, signupFormBody } from './views';
import { welcomeBody } from './welcome';
import { passLogoUrl } from '../../wallet/logo-images';
import { findCustomerByInstallCode } from '../../wallet/install-code';
import type { WalletDeps } from '../../wallet/http/deps';
import { emailCardOffer } from './email-card';


// POST /get-pass/:cardId — the sign-up form of a card with data collection (decisions §8).
// Its GET is the install route's (../pass/install-routes.ts): without a valid code it hands
// over to sendSignupForm here. The form needs no script; pre-session CSRF (a SameSite=Strict cookie
// the form repeats, plus Origin), the anonymous rate limit per address, the 64 KiB form limit and
// a honeypot field keep programs out.

/** Every form of every card shares one pre-session cookie, scoped to the sign-up paths. */
const COOKIE_PATH = '/get-pass';
const SUBMISSION = /^[A-Za-z0-9]{24,64}$/;

const orgName = (deps: Pick<AppDeps, 'db'>, card: Card) => orgsRepo(deps.db).findOrg(card.orgId)?.name ?? '';

// The welcome page's address holds the install code. It keeps the pages' Referrer-Policy
// same-origin (web/page.ts): no other site is ever told the address, while the browser still
// names this page's origin on the "Email me my card" POST, which the origin check needs.
function sendSignupPage(ctx: Context, deps: AppDeps, card: Card, title: string, status: number, body: Markup): void {
  sendDocument(ctx, { title: `${title} · ${card.name}`, status, css: cardColorsCss(cardColors(deps.db, card)), body });
}

/** The card's uploaded logo for the sign-up pages (the header shows it over the card's colours). */
const logoOf = (deps: Pick<AppDeps, 'db'>, card: Card) => passLogoUrl(card, cardsRepo(deps.db).logoMeta(card.id));

/** After signing up: the welcome page of this customer (GET /get-pass/:cardId/welcome?code=…). */
export const welcomePath = (installPath: string) => installPath.replace('?code=', '/welcome?code=');

/** The empty form (GET), or the form again with what was typed and why it was refused. */
export function sendSignupForm(ctx: Context, deps: AppDeps, card: Card, refused?: { typed: SignupTyped; errors: FormErrors; submission: string }): void {
  const settings = readOrgSettings(deps.db, card.orgId);
  const body = signupFormBody({
    card,
    orgName: orgName(deps, card),
    logoUrl: logoOf(deps, card),
    consent: settings.signup,
    country: shopCountry(settings),
    csrfToken: preSessionToken(ctx, deps.config, COOKIE_PATH),
    submission: refused?.submission ?? randomToken(32),
    typed: refused?.typed,
    errors: refused?.errors,
  });
  sendSignupPage(ctx, deps, card, refused ? 'Check your answers' : 'Join', refused ? 400 : 200, body);
}

export function bindSignupRoutes(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
  router.post('/get-pass/:cardId', pageErrors(deps.log), async (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    const card = cardsRepo(deps.db).findById(ctx.params.cardId!);
    if (!card) return sendErrorPage(ctx, 404, 'This link does not lead to a loyalty card. Please check it, or ask at the counter.');
    if (!card.dataCollectionEnabled) return sendErrorPage(ctx, 403, 'This card does not take sign-ups online. Please ask at the counter.');
    if (card.archivedAt !== null) return sendErrorPage(ctx, 403, 'This card no longer takes new members. Please ask at the counter.');
    const form = await readForm(ctx);
    // The poster leads to INSTALL_BASE_URL, which may be another address of this server than PUBLIC_URL.
    checkPreSessionForm(ctx, deps.config, field(form, CSRF_FIELD), [deps.config.installBaseUrl]);
    const sent = field(form, SUBMISSION_FIELD);
    const submission = SUBMISSION.test(sent) ? sent : randomToken(32);

    const { typed, request, errors } = readSignup(card, form, shopCountry(readOrgSettings(deps.db, card.orgId)));
    if (field(form, HONEYPOT_FIELD) !== '') {
      // Only a program fills a field no person can see or reach. It is refused quietly, like any
      // other refusal, with nothing written; a person whose browser filled it by mistake gets the
      // form back (the trap emptied) and can simply send it again.
      deps.log.info('sign-up refused: honeypot filled', { cardId: card.id, requestId: ctx.state.requestId });
      return sendSignupForm(ctx, deps, card, { typed, errors: { fields: errors.fields, form: 'We could not take this sign-up. Please check your details and press “Get my card” again.' }, submission });
    }
    if (!request) return sendSignupForm(ctx, deps, card, { typed, errors, submission });

    const outcome = signUp(deps, card, request, submission);
    if (outcome.kind === 'already_member') {
      return sendSignupPage(ctx, deps, card, 'Already a member', 200, alreadyMemberBody(card, orgName(deps, card), logoOf(deps, card)));
    }
    // POST-redirect-GET: a reload of the welcome page never sends the form again.
    ctx.status = 303;
    ctx.redirect(welcomePath(outcome.installPath));
  });

  // The welcome: only with the customer's own code; anything else goes back to the card's form.
  router.get('/get-pass/:cardId/welcome', pageErrors(deps.log), (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    const card = cardsRepo(deps.db).findById(ctx.params.cardId!);
    if (!card) return sendErrorPage(ctx, 404, 'This link does not lead to a loyalty card. Please check it, or ask at the counter.');
    const code = typeof ctx.query.code === 'string' ? ctx.query.code : undefined;
    const customer = findCustomerByInstallCode(deps.db, code, card.id);
    if (!customer || !code) {
      ctx.status = 303;
      return ctx.redirect(`/get-pass/${encodeURIComponent(card.id)}`);
    }
    const install = (wallet: string) => `/get-pass/${encodeURIComponent(card.id)}?code=${encodeURIComponent(code)}&wallet=${wallet}`;
    const body = welcomeBody({
      card,
      customer,
      orgName: orgName(deps, card),
      logoUrl: logoOf(deps, card),
      ...(deps.wallet.apple ? { appleUrl: install('apple') } : {}),
      ...(deps.wallet.google ? { googleUrl: install('google') } : {}),
      webPassUrl: `/pass/${encodeURIComponent(code)}`,
      keepActions: [emailCardOffer(ctx, deps, card, customer, code, 'welcome')],
    });
    sendSignupPage(ctx, deps, card, 'Welcome', 200, body);
  });
}
