import type { Card, Level } from '../cards/model';
import { fromHundredths } from '../lib/money';

/** The tier a balance (hundredths) reaches on a level card: the highest whose minPoints it meets. */
export function levelFor(card: Card, balance: number): Level | null {
  if (card.passType !== 'level_card' || !card.levels?.length) return null;
  let reached: Level = card.levels[0]!;
  for (const level of card.levels) if (balance >= level.minPoints) reached = level;
  return reached;
}

export type BalanceObject = { stamps: number } | { points: number } | { points: number; level: string };

/** The balance object of the customer endpoints, amounts in units. */
export function balanceObject(card: Card, balance: number): BalanceObject {
  const units = fromHundredths(balance);
  switch (card.passType) {
    case 'stamp_card':
      return { stamps: units };
    case 'level_card':
      return { points: units, level: levelFor(card, balance)?.name ?? '' };
    default:
      return { points: units };
  }
}
