import type { Card } from '../../cards/model';
import type { Customer } from '../../customers/model';
import { html, type Markup } from '../../web/html';
import { rewardLine } from '../../cards/face';
import type { Lang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import { frame } from './views';

// The page after signing up: the shop's colours and logo, a welcome by name, and how to keep the
// card — the wallets this server offers, the card in the browser (which can go on the home screen:
// the web pass has a web app manifest and icon), and whatever other ways a feature adds.

export interface WelcomeView {
  card: Card;
  customer: Pick<Customer, 'name'>;
  orgName: string;
  logoUrl?: string;
  /** The install page with ?wallet=apple / google, when this server issues those passes. */
  appleUrl?: string;
  googleUrl?: string;
  /** The customer's web pass. */
  webPassUrl: string;
  /**
   * More ways to keep the card, shown under the wallets and the web pass: each a self-contained
   * block (a form with its own button, such as "Email me my card"). Empty: none.
   */
  keepActions?: Markup[];
  lang: Lang;
  /** The switcher that stores the customer's language (pass/language-routes.ts). */
  switcher: Markup;
}

const firstName = (name: string | null) => name?.trim().split(/\s+/)[0] ?? '';

/**
 * The reward line inside a sentence ("…on every visit: free coffee after 10 stamps"): it starts in
 * lower case, except in German, where the reward's noun keeps its capital.
 */
const inSentence = (text: string, lang: Lang) => (lang === 'de' ? text : `${text.charAt(0).toLowerCase()}${text.slice(1)}`);

export function welcomeBody(view: WelcomeView): Markup {
  const { card, lang } = view;
  const name = firstName(view.customer.name);
  const reward = rewardLine(card, lang);
  const wallets = Boolean(view.appleUrl || view.googleUrl);
  return frame(
    card,
    view.orgName,
    html`<strong class="welcome-title">${name ? t(lang, 'signup.welcome.greetingName', { name }) : t(lang, 'signup.welcome.greeting')}</strong> ${t(lang, 'signup.welcome.ready', { card: card.name })}`,
    html`<section class="welcome" aria-labelledby="keep-heading">
  <h2 id="keep-heading">${t(lang, 'signup.welcome.keepHeading')}</h2>
  <p>${reward ? t(lang, 'signup.welcome.showReward', { reward: inSentence(reward, lang) }) : t(lang, 'signup.welcome.show')}</p>
  ${wallets ? html`<p class="muted small">${t(lang, 'signup.welcome.wallets')}</p>` : ''}
  ${view.appleUrl ? html`<a class="button big" href="${view.appleUrl}">${t(lang, 'common.addApple')}</a>` : ''}
  ${view.googleUrl ? html`<a class="button big" href="${view.googleUrl}">${t(lang, 'common.addGoogle')}</a>` : ''}
  <a class="button big${wallets ? ' secondary' : ''}" href="${view.webPassUrl}">${t(lang, 'signup.welcome.open')}</a>
  <p class="muted small">${t(lang, 'signup.welcome.homeScreen')}</p>
  ${view.keepActions?.length ? html`<div class="welcome-more">${view.keepActions}</div>` : ''}
</section>`,
    view.logoUrl,
    { lang, switcher: view.switcher },
  );
}
