import { inTransaction } from '../db/transaction';
import type { Card, Level } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Customer, Namespace } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { erasedCodeMarker, findCustomerByScanCode } from '../customers/secret-codes';
import type { AppDeps } from '../deps';
import { localDayRange } from '../lib/days';
import { ApiError, badRequest, conflict, inWords, notFound } from '../lib/errors';
import { normalizeEmail, normalizeTypedPhone } from '../lib/contact';
import type { BalanceChangeResult } from '../loyalty/ledger';
import { ledgerRepo, type LedgerEntry } from '../loyalty/repo';
import type { StaffRef } from '../lib/changes';
import { earn, redeem, reverseTransaction, type EarnBasis } from '../loyalty/service';
import type { OrgSettings } from '../orgs/settings';
import { findReward } from '../cards/rewards';
import { listPromotions } from '../promotions/service';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { amountText, balanceText, displayName, voiceOf, type Voice } from './format';
import { offersFor, type CounterOffers } from './offers';
import { awardChange } from './large-award';
import { counterRepo } from './repo';
import { webPassUsersAmong } from '../wallet/web-pass-opens';

// The counter's rules on top of the loyalty service: every change goes
// through the same earn / redeem / reverse functions as the API, with source `scan` and the staff
// member, so limits, ledger rows, events and wallet updates are those of an API call. What the
// counter adds: finding a customer by the pass's scan code, the owner's daily caps, and undo.
// Its refusals are said to the staff in the shop's language (`lang`), each under the API's code.

/** How long a staff member may undo their own entry. */
export const UNDO_WINDOW_MS = 5 * 60_000;
/** How many ledger rows the customer screen lists. */
const RECENT_ROWS = 5;
const SEARCH_LIMIT = 20;

/** Who acts at the counter, in which data (live or test), under which org settings. */
export interface CounterActor {
  namespace: Namespace;
  staff: StaffRef;
  settings: OrgSettings;
}

function cardOf(deps: Pick<AppDeps, 'db'>, customer: Customer): Card {
  const card = cardsRepo(deps.db).findById(customer.cardId);
  if (!card) throw new Error(`card ${customer.cardId} of customer ${customer.id} is missing`);
  return card;
}

/**
 * The customer behind a pass's scan code. A code of the org's other mode says so plainly (a test
 * pass at a live counter is the usual mistake); a code of another org is as unknown as a typo.
 */
export function customerByCode(deps: Pick<AppDeps, 'db'>, n: Namespace, lang: Lang, raw: string): Customer {
  const code = raw.trim();
  if (!code) throw inWords(badRequest('CODE_MISSING', t(lang, 'counter.error.codeMissing')));
  const match = findCustomerByScanCode(deps.db, code);
  if (!match && customersRepo(deps.db).erasedByScanMarker(erasedCodeMarker(code))?.org_id === n.orgId) {
    throw inWords(notFound('CARD_REMOVED', t(lang, 'counter.error.cardRemoved')));
  }
  if (!match || match.orgId !== n.orgId) {
    throw inWords(notFound('UNKNOWN_CODE', t(lang, 'counter.error.unknownCode')));
  }
  if (match.livemode !== n.livemode) {
    throw inWords(conflict('OTHER_MODE', t(lang, match.livemode ? 'counter.error.livePass' : 'counter.error.testPass')));
  }
  return match;
}

export function customerById(deps: Pick<AppDeps, 'db'>, n: Namespace, lang: Lang, passUserId: string): Customer {
  const customer = passUserId ? customersRepo(deps.db).findById(n, passUserId) : undefined;
  if (!customer) throw inWords(notFound('CUSTOMER_NOT_FOUND', t(lang, 'counter.error.customerGone')));
  return customer;
}

/** What staff typed: a pass code opens its customer; otherwise name, email, phone (the local way too, in `country`) or external id. */
export function findCustomers(deps: Pick<AppDeps, 'db'>, n: Namespace, lang: Lang, raw: string, country: string | null = null): Customer[] {
  const text = raw.trim().slice(0, 200);
  if (text.length < 2) throw inWords(badRequest('SEARCH_TOO_SHORT', t(lang, 'counter.error.searchTooShort')));
  if (findCustomerByScanCode(deps.db, text)) return [customerByCode(deps, n, lang, text)];
  const ids = counterRepo(deps.db).search({ ...n, text, email: normalizeEmail(text), phone: normalizeTypedPhone(text, country), limit: SEARCH_LIMIT });
  return ids.map((id) => customersRepo(deps.db).findById(n, id)).filter((c): c is Customer => Boolean(c));
}

export interface ScreenEntry extends LedgerEntry {
  reversed: boolean;
}

