import type { Card } from '../cards/model';
import { getOrgCard, type CardDeps } from '../cards/service';
import type { Db } from '../db/connection';
import { inTransaction } from '../db/transaction';
import { isoTime } from '../lib/clock';
import { addDays, localDate } from '../lib/days';
import { badRequest, notFound, validationFailed } from '../lib/errors';
import { newId } from '../lib/ids';
import { fromHundredths, toHundredths } from '../lib/money';
import { readOrgSettings } from '../orgs/settings';
import { activeAt, hasEnded, promotionExtra, runsOn, shopMoment, type ShopMoment } from './active';
import { MAX_OPEN_PROMOTIONS, MULTIPLIER_SCALE, type Promotion, type Weekday } from './model';
import { promotionsRepo } from './repo';
import type { CreatePromotionInput, PatchPromotionInput } from './schemas';

// A card's promotions: managed through the API and the console, applied by every earn.
// Amounts arrive in units and are kept as integers (multipliers in tenths, bonuses in hundredths).

/** The shop's time zone: promotions run on its calendar and clock. */
const shopTimeZone = (db: Db, orgId: string): string => readOrgSettings(db, orgId).timeZone;

/** The shop's date today: what `ended` and the limit of 10 are judged by. */
export const shopToday = (deps: CardDeps, orgId: string): string => localDate(deps.clock.now(), shopTimeZone(deps.db, orgId));

/** Stamp, point and level cards; store credit is money, which no promotion multiplies. */
function promotableCard(deps: CardDeps, orgId: string, cardId: string): Card {
  const card = getOrgCard(deps, orgId, cardId);
  if (card.passType === 'prepaid_card') throw badRequest('UNSUPPORTED_FOR_CARD_TYPE', 'store credit is money: a prepaid card has no promotions');
  return card;
}

function findPromotion(deps: CardDeps, card: Card, promotionId: string): Promotion {
  const promotion = promotionsRepo(deps.db).find(card.id, promotionId);
  if (!promotion) throw notFound('PROMOTION_NOT_FOUND', promotionId);
  return promotion;
}

const storedValue = (kind: Promotion['kind'], value: number): number => (kind === 'multiplier' ? Math.round(value * MULTIPLIER_SCALE) : toHundredths(value));

/** At most MAX_OPEN_PROMOTIONS that have not ended, counting `promotion` (when it has not ended) and the card's others. */
function checkOpenLimit(deps: CardDeps, card: Card, promotion: Promotion, today: string): void {
  if (hasEnded(promotion, today)) return;
  if (promotionsRepo(deps.db).openCount(card.id, today, promotion.id) >= MAX_OPEN_PROMOTIONS) {
    throw validationFailed([
      { path: '', message: `this card already has ${MAX_OPEN_PROMOTIONS} promotions that have not ended; delete one, or let one end, before adding another` },
    ]);
  }
}

export function listPromotions(deps: CardDeps, orgId: string, cardId: string): Promotion[] {
  const card = getOrgCard(deps, orgId, cardId);
  return promotionsRepo(deps.db).listForCard(card.id);
}

export function getPromotion(deps: CardDeps, orgId: string, cardId: string, promotionId: string): Promotion {
  return findPromotion(deps, getOrgCard(deps, orgId, cardId), promotionId);
}

export function createPromotion(deps: CardDeps, orgId: string, cardId: string, input: CreatePromotionInput): Promotion {
  return inTransaction(deps.db, () => {
    const card = promotableCard(deps, orgId, cardId);
    const now = deps.clock.now();
    const promotion: Promotion = {
      id: newId('pr'),
      cardId: card.id,
      name: input.name,
      kind: input.kind,
      value: storedValue(input.kind, input.value),
      startsOn: input.startsAt,
      endsOn: input.endsAt,
      weekdays: input.weekdays ? ([...input.weekdays].sort((a, b) => a - b) as Weekday[]) : null,
      hours: input.hours ?? null,
      createdAt: now,
      updatedAt: now,
    };
    checkOpenLimit(deps, card, promotion, shopToday(deps, orgId));
    promotionsRepo(deps.db).insert(promotion);
    return promotion;
  });
}

/** Sets the fields sent; the others stay. endsAt may not fall before the start it ends up with. */
export function updatePromotion(deps: CardDeps, orgId: string, cardId: string, promotionId: string, patch: PatchPromotionInput): Promotion {
  return inTransaction(deps.db, () => {
    const card = promotableCard(deps, orgId, cardId);
    const before = findPromotion(deps, card, promotionId);
    const updated: Promotion = {
      ...before,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.kind !== undefined ? { kind: patch.kind, value: storedValue(patch.kind, patch.value) } : {}),
      ...(patch.startsAt !== undefined ? { startsOn: patch.startsAt } : {}),
      ...(patch.endsAt !== undefined ? { endsOn: patch.endsAt } : {}),
      ...(patch.weekdays !== undefined ? { weekdays: patch.weekdays === null ? null : ([...patch.weekdays].sort((a, b) => a - b) as Weekday[]) } : {}),
      ...(patch.hours !== undefined ? { hours: patch.hours } : {}),
      updatedAt: deps.clock.now(),
    };
    if (updated.endsOn < updated.startsOn) {
      const path = patch.endsAt !== undefined ? 'endsAt' : 'startsAt';
      throw validationFailed([{ path, message: path === 'endsAt' ? `must not be before startsAt (${updated.startsOn})` : `must not be after endsAt (${updated.endsOn})` }]);
    }
    checkOpenLimit(deps, card, updated, shopToday(deps, orgId));
    promotionsRepo(deps.db).update(updated);
    return updated;
  });
}

