import type { Card } from '../cards/model';
import type { Customer } from '../customers/model';
import { formatNumber } from '../i18n/format';
import { localeOf } from '../i18n/langs';
import { t } from '../i18n/translate';
import { localDate } from '../lib/days';
import { expiringText } from '../loyalty/expiring';
import { MULTIPLIER_SCALE, type Promotion } from '../promotions/model';
import { html, type Markup } from '../web/html';
import { amountText, balanceText, kindOf, namesText, type Voice } from './format';
import { previewAward, type AwardPreview, type CounterOffers } from './offers';

// The parts of the customer screen about the card's programme: how far the next reward is, what
// expires next, every reward (the affordable ones enabled, the others with what is missing), the
// promotions running now, and what an award gets from them before it is made.

/** "+2 stamps, +2 more from Double Tuesday": what an award gives, promotions included. */
export function previewText(v: Voice, card: Card, preview: AwardPreview): string {
  const award = `+${balanceText(v, card, preview.base)}`;
  if (preview.names.length === 0) return award;
  const names = namesText(v, preview.names);
  return preview.extra > 0 ? t(v.lang, 'counter.preview.more', { award, extra: amountText(v, card, preview.extra), names }) : t(v.lang, 'counter.preview.nothing', { award, names });
}

/**
 * The line under a quick button: "+2 more from Double Tuesday". The screen shows "+2 more" under
 * the button (the promotion is named just above them); a screen reader hears it all.
 */
function extraLine(v: Voice, card: Card, preview: AwardPreview): Markup {
  const from = html`<span class="cx-gives-from"> ${t(v.lang, 'counter.quick.from', { names: namesText(v, preview.names) })}</span>`;
  return preview.extra > 0
    ? html`${t(v.lang, 'counter.quick.more', { extra: amountText(v, card, preview.extra) })}${from}`
    : html`${t(v.lang, 'counter.quick.nothing')}${from} ${t(v.lang, 'counter.quick.roundsDown')}`;
}

/** Progress to the next reward (the cheapest the balance cannot pay yet), and what expires next. */
export function rewardProgress(v: Voice, card: Card, customer: Customer, offers: CounterOffers): Markup {
  const { next, rewards, expiring } = offers;
  let progress = html``;
  if (next) {
    const { reward, remaining } = next;
    progress = html`<progress class="cx-progress" max="${reward.cost / 100}" value="${customer.balance / 100}" aria-label="${t(v.lang, 'counter.progress.label', { reward: reward.name })}"></progress>
<p class="muted">${t(v.lang, 'counter.progress.more', { remaining: balanceText(v, card, remaining), reward: reward.name, cost: balanceText(v, card, reward.cost) })}</p>`;
  } else if (rewards.length === 1) progress = html`<p class="cx-ready">${t(v.lang, 'counter.progress.oneReady', { reward: rewards[0]!.name })}</p>`;
  else if (rewards.length > 1) progress = html`<p class="cx-ready">${t(v.lang, 'counter.progress.allReady')}</p>`;
  return html`${progress}${expiring ? html`<p class="cx-expiring" id="cx-expiring">${expiringText(v.lang, card, expiring, v.timeZone, 'dayMonth')}</p>` : ''}`;
}

/** Every reward, each redeemed in one tap: enabled when the balance pays it, otherwise disabled with what is missing. */
export function rewardsSection(v: Voice, card: Card, customer: Customer, offers: CounterOffers): Markup {
  if (offers.rewards.length === 0) return html``;
  return html`<section class="cx-rewards" aria-labelledby="cx-rewards-heading">
<h3 id="cx-rewards-heading">${t(v.lang, 'counter.rewards.heading')}</h3>
<ul class="cx-reward-list">${offers.rewards.map((reward, i) => {
    const note = reward.affordable ? (reward.description ?? t(v.lang, 'counter.rewards.ready')) : t(v.lang, 'counter.rewards.missing', { missing: balanceText(v, card, reward.missing) });
    return html`<li class="cx-reward${reward.affordable ? '' : ' cx-short'}">
  <form class="cx-form" data-action="redeem" novalidate><input type="hidden" name="customer" value="${customer.id}"><input type="hidden" name="what" value="reward"><input type="hidden" name="rewardId" value="${reward.id}">
  <button type="submit" class="big cx-redeem" aria-describedby="cx-reward-${i}"${reward.affordable ? '' : html` disabled data-unaffordable`}>${t(v.lang, 'counter.rewards.redeem', { reward: reward.name, cost: balanceText(v, card, reward.cost) })}</button></form>
  <p class="small cx-reward-note" id="cx-reward-${i}">${note}${!reward.affordable && reward.description ? html` · ${reward.description}` : ''}</p>
</li>`;
  })}</ul>
</section>`;
}