/** Everything the customer screen shows. */
export interface CustomerScreen {
  customer: Customer;
  card: Card;
  level: Level | null;
  nextLevel: Level | null;
  /** Rewards, promotions running now, and the units that expire next. */
  offers: CounterOffers;
  /** The names of the card's promotions by id, for the entries they added to. */
  promotionNames: ReadonlyMap<string, string>;
  entries: ScreenEntry[];
  /** The row this member's Undo button reverses, if any. */
  undoable: LedgerEntry | undefined;
  /** The customer opened their web pass (no wallet app holds it, but they have their card). */
  usesWebPass: boolean;
}

export function customerScreen(deps: Pick<AppDeps, 'db' | 'clock'>, customer: Customer, staffId: string): CustomerScreen {
  const card = cardOf(deps, customer);
  const ledger = ledgerRepo(deps.db);
  const reversed = counterRepo(deps.db).reversedIds(customer.id);
  // The named key first: a literal that starts with a spread gets a hidden class per call (docs/performance.md).
  const entries = ledger.page(customer.id, RECENT_ROWS).map((row) => ({ reversed: reversed.has(row.id), ...row }));
  const undoId = counterRepo(deps.db).undoableRow({ customerId: customer.id, staffId, since: deps.clock.now() - UNDO_WINDOW_MS });
  const levels = card.passType === 'level_card' ? (card.levels ?? []) : [];
  const level = [...levels].reverse().find((l) => customer.balance >= l.minPoints) ?? null;
  return {
    customer,
    card,
    level,
    nextLevel: levels.find((l) => l.minPoints > customer.balance) ?? null,
    offers: offersFor(deps, customer, card),
    promotionNames: promotionNamesOf(deps, card),
    entries,
    undoable: undoId ? ledger.find(customer.id, undoId) : undefined,
    usesWebPass: customer.status === 'pending_install' && webPassUsersAmong(deps.db, [customer.id]).size > 0,
  };
}

/** The names of the card's promotions by id (ended ones too: older entries name them). */
export function promotionNamesOf(deps: Pick<AppDeps, 'db' | 'clock'>, card: Card): ReadonlyMap<string, string> {
  return new Map(listPromotions(deps, card.orgId, card.id).map((p) => [p.id, p.name]));
}

/**
 * The owner's caps (org settings): award actions at the counter per staff member
 * and per customer in the shop's local day. Checked inside the award's own transaction, so two
 * awards cannot both pass the last free place.
 */
function checkDailyCaps(deps: Pick<AppDeps, 'db' | 'clock'>, actor: CounterActor, customer: Customer): void {
  const { staffDailyAwardCap, customerDailyAwardCap } = actor.settings.counter;
  const lang = actor.settings.language;
  if (staffDailyAwardCap === null && customerDailyAwardCap === null) return;
  const day = localDayRange(deps.clock.now(), actor.settings.timeZone);
  const repo = counterRepo(deps.db);
  if (staffDailyAwardCap !== null) {
    const made = repo.staffAwardsBetween({ ...actor.namespace, staffId: actor.staff.id, start: day.start, end: day.end });
    if (made >= staffDailyAwardCap) {
      throw inWords(badRequest('STAFF_DAILY_AWARD_CAP', t(lang, 'counter.error.staffCap', { made, cap: staffDailyAwardCap })));
    }
  }
  if (customerDailyAwardCap !== null) {
    const received = repo.customerAwardsBetween({ customerId: customer.id, start: day.start, end: day.end });
    if (received >= customerDailyAwardCap) {
      const name = customer.name ?? t(lang, 'counter.thisCustomer');
      throw inWords(badRequest('CUSTOMER_DAILY_AWARD_CAP', t(lang, 'counter.error.customerCap', { name, received, cap: customerDailyAwardCap })));
    }
  }
}

/** An award at the counter: stamps on stamp cards, points (or store credit) on the others. */
export function awardAtCounter(deps: AppDeps, actor: CounterActor, customer: Customer, basis: EarnBasis, idempotencyKey: string): BalanceChangeResult {
  return inTransaction(deps.db, () => {
    checkDailyCaps(deps, actor, customer);
    const card = cardOf(deps, customer);
    const type = card.passType === 'stamp_card' ? 'stamps' : 'points';
    try {
      return earn(deps, { customer, source: 'scan', staff: actor.staff, idempotencyKey, type, basis });
    } catch (err) {
      throw limitRefusal(voiceOf(actor.settings), card, awardChange(card, basis), err);
    }
  });
}

