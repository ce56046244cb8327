import type { Card } from '../cards/model';
import type { Customer } from '../customers/model';
import { localDate } from '../lib/days';
import { expiringText } from '../loyalty/expiring';
import { MULTIPLIER_SCALE, type Promotion } from '../promotions/model';
import { html, type Markup } from '../web/html';
import { amountText, balanceText, namesText } from './format';
import { previewAward, type AwardPreview, type CounterOffers } from './offers';

// The parts of the customer screen about the card's programme: how far the next reward is, what
// expires next, every reward (the affordable ones enabled, the others with what is missing), the
// promotions running now, and what an award gets from them before it is made.

/** "+2 stamps, +2 more from Double Tuesday": what an award gives, promotions included. */
export function previewText(card: Card, preview: AwardPreview): string {
  const base = `+${balanceText(card, preview.base)}`;
  if (preview.names.length === 0) return base;
  const from = namesText(preview.names);
  return preview.extra > 0 ? `${base}, +${amountText(card, preview.extra)} more from ${from}` : `${base}, nothing more from ${from} (it rounds down)`;
}

/**
 * The line under a quick button: "+2 more from Double Tuesday". The screen shows "+2 more" under
 * the button (the promotion is named just above them); a screen reader hears it all.
 */
function extraLine(card: Card, preview: AwardPreview): Markup {
  const from = html`<span class="cx-gives-from"> from ${namesText(preview.names)}</span>`;
  return preview.extra > 0 ? html`+${amountText(card, preview.extra)} more${from}` : html`nothing more${from} (it rounds down)`;
}

/** Progress to the next reward (the cheapest the balance cannot pay yet), and what expires next. */
export function rewardProgress(card: Card, customer: Customer, offers: CounterOffers, timeZone: string): Markup {
  const { next, rewards, expiring } = offers;
  let progress = html``;
  if (next) {
    const { reward, remaining } = next;
    progress = html`<progress class="cx-progress" max="${reward.cost / 100}" value="${customer.balance / 100}" aria-label="Progress to ${reward.name}"></progress>
<p class="muted">${balanceText(card, remaining)} more to ${reward.name} (${balanceText(card, reward.cost)}).</p>`;
  } else if (rewards.length === 1) progress = html`<p class="cx-ready"><strong>${rewards[0]!.name}</strong> can be redeemed now.</p>`;
  else if (rewards.length > 1) progress = html`<p class="cx-ready">Every reward can be redeemed now.</p>`;
  return html`${progress}${expiring ? html`<p class="cx-expiring" id="cx-expiring">${expiringText('en', card, expiring, timeZone, 'dayMonth')}</p>` : ''}`;
}

/** Every reward, each redeemed in one tap: enabled when the balance pays it, otherwise disabled with what is missing. */
export function rewardsSection(card: Card, customer: Customer, offers: CounterOffers): Markup {
  if (offers.rewards.length === 0) return html``;
  return html`<section class="cx-rewards" aria-labelledby="cx-rewards-heading">
<h3 id="cx-rewards-heading">Rewards</h3>
<ul class="cx-reward-list">${offers.rewards.map((reward, i) => {
    const note = reward.affordable ? (reward.description ?? 'Can be redeemed now') : `${balanceText(card, reward.missing)} missing`;
    return html`<li class="cx-reward${reward.affordable ? '' : ' cx-short'}">
  <form class="cx-form" data-action="redeem" novalidate><input type="hidden" name="customer" value="${customer.id}"><input type="hidden" name="what" value="reward"><input type="hidden" name="rewardId" value="${reward.id}">
  <button type="submit" class="big cx-redeem" aria-describedby="cx-reward-${i}"${reward.affordable ? '' : html` disabled data-unaffordable`}>Redeem ${reward.name} (${balanceText(card, reward.cost)})</button></form>
  <p class="small cx-reward-note" id="cx-reward-${i}">${note}${!reward.affordable && reward.description ? html` · ${reward.description}` : ''}</p>
</li>`;
  })}</ul>
</section>`;
}

const dayMonth = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });

/** Until when a running promotion runs: the end of its hours today, else its last day. */
function untilText(promotion: Promotion, today: string): string {
  if (promotion.hours) return promotion.hours.to === '24:00' ? 'until midnight' : `until ${promotion.hours.to}`;
  if (promotion.endsOn === today) return 'last day today';
  const day = dayMonth.format(Date.parse(`${promotion.endsOn}T12:00:00Z`));
  return `last day ${day}${promotion.endsOn.slice(0, 4) === today.slice(0, 4) ? '' : ` ${promotion.endsOn.slice(0, 4)}`}`;
}

/** "double stamps", "×1.5 points", "+2 stamps on every award". */
function effectText(card: Card, promotion: Promotion): string {
  const units = card.passType === 'stamp_card' ? 'stamps' : 'points';
  if (promotion.kind === 'bonus') return `+${balanceText(card, promotion.value)} on every award`;
  const factor = promotion.value / MULTIPLIER_SCALE;
  return factor === 2 ? `double ${units}` : factor === 3 ? `triple ${units}` : `×${factor} ${units}`;
}

/** The promotions running now, in the shop's time zone: what staff tell the customer. */
export function promotionsSection(card: Card, offers: CounterOffers, timeZone: string): Markup {
  if (offers.running.length === 0) return html``;
  const today = localDate(offers.at, timeZone);
  return html`<section class="cx-promos" aria-labelledby="cx-promos-heading">
<h3 id="cx-promos-heading">${offers.running.length === 1 ? 'Promotion running now' : 'Promotions running now'}</h3>
<ul>${offers.running.map((p) => html`<li><strong>${p.name}</strong> · ${effectText(card, p)} · ${untilText(p, today)}</li>`)}</ul>
</section>`;
}

/** Under each quick button, what it gives with the promotions running now; nothing when none runs. */
export function quickNotes(card: Card, offers: CounterOffers, amounts: readonly number[]): Markup {
  if (offers.running.length === 0) return html``;
  return html`${amounts.map((n) => html`<span class="cx-gives" id="cx-gives-${n}">${extraLine(card, previewAward(offers.running, n * 100))}</span>`)}`;
}

/**
 * Under a typed award: what it gives, filled in by the page as staff type (the server works it
 * out, see actions.ts), so the figure is the earn's own. Only while promotions run. `initial`: the
 * award the form holds as drawn (the items form starts at one of the first item).
 */
export function previewOutput(card: Card, offers: CounterOffers, inputId: string, initial?: number): Markup {
  if (offers.running.length === 0) return html``;
  const names = offers.running.map((p) => p.name);
  const text = initial ? previewText(card, previewAward(offers.running, initial)) : `${namesText(names)} ${names.length === 1 ? 'runs' : 'run'} now: what an award gets shows here as you type.`;
  return html`<output class="cx-preview" for="${inputId}" data-preview aria-live="polite">${text}</output>`;
}
