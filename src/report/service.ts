import type { Card, PassType } from '../cards/model';
import { getOrgCard, listCards } from '../cards/service';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { getOrg } from '../orgs/service';
import { readOrgSettings } from '../orgs/settings';
import { monthRange, parseMonth } from './month';
import { BOOKS_COLUMNS, reportRepo, type BooksColumn } from './repo';

// The books (docs/report.md): per card and month of the shop's calendar, live data only, the
// roll-forward an accountant books — opening balance, each kind of movement, closing balance —
// in the card's units and, where a unit has a money value, in money: the liability for points
// and stamps not yet redeemed (IFRS 15 / ASC 606). Amounts are hundredths of units and cents.

export interface BooksFigures {
  opening: number;
  earned: number;
  /** Of `earned`: what promotions added (not a movement of its own). */
  promotions: number;
  birthday: number;
  imported: number;
  correctedUp: number;
  correctedDown: number;
  redeemed: number;
  expired: number;
  closing: number;
}

/** The movements, in the order the books list them (`promotions` is part of `earned`). */
export const MOVEMENTS: readonly BooksColumn[] = BOOKS_COLUMNS;

export interface MoneyFigures extends BooksFigures {
  /**
   * Each figure is its units times the unit's value, rounded half-up to the cent on its own; what
   * those roundings leave between opening + movements and closing (0 unless the value has more than
   * two decimals), so the money roll-forward adds up too.
   */
  rounding: number;
}

export interface CardBooks {
  cardId: string;
  name: string;
  passType: PassType;
  archived: boolean;
  /** Hundredths of the card's units. */
  units: BooksFigures;
  /** Live customers (erased ones included) whose balance at the month's end was above zero. */
  customersWithBalance: number;
  /** Cents, when a unit has a money value: the card's unitValue, or store credit, which is money. */
  money: MoneyFigures | null;
  /** The money per unit in ten-thousandths (store credit: 10000), or null. */
  unitValueE4: number | null;
  /** The currency the card names (its spend rule's), else the shop's (its settings), else null. */
  currency: string | null;
}

export interface MonthBooks {
  orgId: string;
  month: string;
  timeZone: string;
  /** [from, to) on the shop's calendar. */
  from: number;
  to: number;
  /** False for the month in progress: its closing balance is the balance so far. */
  complete: boolean;
  cards: CardBooks[];
}

export interface BooksDeps {
  db: Db;
  clock: Clock;
}

const E4_ONE = 10_000;

const ZERO: Readonly<Record<BooksColumn | 'promotions', number>> = { earned: 0, promotions: 0, birthday: 0, imported: 0, correctedUp: 0, correctedDown: 0, redeemed: 0, expired: 0 };

/** Cents of `hundredths` units at `e4` ten-thousandths of money each, rounded half-up (away from zero), in integers. */
export function moneyOf(hundredths: number, e4: number): number {
  const product = BigInt(hundredths) * BigInt(e4);
  const whole = product / 10_000n;
  const rest = product % 10_000n;
  const away = (rest < 0n ? -rest : rest) * 2n >= 10_000n ? (product < 0n ? -1n : 1n) : 0n;
  return Number(whole + away);
}

/** The value of one unit in ten-thousandths: store credit is money already; other cards have theirs when the owner set it. */
function unitValueOf(card: Card): number | null {
  return card.passType === 'prepaid_card' ? E4_ONE : card.unitValueE4;
}

function moneyFigures(units: BooksFigures, e4: number): MoneyFigures {
  const m = (h: number) => moneyOf(h, e4);
  const figures = {
    opening: m(units.opening),
    earned: m(units.earned),
    promotions: m(units.promotions),
    birthday: m(units.birthday),
    imported: m(units.imported),
    correctedUp: m(units.correctedUp),
    correctedDown: m(units.correctedDown),
    redeemed: m(units.redeemed),
    expired: m(units.expired),
    closing: m(units.closing),
  };
  const moved = MOVEMENTS.reduce((sum, col) => sum + figures[col], 0);
  return { ...figures, rounding: figures.closing - figures.opening - moved };
}

const monthRefused = (message: string) => new ApiError(400, 'VALIDATION_FAILED', { detail: `month: ${message}`, extra: { issues: [{ path: 'month', message }] } });

/** The month as the books take it: 400 VALIDATION_FAILED naming `month` when it is no month or has not begun. */
export function checkMonth(text: string, now: number, timeZone: string): { month: string; from: number; to: number } {
  const month = parseMonth(text);
  if (!month) throw monthRefused('must be a month written YYYY-MM, e.g. 2026-03');
  const range = monthRange(month, timeZone);
  if (range.from > now) throw monthRefused(`${month} has not begun yet`);
  return { month, ...range };
}

/**
 * The books of one month for every card of the org the month knew (created before its end), or for
 * `cardId` alone (404 CARD_NOT_FOUND, 403 CARD_NOT_IN_ORG as everywhere a card is named).
 */
export function monthlyBooks(deps: BooksDeps, orgId: string, monthText: string, options: { cardId?: string | null } = {}): MonthBooks {
  getOrg(deps, orgId); // 404 ORG_NOT_FOUND for an org this server does not hold
  const { timeZone, currency: shopCurrency } = readOrgSettings(deps.db, orgId);
  const now = deps.clock.now();
  const { month, from, to } = checkMonth(monthText, now, timeZone);
  const cards: Card[] = options.cardId ? [getOrgCard(deps, orgId, options.cardId)] : listCards(deps, orgId).filter((c) => c.createdAt < to);

  const repo = reportRepo(deps.db);
  // One read of the month's rows for every card at once (per customer: the rows carry no card),
  // each customer's card from the cards' lists, then each card's balances at both ends.
  const cardOf = new Map<string, string>();
  for (const card of cards) for (const id of repo.customerIds(card.id)) cardOf.set(id, card.id);
  const moved = new Map<string, Record<BooksColumn | 'promotions', number>>();
  for (const row of repo.movements(orgId, from, to)) {
    const cardId = cardOf.get(row.customerId);
    if (cardId === undefined) continue; // a card the report does not show
    if (!moved.has(cardId)) moved.set(cardId, { ...ZERO });
    const sums = moved.get(cardId)!;
    sums[row.col] += row.amount;
    sums.promotions += row.promotions;
  }

  return {
    orgId,
    month,
    timeZone,
    from,
    to,
    complete: to <= now,
    cards: cards.map((card) => {
      const sums = moved.get(card.id) ?? ZERO;
      const balances = repo.balances(card.id, from, to);
      const units: BooksFigures = { opening: balances.opening, ...sums, closing: balances.closing };
      const e4 = unitValueOf(card);
      return {
        cardId: card.id,
        name: card.name,
        passType: card.passType,
        archived: card.archivedAt !== null,
        units,
        customersWithBalance: balances.holders,
        money: e4 === null ? null : moneyFigures(units, e4),
        unitValueE4: e4,
        currency: card.accrual?.spend?.currency ?? shopCurrency,
      };
    }),
  };
}