/** The card's earning limits (loyalty/limits.ts) said to the staff in the shop's language; any other error as it is. `base`: the award before promotions, as the limits judge it. */
function limitRefusal(v: Voice, card: Card, base: number, err: unknown): unknown {
  const limits = card.earningLimits;
  if (!(err instanceof ApiError) || !limits) return err;
  if (err.code === 'AWARD_WAIT_ACTIVE') {
    return inWords(new ApiError(err.status, err.code, { detail: t(v.lang, 'counter.error.wait', { wait: limits.waitSeconds ?? 0, retry: Number(err.extra.retryAfterSeconds ?? 0) }), extra: err.extra }));
  }
  if (err.code === 'AWARD_MAX_PER_AWARD' && limits.maxPerAward !== undefined) {
    return inWords(new ApiError(err.status, err.code, { detail: t(v.lang, 'counter.error.maxPerAward', { max: balanceText(v, card, limits.maxPerAward), amount: balanceText(v, card, base) }) }));
  }
  if (err.code === 'AWARD_PERIOD_LIMIT' && limits.maxPerPeriod !== undefined && limits.period !== undefined) {
    return inWords(new ApiError(err.status, err.code, { detail: t(v.lang, 'counter.error.periodLimit', { max: balanceText(v, card, limits.maxPerPeriod), period: limits.period }) }));
  }
  return err;
}

/**
 * A redemption at the counter: one of the card's rewards (the default when `rewardId` is left
 * out, as in the API), or points. The API's refusals are said in the staff's words.
 */
export function redeemAtCounter(
  deps: AppDeps,
  actor: CounterActor,
  customer: Customer,
  what: { type: 'reward'; rewardId?: string | undefined } | { type: 'points'; amount: number },
  idempotencyKey: string,
): BalanceChangeResult {
  const common = { customer, source: 'scan' as const, staff: actor.staff, idempotencyKey };
  const v = voiceOf(actor.settings);
  if (what.type === 'points') {
    try {
      return redeem(deps, { type: 'points', amount: what.amount, ...common });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INSUFFICIENT_BALANCE') {
        const plain = (hundredths: number) => amountText(v, cardOf(deps, customer), hundredths);
        throw inWords(badRequest('INSUFFICIENT_BALANCE', t(v.lang, 'counter.error.balanceShort', { balance: plain(customer.balance), amount: plain(what.amount) })));
      }
      throw err;
    }
  }
  try {
    return redeem(deps, { type: 'reward', rewardId: what.rewardId, ...common });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'REWARD_NOT_FOUND') throw inWords(badRequest('REWARD_NOT_FOUND', t(v.lang, 'counter.error.rewardGone')));
    const card = cardOf(deps, customer);
    const reward = findReward(card, what.rewardId);
    if (err.code === 'INSUFFICIENT_BALANCE' && reward) {
      const { balance } = customer;
      const name = displayName(v, customer, t(v.lang, 'counter.thisCustomer'));
      throw inWords(
        badRequest(
          'INSUFFICIENT_BALANCE',
          t(v.lang, 'counter.error.rewardShort', { reward: reward.name, cost: balanceText(v, card, reward.cost), name, balance: balanceText(v, card, balance), missing: balanceText(v, card, reward.cost - balance) }),
        ),
      );
    }
    throw err;
  }
}

/**
 * Undo: a reversing entry for one of this member's own counter entries, within UNDO_WINDOW_MS.
 * Own entries only: nobody can quietly take back what a colleague gave (the owner corrects
 * anything else in the console, where it is attributed to them).
 */
export function undoAtCounter(deps: AppDeps, actor: CounterActor, customer: Customer, transactionId: string, idempotencyKey: string): BalanceChangeResult {
  const lang = actor.settings.language;
  return inTransaction(deps.db, () => {
    const row = ledgerRepo(deps.db).find(customer.id, transactionId);
    if (!row) throw inWords(notFound('TRANSACTION_NOT_FOUND', t(lang, 'counter.error.noEntry')));
    if (row.source !== 'scan' || row.staffId !== actor.staff.id) throw inWords(badRequest('NOT_YOUR_ENTRY', t(lang, 'counter.error.notYours')));
    if (deps.clock.now() - row.createdAt > UNDO_WINDOW_MS) throw inWords(badRequest('UNDO_TOO_LATE', t(lang, 'counter.error.undoLate', { minutes: UNDO_WINDOW_MS / 60_000 })));
    try {
      return reverseTransaction(deps, { customer, transactionId, source: 'scan', staff: actor.staff, idempotencyKey });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'INSUFFICIENT_BALANCE') throw inWords(badRequest('INSUFFICIENT_BALANCE', t(lang, 'counter.error.undoSpent')));
      if (err.code === 'ALREADY_REVERSED') throw inWords(new ApiError(err.status, err.code, { detail: t(lang, 'counter.error.alreadyUndone') }));
      if (err.code === 'NOT_REVERSIBLE') throw inWords(new ApiError(err.status, err.code, { detail: t(lang, 'counter.error.notReversible') }));
      throw err;
    }
  });
}
