import * as v from 'valibot';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';

// Requests and responses of the loyalty endpoints, in units. Rules that depend on the card (whole
// units off prepaid, which operation fits which type) are the service's, not these schemas'.

const twoDecimals = v.check<number, string>((n) => hasAtMostDecimals(n, 2), 'at most 2 decimals (whole units except on prepaid cards)');

// Bounds use valibot's own actions (not v.check) so the OpenAPI document states them too.
const number = v.pipe(v.number(), v.finite());
/** An amount in units: greater than 0, at most MAX_UNITS, at most 2 decimals. */
const positive = v.pipe(number, v.gtValue(0, 'must be greater than 0'), v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`), twoDecimals);
const note = v.optional(v.pipe(v.string(), v.maxLength(500)));

/** JSON Schema for "exactly one of these fields", which the pipe's checks enforce. */
const exactlyOne = (...fields: string[]) => ({ oneOf: fields.map((f) => ({ required: [f] })) });
/** JSON Schema for "when `field` is `value`, then …" (OpenAPI 3.1 speaks JSON Schema 2020-12). */
const when = (field: string, value: string, then: Record<string, unknown>) => ({ if: { required: [field], properties: { [field]: { const: value } } }, then });
const forbidden = (...fields: string[]) => ({ not: { anyOf: fields.map((f) => ({ required: [f] })) } });

export const RefParams = v.strictObject({
  ref: v.pipe(v.string(), v.minLength(1), v.maxLength(300), v.description('externalCustomerId, pu_<passUserId>, email:<email> or phone:<E.164>')),
});

export const EarnBody = v.pipe(
  v.strictObject({
    type: v.pipe(v.picklist(['points', 'stamps']), v.description('`stamps` on stamp cards, `points` on every other card')),
    amount: v.optional(v.pipe(positive, v.description('Flat amount to add: > 0, at most 1,000,000,000; whole units except on prepaid cards (2 decimals). Send either this or `from`'))),
    from: v.optional(v.pipe(v.picklist(['spend', 'items']), v.description('Apply the card’s accrual rule to a sale'))),
    spend: v.optional(
      v.strictObject({
        amount: v.pipe(positive, v.description('Major currency units, up to 2 decimals')),
        currency: v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as EUR'), v.toUpperCase(), v.description('ISO 4217 code, any case; must be the card’s accrual currency')),
      }),
    ),
    items: v.optional(
      v.pipe(
        v.array(
          v.strictObject({
            key: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description('An item key of the card’s accrual rules (exact match)')),
            quantity: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(MAX_UNITS)),
          }),
        ),
        v.minLength(1, 'must list at least one item'),
        v.maxLength(100, 'at most 100 items'),
      ),
    ),
    note,
  }),
  v.metadata({
    allOf: [
      exactlyOne('amount', 'from'),
      when('from', 'spend', { required: ['spend'], ...forbidden('items') }),
      when('from', 'items', { required: ['items'], ...forbidden('spend') }),
      { if: { not: { required: ['from'] } }, then: forbidden('spend', 'items') },
    ],
  }),
  v.forward(
    v.check((b) => (b.amount === undefined) !== (b.from === undefined), 'send exactly one of amount and from'),
    ['amount'],
  ),
  v.forward(v.check((b) => b.from !== 'spend' || b.spend !== undefined, 'required with from=spend'), ['spend']),
  v.forward(v.check((b) => b.from !== 'items' || b.items !== undefined, 'required with from=items'), ['items']),
  v.forward(v.check((b) => b.spend === undefined || b.from === 'spend', 'only with from=spend'), ['spend']),
  v.forward(v.check((b) => b.items === undefined || b.from === 'items', 'only with from=items'), ['items']),
  // The rules above, for the OpenAPI document (custom checks do not convert to JSON Schema).
  v.metadata({
    oneOf: [
      { required: ['amount'], not: { anyOf: [{ required: ['from'] }, { required: ['spend'] }, { required: ['items'] }] } },
      { required: ['from', 'spend'], properties: { from: { const: 'spend' } }, not: { anyOf: [{ required: ['amount'] }, { required: ['items'] }] } },
      { required: ['from', 'items'], properties: { from: { const: 'items' } }, not: { anyOf: [{ required: ['amount'] }, { required: ['spend'] }] } },
    ],
  }),
);
export type EarnBodyInput = v.InferOutput<typeof EarnBody>;

export const RedeemBody = v.pipe(
  v.strictObject({
    type: v.pipe(v.picklist(['points', 'reward']), v.description('`points` deducts `amount` (point, level, prepaid cards); `reward` redeems the card’s fixed reward (stamp, point cards)')),
    amount: v.optional(v.pipe(positive, v.description('Required with type=points; whole units except on prepaid cards'))),
    note,
  }),
  v.metadata({ allOf: [when('type', 'points', { required: ['amount'] }), when('type', 'reward', forbidden('amount'))] }),
  v.forward(v.check((b) => b.type !== 'points' || b.amount !== undefined, 'required with type=points'), ['amount']),
  v.forward(v.check((b) => b.type !== 'reward' || b.amount === undefined, 'not with type=reward (the card’s reward sets the cost)'), ['amount']),
  v.metadata({
    oneOf: [
      { properties: { type: { const: 'points' } }, required: ['amount'] },
      { properties: { type: { const: 'reward' } }, not: { required: ['amount'] } },
    ],
  }),
);
export type RedeemBodyInput = v.InferOutput<typeof RedeemBody>;

export const AdjustBody = v.pipe(
  v.strictObject({
    balanceCorrection: v.optional(
      v.pipe(number, v.minValue(-MAX_UNITS, `must be at least -${MAX_UNITS}`), v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`), v.notValue(0, 'must not be 0'), twoDecimals, v.description('Signed, non-zero change; a refund is negative. Whole units except on prepaid cards (2 decimals)')),
    ),
    setPoints: v.optional(
      v.pipe(number, v.minValue(0, 'must be 0 or more'), v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`), twoDecimals, v.description('Absolute points balance, 0 or more, whole units (point and level cards only)')),
    ),
    note,
  }),
  v.metadata(exactlyOne('balanceCorrection', 'setPoints')),
  v.forward(
    v.check((b) => (b.balanceCorrection === undefined) !== (b.setPoints === undefined), 'send exactly one of balanceCorrection and setPoints'),
    ['balanceCorrection'],
  ),
  v.metadata({ oneOf: [{ required: ['balanceCorrection'] }, { required: ['setPoints'] }] }),
);
export type AdjustBodyInput = v.InferOutput<typeof AdjustBody>;

export const TransactionsQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.description('Rows per page, 1 to 100 (default 25)'),
      v.regex(/^(100|[1-9][0-9]?)$/, 'must be a whole number from 1 to 100'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(100, 'must be at most 100'),
    ),
    '25',
  ),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description('nextCursor of the previous page'))),
});

// --- Responses ---

export const BalanceResource = v.pipe(
  v.union([
    v.object({ stamps: v.number() }),
    v.object({ points: v.number(), level: v.pipe(v.string(), v.description('Level cards: the tier’s name')) }),
    v.object({ points: v.number() }),
  ]),
  v.description('stamp cards {stamps}; point and prepaid cards {points}; level cards {points, level}'),
);

export const BalanceChangeResource = v.object({
  balance: BalanceResource,
  transactionId: v.pipe(v.string(), v.description('tx_… — the ledger row written')),
  change: v.pipe(v.number(), v.description('Signed change in units: negative for a redemption or a lowering correction')),
});

export const RedeemResource = v.object({
  ...BalanceChangeResource.entries,
  reward: v.optional(v.pipe(v.string(), v.description('type=reward only: the reward’s name'))),
});

const DetailsResource = v.pipe(
  v.union([
    v.object({ from: v.literal('spend'), spend: v.object({ amount: v.number(), currency: v.string() }), rate: v.number() }),
    v.object({ from: v.literal('items'), items: v.array(v.object({ key: v.string(), quantity: v.number(), each: v.number() })) }),
    v.object({ reward: v.object({ name: v.string(), cost: v.number() }) }),
    v.object({ setPoints: v.number() }),
  ]),
  v.description('How the change was worked out, when it was not a flat amount'),
);

export const TransactionResource = v.object({
  id: v.string(),
  kind: v.picklist(['initial', 'earn', 'redeem', 'adjust']),
  change: v.number(),
  balanceAfter: v.number(),
  source: v.picklist(['api', 'scan', 'signup', 'console']),
  note: v.nullable(v.string()),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC')),
  details: v.optional(DetailsResource),
});

export const TransactionPage = v.object({
  data: v.array(TransactionResource),
  nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as ?cursor= for the next (older) page; null on the last page')),
});
