import type { Card, Level } from '../cards/model';
import type { Customer } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { emitEvent } from '../events/outbox';
import type { EventEnvelope } from '../events/types';
import { inTransaction } from '../db/transaction';
import type { WriteDeps } from '../deps';
import { badRequest, notFound, validationFailed } from '../lib/errors';
import { newId } from '../lib/ids';
import { fromHundredths, MAX_UNITS } from '../lib/money';
import { reason } from '../lib/reasons';
import { levelFor } from './balance';
import { checkEarningLimits } from './limits';
import { ledgerRepo, type LedgerDetails, type LedgerRow } from './repo';
import type { Channel, LedgerKind, StaffRef } from '../lib/changes';
import { NO_PROMOTIONS, promotionsForAward, type AppliedPromotions } from '../promotions/service';
import { clockFor } from '../test-clock/clock';
import { recordLots } from './lots';

/** What a balance change needs: the database, the time, who reacts inside it and who to wake once it commits. */
export type LoyaltyDeps = WriteDeps;

const MAX_HUNDREDTHS = MAX_UNITS * 100;

export interface BalanceChangeInput {
  /** Whose balance. Read again inside the transaction, so a copy read earlier is harmless. */
  customer: Customer;
  /** The customer's own card (its type, limits and levels decide the rules). */
  card: Card;
  kind: LedgerKind;
  /** Signed hundredths, or `{ to }` for an absolute balance (the change is then new − old). */
  change: number | { to: number };
  /** The operation awards value (earn, adjust): when the change is positive, earning limits apply and it counts toward them. */
  isAward: boolean;
  source: Channel;
  /** The staff member at the counter (source `scan`): on the ledger row and in the events. */
  staff?: StaffRef | null;
  note?: string | null;
  idempotencyKey?: string | null;
  details?: LedgerDetails | null;
  /** The caller's name for the amount (`amount`, `setPoints` …), named in VALIDATION_FAILED. */
  field: string;
  /** A reward was redeemed (its id): also emit `reward.redeemed`. */
  rewardRedeemed?: { rewardId: string } | null;
  /**
   * An earn: the card's promotions running at the award add to it (the earning limits judge the
   * base), and the events say which applied.
   */
  promotions?: boolean;
}

export interface BalanceChangeResult {
  customer: Customer;
  card: Card;
  transaction: LedgerRow;
  previousBalance: number;
  level: Level | null;
  previousLevel: Level | null;
  /** What the promotions added (an earn; none otherwise), included in the transaction's change. */
  promotions: AppliedPromotions;
  events: EventEnvelope[];
}

/**
 * The one way a balance changes, whatever the channel (API, counter scan, sign-up, console). In one
 * synchronous transaction it applies the rules — whole units off prepaid, the 1e9-unit cap, never
 * below zero, the card's earning limits on awards — then writes the ledger row and the balance
 * together and emits the events. A refusal throws before anything is written. Called inside a
 * caller's transaction (an idempotent request) it is a savepoint of that transaction. The webhooks wake the delivery worker once the outermost transaction has committed.
 */
export function changeBalance(deps: LoyaltyDeps, input: BalanceChangeInput): BalanceChangeResult {
  return inTransaction(deps.db, () => apply(deps, input));
}

function apply(deps: LoyaltyDeps, input: BalanceChangeInput): BalanceChangeResult {
  const { card } = input;
  if (card.id !== input.customer.cardId) throw new Error(`changeBalance: card ${card.id} is not the card of customer ${input.customer.id}`);
  const customers = customersRepo(deps.db);
  const ledger = ledgerRepo(deps.db);
  // The sweep may have removed a test customer since the caller looked it up, or another write
  // changed its balance: the balance is the one read inside this transaction.
  const customer = customers.findByPassUserId(input.customer.id);
  if (!customer) throw notFound('CUSTOMER_NOT_FOUND', `pu_${input.customer.id}`);

  // The one instant of this change: the ledger row, the limits, the lots and the promotions all use
  // it. Real time for live data, the org's test clock for test data.
  const now = clockFor(deps, customer.orgId, customer.livemode).now();
  const before = customer.balance;
  const base = typeof input.change === 'number' ? input.change : input.change.to - before;
  checkRange(card, input.field, base, before + base);
  const promotions = input.promotions && base > 0 ? promotionsForAward(deps.db, card, base, now) : NO_PROMOTIONS;
  // A promotion never makes an allowed award fail: past the cap it adds only what fits.
  const extra = Math.min(promotions.extra, MAX_HUNDREDTHS - before - base, MAX_HUNDREDTHS - base);
  const change = base + extra;
  const after = before + change;
  if (after < 0) {
    const [balance, needed] = [fromHundredths(before), fromHundredths(-change)];
    throw badRequest('INSUFFICIENT_BALANCE', `the balance is ${balance}; this needs ${needed}`, undefined, reason('balanceLow', { balance, needed }));
  }

  const isAward = input.isAward && change > 0;
  // Store credit is the customer's money, never rationed; every other award is. The
  // limits judge the base award: what promotions add is on top.
  if (isAward && card.passType !== 'prepaid_card') {
    checkEarningLimits(card.earningLimits, base, now, {
      lastAwardAt: () => ledger.lastAwardAt(customer.id),
      awardedSince: (since) => ledger.awardedSince(customer.id, since),
    });
  }

  const transaction: LedgerRow = {
    id: newId('tx'),
    orgId: customer.orgId,
    customerId: customer.id,
    livemode: customer.livemode,
    kind: input.kind,
    change,
    balanceAfter: after,
    isAward,
    source: input.source,
    staffId: input.staff?.id ?? null,
    note: input.note ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    // Not `{ ...input.details, promotions }`: see emitBalanceEvents.
    details: promotions.ids.length > 0 ? Object.assign({}, input.details, { promotions: { ids: promotions.ids, extra } }) : (input.details ?? null),
    createdAt: now,
  };
  ledger.insert(transaction);

  // Expiry: a card that ever had it records each award as a lot and takes decreases from the
  // oldest units (loyalty/lots.ts); other cards write nothing more.
  let lastAwardAt: number | null | undefined = isAward ? now : undefined;
  if (card.lotsSince !== null) {
    const reverses = input.details && 'reverses' in input.details ? input.details.reverses : null;
    recordLots(deps.db, { card, customer, transactionId: transaction.id, kind: input.kind, change, before, now, reverses });
    // An undone award no longer counts as the last one (inactivity runs from the one before).
    if (reverses !== null) lastAwardAt = ledger.lastAwardAt(customer.id);
  }

  let updated = customer;
  if (change !== 0) {
    // setBalance bumps pass_version, and balanceChanged lets the wallet queue the update that
    // pushes the new balance once this transaction commits: every channel's change reaches the pass.
    customers.setBalance(customer.id, after, now, lastAwardAt);
    deps.onChange.balanceChanged(deps, customer.id);
    updated = { ...customer, balance: after, lastAwardAt: lastAwardAt === undefined ? customer.lastAwardAt : lastAwardAt, passVersion: customer.passVersion + 1, passUpdatedAt: now, updatedAt: now };
  }

  const previousLevel = levelFor(card, before);
  const level = levelFor(card, after);
  // A zero change reports nothing; an opening balance emits no balance.updated either.
  const events =
    change === 0 || input.kind === 'initial'
      ? []
      : emitBalanceEvents(deps, {
          customer: updated,
          card,
          change,
          after,
          level,
          previousLevel,
          rewardRedeemed: input.rewardRedeemed ?? null,
          promotions: input.promotions ? { promotionIds: promotions.ids, extra: fromHundredths(extra) } : null,
          origin: channelData(input.source, input.staff),
        });

  return { customer: updated, card, transaction, previousBalance: before, level, previousLevel, promotions: { ids: promotions.ids, extra }, events };
}