/** Removes the promotion; earns from now on no longer get it (earlier rows keep its id). */
export function deletePromotion(deps: CardDeps, orgId: string, cardId: string, promotionId: string): Promotion {
  return inTransaction(deps.db, () => {
    const promotion = findPromotion(deps, getOrgCard(deps, orgId, cardId), promotionId);
    promotionsRepo(deps.db).remove(promotion.id);
    return promotion;
  });
}

/** A card's promotions as its console page shows them: what runs now and on each of the next days, on the shop's calendar. */
export interface PromotionsOverview {
  card: Card;
  timeZone: string;
  /** Now on the shop's clock. */
  now: ShopMoment;
  /** Every promotion of the card, oldest first, ended ones too. */
  promotions: Promotion[];
  /** Those that give extra on an award made now. */
  running: Promotion[];
  /** From today on, each shop day with the promotions that run at some time of it. */
  days: { date: string; promotions: Promotion[] }[];
  /** Promotions not yet ended, of the MAX_OPEN_PROMOTIONS a card may have. */
  open: number;
}

/** The card's promotions now and over the next `days` shop days (today included). */
export function promotionsOverview(deps: CardDeps, orgId: string, cardId: string, days: number): PromotionsOverview {
  const card = getOrgCard(deps, orgId, cardId);
  const timeZone = shopTimeZone(deps.db, orgId);
  const at = deps.clock.now();
  const now = shopMoment(at, timeZone);
  const promotions = promotionsRepo(deps.db).listForCard(card.id);
  const dates = Array.from({ length: days }, (_, i) => addDays(now.date, i));
  return {
    card,
    timeZone,
    now,
    promotions,
    running: activeAt(promotions, at, timeZone),
    days: dates.map((date) => ({ date, promotions: promotions.filter((p) => runsOn(p, date)) })),
    open: promotions.filter((p) => !hasEnded(p, now.date)).length,
  };
}

/** What the promotions running at an award add to it: their ids (oldest first) and the extra in hundredths. */
export interface AppliedPromotions {
  ids: string[];
  extra: number;
}

export const NO_PROMOTIONS: AppliedPromotions = Object.freeze({ ids: [], extra: 0 }) as AppliedPromotions;

/**
 * The promotions of `card` running at `at` (ms), oldest first. One indexed read of the card's
 * promotions whose dates are near `at` (a date in any time zone is within a day of UTC's); only a
 * card that has some reads the shop's time zone. The earn and the counter's "what this tap gives"
 * both start here.
 */
export function runningPromotions(db: Db, card: Card, at: number): Promotion[] {
  if (card.passType === 'prepaid_card') return [];
  const utcDate = localDate(at, 'UTC');
  const candidates = promotionsRepo(db).overlapping(card.id, addDays(utcDate, -1), addDays(utcDate, 1));
  if (candidates.length === 0) return [];
  return activeAt(candidates, at, shopTimeZone(db, card.orgId));
}

/** What running promotions add to an award of `base` hundredths. */
export function applyPromotions(running: readonly Promotion[], base: number): AppliedPromotions {
  if (running.length === 0) return NO_PROMOTIONS;
  return { ids: running.map((p) => p.id), extra: promotionExtra(base, running) };
}

/** The promotions of `card` running at `at` (ms) and what they add to an award of `base` hundredths. */
export function promotionsForAward(db: Db, card: Card, base: number, at: number): AppliedPromotions {
  return applyPromotions(runningPromotions(db, card, at), base);
}

/** The promotion as the API shows it: values in units, whether it has ended by the shop's calendar. */
export function promotionResource(promotion: Promotion, today: string) {
  return {
    id: promotion.id,
    cardId: promotion.cardId,
    name: promotion.name,
    kind: promotion.kind,
    value: promotion.kind === 'multiplier' ? promotion.value / MULTIPLIER_SCALE : fromHundredths(promotion.value),
    startsAt: promotion.startsOn,
    endsAt: promotion.endsOn,
    weekdays: promotion.weekdays,
    hours: promotion.hours,
    ended: hasEnded(promotion, today),
    createdAt: isoTime(promotion.createdAt),
    updatedAt: isoTime(promotion.updatedAt),
  };
}
