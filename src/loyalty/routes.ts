import { resolveCustomer } from '../customers/refs';
import { defineRoute, type Auth, type RouteInput } from '../routing/route';
import { fromHundredths, toHundredths } from '../lib/money';
import { balanceObject } from './balance';
import { listTransactions } from './history';
import type { BalanceChangeResult } from './ledger';
import { RefParams } from '../customers/schemas';
import { AdjustBody, BalanceChangeResource, EarnBody, EarnResource, RedeemBody, RedeemResource, TransactionPage, TransactionsQuery, type EarnBodyInput } from './schemas';
import { adjust, earn, redeem, type EarnBasis, type OperationInput } from './service';

// Validate → resolve the customer → call the service → shape the reply, in units. The handlers
// are synchronous: under an Idempotency-Key they run inside the transaction that stores the reply.

const LIMIT_CODES = ['AWARD_WAIT_ACTIVE (with retryAfterSeconds)', 'AWARD_MAX_PER_AWARD', 'AWARD_PERIOD_LIMIT'];
const REF_ERRORS = { 404: ['CUSTOMER_NOT_FOUND'], 409: ['AMBIGUOUS_CUSTOMER_MATCH'] };
const WRITE_ERRORS = { ...REF_ERRORS, 409: ['AMBIGUOUS_CUSTOMER_MATCH', 'IDEMPOTENCY_KEY_IN_USE'], 422: ['IDEMPOTENCY_KEY_REUSED'] };

function apiOperation(input: RouteInput<{ ref: string }, unknown, { note?: string | undefined }> & { auth: Auth }): OperationInput {
  return {
    customer: resolveCustomer(input.deps.db, input.auth, input.params.ref),
    source: 'api',
    note: input.body.note ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
  };
}

// `more` is spread after the named keys, never the reply spread into another literal: see emitBalanceEvents.
const reply = (r: BalanceChangeResult, more: object = {}) => ({
  balance: balanceObject(r.card, r.transaction.balanceAfter),
  transactionId: r.transaction.id,
  change: fromHundredths(r.transaction.change),
  ...more,
});

function earnBasis(body: EarnBodyInput): EarnBasis {
  if (body.from === 'spend') return { from: 'spend', amount: toHundredths(body.spend.amount), currency: body.spend.currency };
  if (body.from === 'items') return { from: 'items', items: body.items };
  return { from: 'amount', amount: toHundredths(body.amount) };
}