const dayMonths = new Map<string, Intl.DateTimeFormat>();
/** "3 Mar", "3. März", "3 Mar 2027": a promotion's last day (a calendar date, so read in UTC). */
function lastDayText(v: Voice, date: string, withYear: boolean): string {
  const key = `${v.lang}|${withYear}`;
  let format = dayMonths.get(key);
  if (!format) dayMonths.set(key, (format = new Intl.DateTimeFormat(localeOf(v.lang), { timeZone: 'UTC', day: 'numeric', month: 'short', ...(withYear ? { year: 'numeric' } : {}) })));
  return format.format(Date.parse(`${date}T12:00:00Z`));
}

/** Until when a running promotion runs: the end of its hours today, else its last day. */
function untilText(v: Voice, promotion: Promotion, today: string): string {
  if (promotion.hours) return promotion.hours.to === '24:00' ? t(v.lang, 'counter.promo.untilMidnight') : t(v.lang, 'counter.promo.until', { time: promotion.hours.to });
  if (promotion.endsOn === today) return t(v.lang, 'counter.promo.lastDayToday');
  return t(v.lang, 'counter.promo.lastDay', { date: lastDayText(v, promotion.endsOn, promotion.endsOn.slice(0, 4) !== today.slice(0, 4)) });
}

/** "double stamps", "×1.5 points", "+2 stamps on every award". */
function effectText(v: Voice, card: Card, promotion: Promotion): string {
  if (promotion.kind === 'bonus') return t(v.lang, 'counter.promo.bonus', { units: balanceText(v, card, promotion.value) });
  const factor = promotion.value / MULTIPLIER_SCALE;
  const times = factor === 2 ? 'double' : factor === 3 ? 'triple' : 'other';
  return t(v.lang, 'counter.promo.multiplier', { kind: kindOf(card) === 'stamp' ? 'stamp' : 'point', times, factor: formatNumber(v.lang, factor) });
}

/** The promotions running now, in the shop's time zone: what staff tell the customer. */
export function promotionsSection(v: Voice, card: Card, offers: CounterOffers): Markup {
  if (offers.running.length === 0) return html``;
  const today = localDate(offers.at, v.timeZone);
  return html`<section class="cx-promos" aria-labelledby="cx-promos-heading">
<h3 id="cx-promos-heading">${t(v.lang, 'counter.promo.heading', { count: offers.running.length })}</h3>
<ul>${offers.running.map((p) => html`<li><strong>${p.name}</strong> · ${effectText(v, card, p)} · ${untilText(v, p, today)}</li>`)}</ul>
</section>`;
}

/** Under each quick button, what it gives with the promotions running now; nothing when none runs. */
export function quickNotes(v: Voice, card: Card, offers: CounterOffers, amounts: readonly number[]): Markup {
  if (offers.running.length === 0) return html``;
  return html`${amounts.map((n) => html`<span class="cx-gives" id="cx-gives-${n}">${extraLine(v, card, previewAward(offers.running, n * 100))}</span>`)}`;
}

/**
 * Under a typed award: what it gives, filled in by the page as staff type (the server works it
 * out, see actions.ts), so the figure is the earn's own. Only while promotions run. `initial`: the
 * award the form holds as drawn (the items form starts at one of the first item).
 */
export function previewOutput(v: Voice, card: Card, offers: CounterOffers, inputId: string, initial?: number): Markup {
  if (offers.running.length === 0) return html``;
  const names = offers.running.map((p) => p.name);
  const text = initial ? previewText(v, card, previewAward(offers.running, initial)) : t(v.lang, 'counter.preview.hint', { count: names.length, names: namesText(v, names) });
  return html`<output class="cx-preview" for="${inputId}" data-preview aria-live="polite">${text}</output>`;
}
