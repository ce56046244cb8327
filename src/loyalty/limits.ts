import type { EarningLimits, LimitPeriod } from '../cards/model';
import { badRequest } from '../lib/errors';
import { fromHundredths } from '../lib/money';
import { reason } from '../lib/reasons';

/** Rolling windows: a "day" is the last 24 hours, not the calendar day. */
export const PERIOD_MS: Record<LimitPeriod, number> = {
  day: 24 * 60 * 60 * 1000,
  week: 7 * 24 * 60 * 60 * 1000,
  month: 30 * 24 * 60 * 60 * 1000,
};

/** What the ledger knows about this customer's recent awards; the caller reads only what the limits need. */
export interface AwardHistory {
  /** When the last award was written (ms), or null if never. */
  lastAwardAt(): number | null;
  /** Hundredths awarded strictly after `since` (ms). */
  awardedSince(since: number): number;
}

/**
 * Throws the card's earning-limit refusal for an award of `amount` hundredths at `now`, or returns.
 * Checked in a fixed order — wait, then size, then period — so a caller always sees the same code
 * for the same situation. Pure apart from the history reads, so every channel shares it.
 */
export function checkEarningLimits(limits: EarningLimits | null, amount: number, now: number, history: AwardHistory): void {
  if (!limits) return;

  if (limits.waitSeconds) {
    const last = history.lastAwardAt();
    const readyAt = last === null ? null : last + limits.waitSeconds * 1000;
    if (readyAt !== null && now < readyAt) {
      const retryAfterSeconds = Math.ceil((readyAt - now) / 1000);
      throw badRequest('AWARD_WAIT_ACTIVE', `this card awards at most once every ${limits.waitSeconds} s; retry after ${retryAfterSeconds} s`, { retryAfterSeconds }, reason('limitWait', { wait: limits.waitSeconds, retry: retryAfterSeconds }));
    }
  }

  if (limits.maxPerAward !== undefined && amount > limits.maxPerAward) {
    const [max, award] = [fromHundredths(limits.maxPerAward), fromHundredths(amount)];
    throw badRequest('AWARD_MAX_PER_AWARD', `this card awards at most ${max} at a time; this award is ${award}`, undefined, reason('limitMax', { max, amount: award }));
  }

  if (limits.period !== undefined && limits.maxPerPeriod !== undefined) {
    const awarded = history.awardedSince(now - PERIOD_MS[limits.period]);
    if (awarded + amount > limits.maxPerPeriod) {
      const values = { max: fromHundredths(limits.maxPerPeriod), period: limits.period, awarded: fromHundredths(awarded), amount: fromHundredths(amount) };
      throw badRequest(
        'AWARD_PERIOD_LIMIT',
        `this card awards at most ${values.max} per ${values.period} (rolling); ${values.awarded} awarded in that window, this award is ${values.amount}`,
        undefined,
        reason('limitPeriod', values),
      );
    }
  }
}