export const loyaltyRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/customers/:ref/earn',
    tag: 'Loyalty',
    summary: 'Award stamps or points',
    description:
      'Exactly one of `amount` (flat) or `from`: `spend` applies the card’s rate, floor(amount × rate) units (prepaid: floored to the cent); ' +
      '`items` adds each item’s configured value × quantity. `type` is `stamps` on stamp cards and `points` on the others. ' +
      'A sale worth 0 records a transaction with change 0, emits no event and is no award (it neither meets nor starts an earning limit). ' +
      'Item keys match exactly; the currency is compared case-insensitively. The card’s promotions running at the award (the shop’s time) add to it: ' +
      'every multiplier multiplies the base, every bonus adds, rounded down to whole units; `promotionIds` and `extra` say which and how much, and the earning limits judge the base alone. ' +
      'Emits `balance.updated` (with `promotionIds` and `extra`), and `level.changed` when a level card’s tier changes.',
    scope: 'loyalty:write',
    params: RefParams,
    body: EarnBody,
    idempotent: true,
    responses: { 201: { description: 'The balance after the award; `change` includes what promotions added (`extra`)', schema: EarnResource } },
    errors: {
      400: ['UNSUPPORTED_FOR_CARD_TYPE', 'ACCRUAL_RULE_NOT_CONFIGURED', 'CURRENCY_MISMATCH', 'UNKNOWN_ITEM_KEYS: <keys> (also listed in keys)', ...LIMIT_CODES, 'VALIDATION_FAILED (also a fraction off prepaid cards, or a change or balance past 1,000,000,000)'],
      ...WRITE_ERRORS,
    },
    handle: (input) => {
      const result = earn(input.deps, { type: input.body.type, basis: earnBasis(input.body), ...apiOperation(input) });
      return { status: 201, body: reply(result, { promotionIds: result.promotions.ids, extra: fromHundredths(result.promotions.extra) }) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customers/:ref/redeem',
    tag: 'Loyalty',
    summary: 'Redeem a reward or deduct points',
    description:
      '`type=points` deducts `amount` on point, level and prepaid cards. `type=reward` redeems one of the rewards of a stamp or point card, costing its `cost`: ' +
      'the one `rewardId` names (an id not among the card’s `rewards` is 400 `REWARD_NOT_FOUND`), or without `rewardId` the default, the card’s `reward`; ' +
      'a card without rewards answers 400 `REWARD_NOT_CONFIGURED`. Emits `reward.redeemed` (type=reward, with `rewardId`) and `balance.updated`.',
    scope: 'loyalty:write',
    params: RefParams,
    body: RedeemBody,
    idempotent: true,
    responses: { 201: { description: 'The balance after the redemption; `reward` and `rewardId` name the reward for type=reward', schema: RedeemResource } },
    errors: { 400: ['UNSUPPORTED_FOR_CARD_TYPE', 'REWARD_NOT_CONFIGURED', 'REWARD_NOT_FOUND', 'INSUFFICIENT_BALANCE', 'VALIDATION_FAILED (also a fraction off prepaid cards)'], ...WRITE_ERRORS },
    handle: (input) => {
      const { body } = input;
      const base = apiOperation(input);
      const result =
        body.type === 'points' ? redeem(input.deps, { type: 'points', amount: toHundredths(body.amount), ...base }) : redeem(input.deps, { type: 'reward', rewardId: body.rewardId, ...base });
      const details = result.transaction.details;
      const reward = details && 'reward' in details ? { reward: details.reward.name, rewardId: details.reward.id } : {};
      return { status: 201, body: reply(result, reward) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customers/:ref/adjust',
    tag: 'Loyalty',
    summary: 'Correct the balance or set points',
    description:
      'Exactly one of `balanceCorrection` (signed, non-zero; every card type; a refund is negative) and `setPoints` (>= 0; point and level cards). ' +
      'A change that adds value is an award and meets the earning limits, except on prepaid cards; lowering is never limited. ' +
      'For setPoints `change` is new minus old; setPoints equal to the balance records a transaction with `change: 0` and emits nothing, like a sale worth 0. ' +
      'Otherwise emits `balance.updated`, and `level.changed` when a level card’s tier changes.',
    scope: 'loyalty:write',
    params: RefParams,
    body: AdjustBody,
    idempotent: true,
    responses: { 201: { description: 'The balance after the correction', schema: BalanceChangeResource } },
    errors: { 400: ['UNSUPPORTED_FOR_CARD_TYPE', 'INSUFFICIENT_BALANCE', ...LIMIT_CODES, 'VALIDATION_FAILED (also a fraction off prepaid cards, or a balance past 1,000,000,000)'], ...WRITE_ERRORS },
    handle: (input) => {
      const { body } = input;
      const base = apiOperation(input);
      const result =
        body.setPoints !== undefined
          ? adjust(input.deps, { setPoints: toHundredths(body.setPoints), ...base })
          : adjust(input.deps, { balanceCorrection: toHundredths(body.balanceCorrection), ...base });
      return { status: 201, body: reply(result) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customers/:ref/transactions',
    tag: 'Loyalty',
    summary: 'List the customer’s balance changes',
    description: 'Newest first. `?limit` (1–100, default 25); pass the previous page’s `nextCursor` as `?cursor` for older rows.',
    scope: 'customers:read',
    params: RefParams,
    query: TransactionsQuery,
    responses: { 200: { description: 'One page of the ledger', schema: TransactionPage } },
    errors: REF_ERRORS,
    handle: ({ deps, auth, params, query }) => {
      const customer = resolveCustomer(deps.db, auth, params.ref);
      return { status: 200, body: listTransactions(deps.db, customer, { limit: query.limit, cursor: query.cursor }) };
    },
  }),
];
