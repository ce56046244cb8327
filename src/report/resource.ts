import type { PassType } from '../cards/model';
import { isoTime } from '../lib/clock';
import { fromHundredths } from '../lib/money';
import type { BooksFigures, CardBooks, MonthBooks } from './service';

// The books as `wallet-loyalty report` prints them (JSON): units and money as decimal numbers, like
// every amount of the API; movements signed (what lowered the balances is negative), so opening +
// every movement = closing, and `promotions` is the part of `earned` that promotions added.

export type BooksUnit = 'stamps' | 'points' | 'credit';

export const unitOfPassType = (passType: PassType): BooksUnit => (passType === 'stamp_card' ? 'stamps' : passType === 'prepaid_card' ? 'credit' : 'points');

const FIGURES: readonly (keyof BooksFigures)[] = ['opening', 'earned', 'promotions', 'birthday', 'imported', 'correctedUp', 'correctedDown', 'redeemed', 'expired', 'closing'];

function decimals(figures: BooksFigures): Record<keyof BooksFigures, number> {
  return Object.fromEntries(FIGURES.map((f) => [f, fromHundredths(figures[f])])) as Record<keyof BooksFigures, number>;
}

export function cardBooksResource(card: CardBooks) {
  return {
    cardId: card.cardId,
    name: card.name,
    passType: card.passType,
    archived: card.archived,
    unit: unitOfPassType(card.passType),
    ...decimals(card.units),
    customersWithBalance: card.customersWithBalance,
    money: card.money && {
      currency: card.currency,
      unitValue: card.unitValueE4! / 10_000,
      ...decimals(card.money),
      rounding: fromHundredths(card.money.rounding),
    },
  };
}

export function monthBooksResource(books: MonthBooks) {
  return {
    orgId: books.orgId,
    month: books.month,
    timeZone: books.timeZone,
    from: isoTime(books.from),
    to: isoTime(books.to),
    complete: books.complete,
    cards: books.cards.map(cardBooksResource),
  };
}