/** Whole units off prepaid cards; no amount or balance past MAX_UNITS. */
function checkRange(card: Card, field: string, change: number, after: number): void {
  if (!Number.isSafeInteger(change)) throw validationFailed([{ path: field, message: `must be at most ${MAX_UNITS}`, reason: reason('tooMuch', { max: MAX_UNITS }) }]);
  if (card.passType !== 'prepaid_card' && change % 100 !== 0) {
    throw validationFailed([{ path: field, message: `must be a whole number on a ${card.passType}`, reason: reason('wholeOnly') }]);
  }
  if (Math.abs(change) > MAX_HUNDREDTHS) throw validationFailed([{ path: field, message: `must be at most ${MAX_UNITS}`, reason: reason('tooMuch', { max: MAX_UNITS }) }]);
  if (after > MAX_HUNDREDTHS) {
    const balance = fromHundredths(after - change);
    throw validationFailed([{ path: field, message: `the balance would pass ${MAX_UNITS} (it is ${balance})`, reason: reason('balanceCap', { max: MAX_UNITS, balance }) }]);
  }
}

/**
 * Which channel made a change, as events carry it: `source` like the ledger row's,
 * and on a counter change the staff member too.
 */
export function channelData(source: Channel, staff?: StaffRef | null): { source: Channel; staff?: StaffRef } {
  return staff ? { source, staff: { id: staff.id, name: staff.name } } : { source };
}

function emitBalanceEvents(
  deps: LoyaltyDeps,
  e: {
    customer: Customer;
    card: Card;
    change: number;
    after: number;
    level: Level | null;
    previousLevel: Level | null;
    rewardRedeemed: { rewardId: string } | null;
    /** An earn's balance.updated says which promotions applied and what they added (units); other changes say nothing of them. */
    promotions: { promotionIds: string[]; extra: number } | null;
    origin: ReturnType<typeof channelData>;
  },
): EventEnvelope[] {
  const { customer, card } = e;
  const emit = (type: EventEnvelope['type'], data: Record<string, unknown>) =>
    emitEvent(deps, { orgId: customer.orgId, livemode: customer.livemode, type, customerId: customer.id, data });
  const balance = fromHundredths(e.after);
  const change = fromHundredths(e.change);
  // Each event's data is one object literal that starts with named keys, spreads after them. In
  // Node 20, a literal that starts with a spread and then gains keys gets a hidden class of its own
  // at every call: garbage in the old generation, which only a full collection frees.
  const withCardType = (more: object | null) => ({
    externalCustomerId: customer.externalId,
    passUserId: customer.id,
    cardId: card.id,
    cardType: card.passType,
    balance,
    change,
    ...e.origin,
    ...more,
  });

  const events: EventEnvelope[] = [];
  if (e.rewardRedeemed) events.push(emit('reward.redeemed', withCardType({ rewardId: e.rewardRedeemed.rewardId })));
  events.push(emit('balance.updated', withCardType(e.promotions)));
  // Whatever moved the balance, a new tier is announced.
  if (e.level && e.previousLevel && e.level.name !== e.previousLevel.name) {
    const data = { externalCustomerId: customer.externalId, passUserId: customer.id, cardId: card.id, balance, change, ...e.origin, level: e.level.name, previousLevel: e.previousLevel.name };
    events.push(emit('level.changed', data));
  }
  return events;
}
