import { inTransaction } from '../db/transaction';
import { takesRewards, type Card } from '../cards/model';
import { findReward } from '../cards/rewards';
import { cardsRepo } from '../cards/repo';
import type { Customer } from '../customers/model';
import { badRequest, conflict, notFound } from '../lib/errors';
import { accrue, type ItemsSale, type SpendSale } from './accrual';
import { changeBalance, type BalanceChangeResult, type LoyaltyDeps } from './ledger';
import { ledgerRepo } from './repo';
import type { Channel, StaffRef } from '../lib/changes';

// The three loyalty operations, shared by every channel: the API now, the counter scan, sign-up
// and console later. Each checks what fits the card type, works out the change in hundredths and
// hands it to changeBalance, which alone writes. Amounts arrive in hundredths.

export interface OperationInput {
  customer: Customer;
  source: Channel;
  /** The staff member at the counter (source `scan`). */
  staff?: StaffRef | null;
  note?: string | null;
  idempotencyKey?: string | null;
}

export type EarnType = 'points' | 'stamps';
export type EarnBasis = { from: 'amount'; amount: number } | SpendSale | ItemsSale;

export interface EarnInput extends OperationInput {
  type: EarnType;
  basis: EarnBasis;
}

export type RedeemInput = OperationInput & ({ type: 'points'; amount: number } | { type: 'reward'; rewardId?: string | undefined });

export type AdjustInput = OperationInput & ({ balanceCorrection: number } | { setPoints: number });

/** The customer's card; it exists while the customer does (foreign key with cascade). */
function cardOf(deps: LoyaltyDeps, customer: Customer): Card {
  const card = cardsRepo(deps.db).findById(customer.cardId);
  if (!card) throw new Error(`card ${customer.cardId} of customer ${customer.id} is missing`);
  return card;
}

function unsupported(card: Card, what: string) {
  return badRequest('UNSUPPORTED_FOR_CARD_TYPE', `${what} does not apply to a ${card.passType}`);
}

const common = (input: OperationInput) => ({ customer: input.customer, source: input.source, staff: input.staff, note: input.note, idempotencyKey: input.idempotencyKey });

/** Awards stamps (stamp cards) or points (every other card): a flat amount, or a sale through the card's accrual rule. */
export function earn(deps: LoyaltyDeps, input: EarnInput): BalanceChangeResult {
  const card = cardOf(deps, input.customer);
  const expected: EarnType = card.passType === 'stamp_card' ? 'stamps' : 'points';
  if (input.type !== expected) throw unsupported(card, `type ${input.type}`);

  const { basis } = input;
  if (basis.from === 'amount') {
    return changeBalance(deps, { card, kind: 'earn', change: basis.amount, isAward: true, promotions: true, field: 'amount', ...common(input) });
  }
  const { change, details } = accrue(card, basis);
  return changeBalance(deps, { card, kind: 'earn', change, isAward: true, promotions: true, details, field: basis.from === 'spend' ? 'spend.amount' : 'items', ...common(input) });
}

/**
 * `points` deducts an amount (point, level and prepaid cards); `reward` redeems one of the card's
 * rewards (stamp and point cards): the one `rewardId` names, else the default (the first), and
 * also emits reward.redeemed.
 */
export function redeem(deps: LoyaltyDeps, input: RedeemInput): BalanceChangeResult {
  const card = cardOf(deps, input.customer);
  if (input.type === 'points') {
    if (card.passType === 'stamp_card') throw unsupported(card, 'redeeming points');
    return changeBalance(deps, { card, kind: 'redeem', change: -input.amount, isAward: false, field: 'amount', ...common(input) });
  }
  if (!takesRewards(card.passType)) throw unsupported(card, 'redeeming a reward');
  const reward = findReward(card, input.rewardId);
  if (!reward) {
    if (input.rewardId !== undefined) throw badRequest('REWARD_NOT_FOUND', `${input.rewardId} is not a reward of this card`);
    throw badRequest('REWARD_NOT_CONFIGURED', 'this card has no reward to redeem');
  }
  return changeBalance(deps, {
    card,
    kind: 'redeem',
    change: -reward.cost,
    isAward: false,
    details: { reward: { id: reward.id, name: reward.name, cost: reward.cost } },
    field: 'type',
    rewardRedeemed: { rewardId: reward.id },
    ...common(input),
  });
}

/**
 * A signed correction (any card; a refund is a negative one) or an absolute points balance (point
 * and level cards). Raising the balance is an award, so the earning limits apply.
 */
export function adjust(deps: LoyaltyDeps, input: AdjustInput): BalanceChangeResult {
  const card = cardOf(deps, input.customer);
  if ('setPoints' in input) {
    if (card.passType !== 'point_card' && card.passType !== 'level_card') throw unsupported(card, 'setPoints');
    return changeBalance(deps, {
      card,
      kind: 'adjust',
      change: { to: input.setPoints },
      isAward: true,
      details: { setPoints: input.setPoints },
      field: 'setPoints',
      ...common(input),
    });
  }
  return changeBalance(deps, { card, kind: 'adjust', change: input.balanceCorrection, isAward: true, field: 'balanceCorrection', ...common(input) });
}

export interface ReverseInput extends OperationInput {
  /** The ledger row to undo: one of this customer's earn, redeem or adjust rows. */
  transactionId: string;
}

/**
 * Undoes a row with a new one (the ledger is append-only): the opposite change, kind `reversal`,
 * `details.reverses` naming the row. A reversal is never an award, so earning limits neither stop
 * it nor count it (giving back a redeemed reward is not earning), and the reversed award stops
 * counting towards them. It still cannot take the balance below zero. A row is reversed at most
 * once (also a unique index); an opening balance or a reversal cannot be reversed.
 * Who may reverse what, and for how long, is the caller's rule (the counter: its own rows, 5 min).
 */
export function reverseTransaction(deps: LoyaltyDeps, input: ReverseInput): BalanceChangeResult {
  return inTransaction(deps.db, () => {
    const ledger = ledgerRepo(deps.db);
    const row = ledger.find(input.customer.id, input.transactionId);
    if (!row) throw notFound('TRANSACTION_NOT_FOUND', input.transactionId);
    if (row.kind === 'initial' || row.kind === 'reversal') throw badRequest('NOT_REVERSIBLE', `a ${row.kind === 'initial' ? 'opening balance' : 'reversal'} cannot be undone`);
    if (row.change === 0) throw badRequest('NOT_REVERSIBLE', 'this entry changed nothing');
    if (ledger.reversalOf(row.id)) throw conflict('ALREADY_REVERSED', 'this entry was already undone');
    return changeBalance(deps, {
      card: cardOf(deps, input.customer),
      kind: 'reversal',
      change: -row.change,
      isAward: false,
      details: { reverses: row.id },
      field: 'transactionId',
      ...common(input),
    });
  });
}
