// GET /get-pass/:cardId?code=<installCode>: the install link of decisions §1. A missing or wrong
// code shows the card's public page and nothing about any customer: the sign-up form on a card
// with data collection (../signup, which also answers its POST), else "ask at the counter". A
// valid code hands the pass to the wallet the browser can take (the wallet builds it), or offers
// every way that is configured.
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

const query = (ctx: Context, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : undefined);

export const webPassPath = (code: string) => `/pass/${encodeURIComponent(code)}`;

export function bindInstallRoutes(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
  router.get('/get-pass/:cardId', async (ctx) => {
    // Guessing codes is hopeless (they are long and random), and slow on top.
    limitAnonymous(ctx, deps, limiter);
    const card = cardsRepo(deps.db).findById(ctx.params.cardId!);
    if (!card) return sendPage(ctx, 'Card not found', notFoundBody(), { status: 404 });
    const code = query(ctx, 'code');
    const customer = findCustomerByInstallCode(deps.db, code, card.id);
    if (!customer && isErasedInstallCode(deps.db, code, card.id)) return sendPage(ctx, 'Card removed', removedCardBody(), { status: 410, private: true });
    if (!customer || !code) {
      if (card.archivedAt !== null) return sendPage(ctx, card.name, cardClosedBody(card));
      return card.dataCollectionEnabled ? sendSignupForm(ctx, deps, card) : sendPage(ctx, card.name, cardPublicBody(card));
    }

    const { apple, google } = deps.wallet;
    const wanted = query(ctx, 'wallet') ?? platformOf(ctx.get('User-Agent'));
    if ((wanted === 'apple' || wanted === 'ios') && apple) {
      const lastModified = lastModifiedSeconds(passModifiedAt(card, customer), deps.clock.now());
      return sendPkpass(ctx, await buildCustomerApplePass(deps, apple, card, customer), card, lastModified);
    }
    if ((wanted === 'google' || wanted === 'android') && google) {
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      return ctx.redirect(issueGoogleSaveLink(deps, google, card, customer));
    }
    return sendChoice(ctx, deps, card, customer, code);
  });
}

function sendChoice(ctx: Context, deps: WalletDeps, card: Card, customer: Customer, code: string): void {
  const { apple, google } = deps.wallet;
  const self = (wallet: string) => `/get-pass/${encodeURIComponent(card.id)}?code=${encodeURIComponent(code)}&wallet=${wallet}`;
  const content = customerPassContent(deps.db, card, customer);
  sendPage(
    ctx,
    content.title,
    installChoiceBody({
      title: content.title,
      ...(apple ? { appleUrl: self('apple') } : {}),
      ...(google ? { googleUrl: self('google') } : {}),
      webPassUrl: webPassPath(code),
      more: emailCardOffer(ctx, deps, card, customer, code, 'install'),
    }),
    { private: true, forms: true },
  );
}
