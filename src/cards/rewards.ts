import { validationFailed } from '../lib/errors';
import { newId } from '../lib/ids';
import { toHundredths } from '../lib/money';
import type { Card, Reward } from './model';

// A card's reward list: how input entries become stored rewards (ids kept or made), and what a
// balance can pay. Every channel (API, counter, console, pass) asks here, so "affordable" and
// "next reward" can never differ between them. Amounts are hundredths.

/** A reward as a seed file, the console or PATCH /v1/cards gives it, cost in units. */
export interface RewardInput {
  id?: string | undefined;
  name: string;
  cost: number;
  description?: string | undefined;
}

/** The list with its default: `reward` is always the first entry. */
export function withRewards(rewards: Reward[]): Pick<Card, 'rewards' | 'reward'> {
  return { rewards, reward: rewards[0] ?? null };
}

/**
 * Stored rewards from input entries, in the order given. An entry naming an id of `existing`
 * keeps that id (integrators' rewardIds stay valid across edits); one without an id gets a new
 * one; an id the card does not have is refused, naming the entry (`rewards[2].id`).
 */
export function rewardsFromInput(existing: readonly Reward[], input: readonly RewardInput[], field = 'rewards'): Reward[] {
  const known = new Set(existing.map((r) => r.id));
  const unknown = input.flatMap((entry, i) => (entry.id !== undefined && !known.has(entry.id) ? [{ path: `${field}[${i}].id`, message: `${entry.id} is not a reward of this card; leave id out for a new reward` }] : []));
  if (unknown.length > 0) throw validationFailed(unknown);
  return input.map((entry) => ({
    id: entry.id ?? newId('rw'),
    name: entry.name,
    cost: toHundredths(entry.cost),
    ...(entry.description ? { description: entry.description } : {}),
  }));
}

/** The reward a redemption names, or the default when it names none; undefined when there is none. */
export function findReward(card: Card, rewardId?: string): Reward | undefined {
  return rewardId === undefined ? card.rewards[0] : card.rewards.find((r) => r.id === rewardId);
}

/** Each reward of the card, and whether `balance` (hundredths) pays for it: what the counter offers. */
export function rewardsFor(card: Card, balance: number): (Reward & { affordable: boolean })[] {
  // The named key first: a literal that starts with a spread gets a hidden class per call (docs/performance.md).
  return card.rewards.map((reward) => ({ affordable: balance >= reward.cost, ...reward }));
}

/**
 * The cheapest reward the balance cannot pay yet, whatever the list order (the first listed of
 * equal costs), with what is still missing; null when every reward is affordable or there is none.
 */
export function nextReward(card: Card, balance: number): { reward: Reward; remaining: number } | null {
  let next: Reward | undefined;
  for (const reward of card.rewards) if (reward.cost > balance && (next === undefined || reward.cost < next.cost)) next = reward;
  return next ? { reward: next, remaining: next.cost - balance } : null;
}
