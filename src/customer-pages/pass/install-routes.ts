// GET /get-pass/:cardId?code=<installCode>: the install link a customer is given (by the API's
// enroll answer, the counter, the welcome page, their email). A missing or wrong code shows the card's public page and nothing about any customer: the sign-up form on a card
// with data collection (../signup, which also answers its POST), else "ask at the counter". A
// valid code hands the pass to the wallet the browser can take (the wallet builds it), or offers
// every way that is configured. Pages are in the customer's language (customer-pages/lang.ts).
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Card } from '../../cards/model';
import { cardsRepo } from '../../cards/repo';
import type { Customer } from '../../customers/model';
import { limitAnonymous } from '../../routing/rate-limited';
import type { RateLimiter } from '../../routing/rate-limit';
import { emailCardOffer } from '../signup/email-card';
import { sendSignupForm } from '../signup/routes';
import { buildCustomerApplePass, passModifiedAt } from '../../wallet/apple/customer-pass';
import { issueGoogleSaveLink } from '../../wallet/google/customer-objects';
import { findCustomerByInstallCode, isErasedInstallCode } from '../../wallet/install-code';
import type { WalletDeps } from '../../wallet/http/deps';
import { sendPage } from '../shell';
import { cardClosedBody, cardPublicBody, installChoiceBody, notFoundBody, removedCardBody } from './views';
import { lastModifiedSeconds, sendPkpass } from '../../wallet/http/pkpass';
import { platformOf } from './user-agent';
import { customerPassContent } from '../../wallet/customer-content';
import type { Lang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import { errorLang, pageErrors } from '../../web/errors';
import { html } from '../../web/html';
import { customerPageLang, languageLinks } from '../lang';
import { customerLanguageSwitch } from './language-routes';

const query = (ctx: Context, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : undefined);

export const webPassPath = (code: string) => `/pass/${encodeURIComponent(code)}`;

export function bindInstallRoutes(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
  // A refusal (the rate limit) is a page in the customer's language, never the API's JSON.
  router.get('/get-pass/:cardId', pageErrors(deps.log), async (ctx) => {
    // Guessing codes is hopeless (they are long and random), and slow on top.
    limitAnonymous(ctx, deps, limiter);
    const card = cardsRepo(deps.db).findById(ctx.params.cardId!);
    if (!card) {
      const lang = errorLang(ctx);
      return sendPage(ctx, t(lang, 'common.cardNotFound.title'), notFoundBody(lang), { status: 404, lang });
    }
    const code = query(ctx, 'code');
    const customer = findCustomerByInstallCode(deps.db, code, card.id);
    const lang = customerPageLang(ctx, deps.db, card.orgId, customer?.language ?? null);
    if (!customer && isErasedInstallCode(deps.db, code, card.id)) return sendPage(ctx, t(lang, 'common.cardRemoved.title'), removedCardBody(lang), { status: 410, private: true, lang });
    if (!customer || !code) {
      const switcher = languageLinks(lang, `/get-pass/${encodeURIComponent(card.id)}`);
      if (card.archivedAt !== null) return sendPage(ctx, card.name, html`${switcher}${cardClosedBody(card, lang)}`, { lang });
      return card.dataCollectionEnabled ? sendSignupForm(ctx, deps, card, lang) : sendPage(ctx, card.name, html`${switcher}${cardPublicBody(card, lang)}`, { lang });
    }

    const { apple, google } = deps.wallet;
    const wanted = query(ctx, 'wallet') ?? platformOf(ctx.get('User-Agent'));
    if ((wanted === 'apple' || wanted === 'ios') && apple) {
      const lastModified = lastModifiedSeconds(passModifiedAt(deps.db, card, customer), deps.clock.now());
      return sendPkpass(ctx, await buildCustomerApplePass(deps, apple, card, customer), card, lastModified);
    }
    if ((wanted === 'google' || wanted === 'android') && google) {
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      return ctx.redirect(issueGoogleSaveLink(deps, google, card, customer));
    }
    return sendChoice(ctx, deps, card, customer, code, lang);
  });
}

function sendChoice(ctx: Context, deps: WalletDeps, card: Card, customer: Customer, code: string, lang: Lang): void {
  const { apple, google } = deps.wallet;
  const self = (wallet: string) => `/get-pass/${encodeURIComponent(card.id)}?code=${encodeURIComponent(code)}&wallet=${wallet}`;
  const content = customerPassContent(deps.db, card, customer, lang);
  sendPage(
    ctx,
    content.title,
    html`${customerLanguageSwitch(ctx, deps, lang, { kind: 'install', cardId: card.id, code })}${installChoiceBody({
      title: content.title,
      ...(apple ? { appleUrl: self('apple') } : {}),
      ...(google ? { googleUrl: self('google') } : {}),
      webPassUrl: webPassPath(code),
      more: emailCardOffer(ctx, deps, card, customer, code, 'install', lang),
      lang,
    })}`,
    { private: true, forms: true, lang },
  );
}
