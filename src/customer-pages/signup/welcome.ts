import type { Card } from '../../cards/model';
import type { Customer } from '../../customers/model';
import { html, type Markup } from '../../web/html';
import { rewardLine } from '../../cards/face';
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
}

const firstName = (name: string | null) => name?.trim().split(/\s+/)[0] ?? '';

export function welcomeBody(view: WelcomeView): Markup {
  const { card } = view;
  const name = firstName(view.customer.name);
  const reward = rewardLine(card);
  const wallets = Boolean(view.appleUrl || view.googleUrl);
  return frame(
    card,
    view.orgName,
    html`<strong class="welcome-title">Welcome${name ? `, ${name}` : ''}!</strong> Your ${card.name} card is ready.`,
    html`<section class="welcome" aria-labelledby="keep-heading">
  <h2 id="keep-heading">Keep your card</h2>
  <p>${reward ? `Show it at the counter on every visit: ${reward.charAt(0).toLowerCase()}${reward.slice(1)}.` : 'Show it at the counter on every visit.'}</p>
  ${wallets ? html`<p class="muted small">Add it to your phone’s wallet:</p>` : ''}
  ${view.appleUrl ? html`<a class="button big" href="${view.appleUrl}">Add to Apple Wallet</a>` : ''}
  ${view.googleUrl ? html`<a class="button big" href="${view.googleUrl}">Add to Google Wallet</a>` : ''}
  <a class="button big${wallets ? ' secondary' : ''}" href="${view.webPassUrl}">Open my card</a>
  <p class="muted small">Your card also works in the browser. To keep it one tap away, open it and add it to your home screen: on an iPhone tap Share, then “Add to Home Screen”; on Android tap ⋮, then “Add to Home screen”.</p>
  ${view.keepActions?.length ? html`<div class="welcome-more">${view.keepActions}</div>` : ''}
</section>`,
    view.logoUrl,
  );
}
