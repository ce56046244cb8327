import type { Card } from '../cards/model';
import type { Customer } from '../customers/model';
import { accrue } from '../loyalty/accrual';
import type { EarnBasis } from '../loyalty/service';
import type { OrgSettings } from '../orgs/settings';
import { unitOf } from '../staff/activity';
import { html, type Markup } from '../web/html';
import { t } from '../i18n/translate';
import { balanceText, displayName, type Voice } from './format';
import { previewText } from './offer-panels';
import type { AwardPreview } from './offers';

// One award above the owner's size (settings counter.confirmAbove: more than 10 stamps unless the
// owner says otherwise) is confirmed before it is made: "Add 500 stamps to Sam Smith?". The check
// is the server's, so no page or queued tap skips it; the confirming tap sends confirmed=yes.
// The size judged is what goes on the card, promotions included, as the dashboard flags the
// ledger's awards above the same size (console/dashboard/service.ts).

/** What an award of this basis adds to the card before promotions (hundredths), as earn will work it out. */
export function awardChange(card: Card, basis: EarnBasis): number {
  return basis.from === 'amount' ? basis.amount : accrue(card, basis).change;
}

/** The size above which one award of this card asks for a confirmation (hundredths). */
export function confirmAboveFor(card: Card, settings: Pick<OrgSettings, 'counter'>): number {
  return settings.counter.confirmAbove[unitOf(card.passType)];
}

export interface LargeAward {
  customer: Customer;
  card: Card;
  /** The award as typed and what the promotions running now add to it. */
  preview: AwardPreview;
  above: number;
  /** The fields of the award as sent (without key, mode and token), sent again with confirmed=yes. */
  fields: Record<string, string>;
}

/** The question, in place of the customer screen's actions, with the button that makes the award. */
export function largeAwardPanel(v: Voice, award: LargeAward): Markup {
  const { card, customer, preview } = award;
  const amount = balanceText(v, card, preview.base + preview.extra);
  const above = balanceText(v, card, award.above);
  const who = displayName(v, customer, '');
  return html`<article class="cx panel" id="customer" data-customer="${customer.id}" aria-labelledby="cx-large-question">
<div class="cx-large" role="alert">
  <h2 id="cx-large-question">${who ? t(v.lang, 'counter.large.question', { amount, name: who }) : t(v.lang, 'counter.large.questionNoName', { amount })}</h2>
  ${preview.extra > 0 ? html`<p>${previewText(v, card, preview)}.</p>` : ''}
  <p>${customer.name ? t(v.lang, 'counter.large.why', { above, name: customer.name }) : t(v.lang, 'counter.large.whyNoName', { above })}</p>
</div>
<form class="cx-form cx-large-actions" data-action="earn" novalidate>
  ${Object.entries(award.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  <input type="hidden" name="confirmed" value="yes">
  <button type="submit" class="big" data-autofocus>${t(v.lang, 'counter.large.yes', { amount })}</button>
  <button type="button" class="secondary big" data-open="${customer.id}">${t(v.lang, 'counter.large.no')}</button>
</form>
</article>`;
}
