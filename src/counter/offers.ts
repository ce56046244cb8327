import type { Card, Reward } from '../cards/model';
import { nextReward, rewardsFor } from '../cards/rewards';
import type { Customer } from '../customers/model';
import type { AppDeps } from '../deps';
import { expiringFor, type Expiring } from '../loyalty/expiring';
import type { Promotion } from '../promotions/model';
import { applyPromotions, runningPromotions } from '../promotions/service';
import { clockFor } from '../test-clock/clock';

// What the counter offers a customer beside the balance: the card's rewards (which the balance
// pays), the promotions running now and what an award gets from them, and the units that expire
// next. Each comes from the module the API and the earn use (cards/rewards, promotions/service,
// loyalty/expiring), so the counter can never promise something the earn would not give.

export interface RewardOffer extends Reward {
  affordable: boolean;
  /** Hundredths still missing; 0 when affordable. */
  missing: number;
}

export interface CounterOffers {
  /** Every reward of the card in the card's order; none on level and prepaid cards. */
  rewards: RewardOffer[];
  /** The cheapest reward the balance cannot pay yet, with what is missing. */
  next: { reward: Reward; remaining: number } | null;
  /** The promotions an award made now gets (test data: at the sandbox's test clock). */
  running: Promotion[];
  /** The instant they were judged at (ms). */
  at: number;
  /** The next units to expire, or null. */
  expiring: Expiring | null;
}

/** The clock the customer's awards are recorded by: the real one, or the sandbox's test clock for test data. */
export const customerNow = (deps: Pick<AppDeps, 'db' | 'clock'>, customer: Customer): number => clockFor(deps, customer.orgId, customer.livemode).now();

export function offersFor(deps: Pick<AppDeps, 'db' | 'clock'>, customer: Customer, card: Card): CounterOffers {
  const at = customerNow(deps, customer);
  return {
    rewards: rewardsFor(card, customer.balance).map((r) => ({ missing: Math.max(0, r.cost - customer.balance), ...r })),
    next: nextReward(card, customer.balance),
    running: runningPromotions(deps.db, card, at),
    at,
    expiring: expiringFor(deps.db, customer, card),
  };
}

/** What an award of `base` hundredths gets: the promotions' extra (hundredths) and their names. */
export interface AwardPreview {
  base: number;
  extra: number;
  names: string[];
}

export function previewAward(running: readonly Promotion[], base: number): AwardPreview {
  // As the ledger does: promotions add to an award of something, never to nothing.
  if (base <= 0) return { base, extra: 0, names: [] };
  return { base, extra: applyPromotions(running, base).extra, names: running.map((p) => p.name) };
}
