import type { BooksFigures, MonthBooks } from '../../report/service';
import { unitOfPassType } from '../../report/resource';
import { fromHundredths } from '../../lib/money';
import { CSV_BOM, csvLine } from '../customers/csv';

// The books as CSV, for the accountant: one line per card, the units first, then the same in money
// where a unit has a value. Amounts are plain numbers (a point as decimal separator), movements
// signed as in the JSON of `wallet-loyalty report`, so each line adds up in a spreadsheet:
// Opening + Earned + Birthday + Imported + both Corrections + Redeemed + Expired = Closing
// ("Of which promotions" is part of Earned; in money, Rounding joins the sum).

type Figure = keyof BooksFigures;

const FIGURES: { key: Figure; label: string }[] = [
  { key: 'opening', label: 'Opening' },
  { key: 'earned', label: 'Earned' },
  { key: 'promotions', label: 'Of which promotions' },
  { key: 'birthday', label: 'Birthday' },
  { key: 'imported', label: 'Imported' },
  { key: 'correctedUp', label: 'Corrections added' },
  { key: 'correctedDown', label: 'Corrections taken off' },
  { key: 'redeemed', label: 'Redeemed' },
  { key: 'expired', label: 'Expired' },
];

export const BOOKS_CSV_HEADER = [
  'Month', 'Card id', 'Card', 'Unit',
  ...FIGURES.map((f) => f.label), 'Closing', 'Customers with a balance',
  'Currency', 'Unit value',
  ...FIGURES.map((f) => `${f.label} (money)`), 'Rounding (money)', 'Closing (money)',
];

export function booksCsv(books: MonthBooks): string {
  return (
    CSV_BOM +
    csvLine(BOOKS_CSV_HEADER) +
    books.cards
      .map((card) =>
        csvLine([
          books.month, card.cardId, card.name, unitOfPassType(card.passType),
          ...FIGURES.map((f) => fromHundredths(card.units[f.key])), fromHundredths(card.units.closing), card.customersWithBalance,
          card.money ? card.currency : null, card.money ? card.unitValueE4! / 10_000 : null,
          ...(card.money ? [...FIGURES.map((f) => fromHundredths(card.money![f.key])), fromHundredths(card.money.rounding), fromHundredths(card.money.closing)] : [...FIGURES.map(() => null), null, null]),
        ]),
      )
      .join('')
  );
}

/** `books-2026-03.csv`, or `books-2026-03-<card>.csv` for one card. */
export const booksCsvName = (month: string, cardId?: string | null) => `books-${month}${cardId ? `-${cardId}` : ''}.csv`;
