import type { BooksFigures, MonthBooks } from '../../report/service';
import { unitOfPassType } from '../../report/resource';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { fromHundredths } from '../../lib/money';
import { CSV_BOM, csvLine } from '../customers/csv';

// The books as CSV, for the accountant: one line per card, the units first, then the same in money
// where a unit has a value. Amounts are plain numbers (a point as decimal separator), movements
// signed as in the JSON of `wallet-loyalty report`, so each line adds up in a spreadsheet:
// Opening + Earned + Birthday + Imported + both Corrections + Redeemed + Expired = Closing
// ("Of which promotions" is part of Earned; in money, Rounding joins the sum). The headers and the
// unit's name are in the admin's language (the command line's: English); numbers stay plain.

type Figure = keyof BooksFigures;

const FIGURES: { key: Figure; label: ConsoleKey }[] = [
  { key: 'opening', label: 'console.report.csv.opening' },
  { key: 'earned', label: 'console.report.csv.earned' },
  { key: 'promotions', label: 'console.report.csv.promotions' },
  { key: 'birthday', label: 'console.report.csv.birthday' },
  { key: 'imported', label: 'console.report.csv.imported' },
  { key: 'correctedUp', label: 'console.report.csv.correctedUp' },
  { key: 'correctedDown', label: 'console.report.csv.correctedDown' },
  { key: 'redeemed', label: 'console.report.csv.redeemed' },
  { key: 'expired', label: 'console.report.csv.expired' },
];

/** The header line's cells, in the admin's language (the command line's CSV: English). */
export function booksCsvHeader(lang: ConsoleLang = 'en'): string[] {
  const say = (key: ConsoleKey) => tConsole(lang, key);
  const inMoney = (key: ConsoleKey) => tConsole(lang, 'console.report.csv.inMoney', { figure: say(key) });
  return [
    say('console.report.csv.month'), say('console.report.csv.cardId'), say('console.report.csv.card'), say('console.report.csv.unit'),
    ...FIGURES.map((f) => say(f.label)), say('console.report.csv.closing'), say('console.report.csv.customers'),
    say('console.report.csv.currency'), say('console.report.csv.unitValue'),
    ...FIGURES.map((f) => inMoney(f.label)), inMoney('console.report.csv.rounding'), inMoney('console.report.csv.closing'),
  ];
}

export function booksCsv(books: MonthBooks, lang: ConsoleLang = 'en'): string {
  return (
    CSV_BOM +
    csvLine(booksCsvHeader(lang)) +
    books.cards
      .map((card) =>
        csvLine([
          books.month, card.cardId, card.name, tConsole(lang, 'console.report.csv.unitName', { unit: unitOfPassType(card.passType) }),
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
