import { inTransaction } from '../db/transaction';
import type { Card, Level } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Customer, Namespace } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { erasedCodeMarker, findCustomerByScanCode } from '../customers/secret-codes';
import type { AppDeps } from '../deps';
import { localDayRange } from '../lib/days';
import { ApiError, badRequest, conflict, notFound } from '../lib/errors';
import { normalizeEmail, normalizeTypedPhone } from '../lib/contact';
import type { BalanceChangeResult } from '../loyalty/ledger';
import { ledgerRepo, type LedgerEntry } from '../loyalty/repo';
import type { StaffRef } from '../lib/changes';
import { earn, redeem, reverseTransaction, type EarnBasis } from '../loyalty/service';
import type { OrgSettings } from '../orgs/settings';
import { findReward } from '../cards/rewards';
import { listPromotions } from '../promotions/service';
import { balanceText, displayName } from './format';
import { offersFor, type CounterOffers } from './offers';
import { counterRepo } from './repo';
import { webPassUsersAmong } from '../wallet/web-pass-opens';

// The counter's rules on top of the loyalty service (decisions §8): every change goes
// through the same earn / redeem / reverse functions as the API, with source `scan` and the staff
// member, so limits, ledger rows, events and wallet updates are those of an API call. What the
// counter adds: finding a customer by the pass's scan code, the owner's daily caps, and undo.

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
export function customerByCode(deps: Pick<AppDeps, 'db'>, n: Namespace, raw: string): Customer {
  const code = raw.trim();
  if (!code) throw badRequest('CODE_MISSING', 'scan a pass or type its code first');
  const match = findCustomerByScanCode(deps.db, code);
  if (!match && customersRepo(deps.db).erasedByScanMarker(erasedCodeMarker(code))?.org_id === n.orgId) {
    throw notFound('CARD_REMOVED', 'this card was removed: the customer’s personal data was deleted at their request. Enroll them again if they want a new card');
  }
  if (!match || match.orgId !== n.orgId) {
    throw notFound('UNKNOWN_CODE', 'no customer has this code. Check the code, or search by name, phone or email');
  }
  if (match.livemode !== n.livemode) {
    throw conflict(
      'OTHER_MODE',
      match.livemode
        ? 'this is a real customer’s pass, and the counter is on test data. Switch to live data to use it'
        : 'this is a test pass: it belongs to test data, not to a real customer. Switch the counter to test data to try it out',
    );
  }
  return match;
}

export function customerById(deps: Pick<AppDeps, 'db'>, n: Namespace, passUserId: string): Customer {
  const customer = passUserId ? customersRepo(deps.db).findById(n, passUserId) : undefined;
  if (!customer) throw notFound('CUSTOMER_NOT_FOUND', 'this customer no longer exists here. Scan or search again');
  return customer;
}

/** What staff typed: a pass code opens its customer; otherwise name, email, phone (the local way too, in `country`) or external id. */
export function findCustomers(deps: Pick<AppDeps, 'db'>, n: Namespace, raw: string, country: string | null = null): Customer[] {
  const text = raw.trim().slice(0, 200);
  if (text.length < 2) throw badRequest('SEARCH_TOO_SHORT', 'type at least 2 characters, or scan the pass');
  if (findCustomerByScanCode(deps.db, text)) return [customerByCode(deps, n, text)];
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
  const entries = ledger.page(customer.id, RECENT_ROWS).map((row) => ({ ...row, reversed: reversed.has(row.id) }));
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
  if (staffDailyAwardCap === null && customerDailyAwardCap === null) return;
  const day = localDayRange(deps.clock.now(), actor.settings.timeZone);
  const repo = counterRepo(deps.db);
  if (staffDailyAwardCap !== null) {
    const made = repo.staffAwardsBetween({ ...actor.namespace, staffId: actor.staff.id, start: day.start, end: day.end });
    if (made >= staffDailyAwardCap) {
      throw badRequest('STAFF_DAILY_AWARD_CAP', `you have made ${made} awards today, the most the owner allows one staff member in a day (${staffDailyAwardCap}). Ask the owner`);
    }
  }
  if (customerDailyAwardCap !== null) {
    const received = repo.customerAwardsBetween({ customerId: customer.id, start: day.start, end: day.end });
    if (received >= customerDailyAwardCap) {
      throw badRequest(
        'CUSTOMER_DAILY_AWARD_CAP',
        `${customer.name ?? 'this customer'} has had ${received} award${received === 1 ? '' : 's'} at the counter today, the most the owner allows one customer in a day (${customerDailyAwardCap})`,
      );
    }
  }
}

/** An award at the counter: stamps on stamp cards, points (or store credit) on the others. */
export function awardAtCounter(deps: AppDeps, actor: CounterActor, customer: Customer, basis: EarnBasis, idempotencyKey: string): BalanceChangeResult {
  return inTransaction(deps.db, () => {
    checkDailyCaps(deps, actor, customer);
    const type = cardOf(deps, customer).passType === 'stamp_card' ? 'stamps' : 'points';
    return earn(deps, { customer, source: 'scan', staff: actor.staff, idempotencyKey, type, basis });
  });
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
  if (what.type === 'points') return redeem(deps, { type: 'points', amount: what.amount, ...common });
  try {
    return redeem(deps, { type: 'reward', rewardId: what.rewardId, ...common });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'REWARD_NOT_FOUND') throw badRequest('REWARD_NOT_FOUND', 'this reward is no longer on the card: the owner changed the rewards. Open the customer again');
    const card = cardOf(deps, customer);
    const reward = findReward(card, what.rewardId);
    if (err.code === 'INSUFFICIENT_BALANCE' && reward) {
      const { balance } = customer;
      throw badRequest(
        'INSUFFICIENT_BALANCE',
        `${reward.name} costs ${balanceText(card, reward.cost)} and ${displayName(customer, 'the customer')} has ${balanceText(card, balance)}: ${balanceText(card, reward.cost - balance)} missing`,
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
  return inTransaction(deps.db, () => {
    const row = ledgerRepo(deps.db).find(customer.id, transactionId);
    if (!row) throw notFound('TRANSACTION_NOT_FOUND', 'there is no such entry for this customer');
    if (row.source !== 'scan' || row.staffId !== actor.staff.id) {
      throw badRequest('NOT_YOUR_ENTRY', 'you can only undo your own entries at the counter. The owner can correct this one in the console');
    }
    if (deps.clock.now() - row.createdAt > UNDO_WINDOW_MS) {
      throw badRequest('UNDO_TOO_LATE', `an entry can be undone for ${UNDO_WINDOW_MS / 60_000} minutes. The owner can correct this one in the console`);
    }
    try {
      return reverseTransaction(deps, { customer, transactionId, source: 'scan', staff: actor.staff, idempotencyKey });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INSUFFICIENT_BALANCE') {
        throw badRequest('INSUFFICIENT_BALANCE', 'the balance is now lower than this entry added (it was spent since), so it cannot be undone');
      }
      throw err;
    }
  });
}
