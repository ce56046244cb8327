import * as v from 'valibot';
import { decimalsFor, PASS_TYPES } from '../cards/model';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { fieldsOf, oneOf, pageLimit } from '../lib/validation';

// Requests and responses of the loyalty endpoints, in units. Rules that depend on the card (whole
// units off prepaid, which operation fits which type) are the service's, not these schemas'; the
// schemas only state the decimals for the document (maxDecimalsByCardType).

const twoDecimals = v.check<number, string>((n) => hasAtMostDecimals(n, 2), 'at most 2 decimals (whole units except on prepaid cards)');

// JSON Schema has no word for "at most n decimals" that survives binary floats (multipleOf 0.01
// refuses 0.07 in most validators), nor can a schema see the customer's card. The document states
// both rules as extensions a validator can apply once it knows the card: the amounts the service
// refuses as fractions off prepaid cards carry the decimals of each card type.
/** At most this many decimals whatever the card: a sale in a currency. */
const maxDecimals = (decimals: number) => v.metadata<number, Record<string, number>>({ 'x-max-decimals': decimals });
/** At most decimalsFor(card type) decimals: whole units, store credit to the cent. */
export const maxDecimalsByCardType = v.metadata<number, Record<string, Record<string, number>>>({
  'x-max-decimals-by-card-type': Object.fromEntries(PASS_TYPES.map((t) => [t, decimalsFor(t)])),
});

// Bounds use valibot's own actions (not v.check) so the OpenAPI document states them too.
const number = v.pipe(v.number(), v.finite());
/** An amount in units: greater than 0, at most MAX_UNITS, at most 2 decimals. */
const positive = v.pipe(number, v.gtValue(0, 'must be greater than 0'), v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`), twoDecimals);
const note = v.optional(v.pipe(v.string(), v.maxLength(500)));

/** A field the body must not carry in this shape; the document marks it `false`, which generators type `never`. */
const absent = (message: string) => v.optional(v.never(message));

const earnType = v.pipe(v.picklist(['points', 'stamps']), v.description('`stamps` on stamp cards, `points` on every other card'));
// A flat amount of stamps is whole whatever the card, since only stamp cards take stamps: the
// document says so as JSON Schema's own `integer`, which every validator and generator reads.
// Points go to point and level cards (whole) and prepaid cards (to the cent); which one, only the
// customer's card tells, so that rule stays the extension and the description.
const stampsAmount = v.pipe(
  number,
  v.integer('must be a whole number: stamps come whole'),
  v.gtValue(0, 'must be greater than 0'),
  v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`),
  v.description('Stamps to add: a whole number, > 0, at most 1,000,000,000 (a fraction is 400 VALIDATION_FAILED)'),
);
const pointsAmount = v.pipe(
  positive,
  maxDecimalsByCardType,
  v.description('Flat amount to add: > 0, at most 1,000,000,000. Whole units on point and level cards (a fraction is 400 VALIDATION_FAILED); up to 2 decimals on prepaid cards'),
);
const sale = v.strictObject({
  amount: v.pipe(positive, maxDecimals(2), v.description('Major currency units, up to 2 decimals, on every card type. What it earns (amount × the card’s rate) may not pass 1,000,000,000 either')),
  currency: v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as EUR'), v.description('ISO 4217 code, any case; must be the card’s accrual currency'), v.toUpperCase()),
});
const saleItems = v.pipe(
  v.array(
    v.strictObject({
      key: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description('An item key of the card’s accrual rules (exact match)')),
      quantity: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(MAX_UNITS)),
    }),
  ),
  v.minLength(1, 'must list at least one item'),
  v.maxLength(100, 'at most 100 items'),
);
const notWithFrom = absent('send exactly one of amount and from');
const onlyWithSpend = absent('only with from=spend');
const onlyWithItems = absent('only with from=items');

// Four complete shapes, each naming the others' fields as absent: a flat amount of stamps or of
// points, or a sale (spend or items) of either.
const EarnStampsByAmount = v.strictObject({
  type: v.pipe(v.literal('stamps'), v.description('Stamp cards')),
  amount: stampsAmount,
  from: notWithFrom,
  spend: onlyWithSpend,
  items: onlyWithItems,
  note,
});
const EarnPointsByAmount = v.strictObject({
  type: v.pipe(v.literal('points'), v.description('Point, level and prepaid cards')),
  amount: pointsAmount,
  from: notWithFrom,
  spend: onlyWithSpend,
  items: onlyWithItems,
  note,
});
const EarnBySpend = v.strictObject({
  type: earnType,
  amount: notWithFrom,
  from: v.pipe(v.literal('spend'), v.description('Apply the card’s spend rate to a sale')),
  spend: sale,
  items: onlyWithItems,
  note,
});
const EarnByItems = v.strictObject({
  type: earnType,
  amount: notWithFrom,
  from: v.pipe(v.literal('items'), v.description('Add each item’s configured value × quantity')),
  spend: onlyWithSpend,
  items: saleItems,
  note,
});

/** A flat `amount` of stamps or points, or `from` a sale: `spend` or `items`. */
export const EarnBody = oneOf([EarnStampsByAmount, EarnPointsByAmount, EarnBySpend, EarnByItems], (body) => {
  const { from, type } = fieldsOf(body);
  if (from === undefined) {
    if (type === 'stamps') return EarnStampsByAmount;
    if (type === 'points') return EarnPointsByAmount;
    return { field: 'type', message: type === undefined ? 'required' : 'must be "points" or "stamps"' };
  }
  if (from === 'spend') return EarnBySpend;
  if (from === 'items') return EarnByItems;
  return { field: 'from', message: 'must be "spend" or "items" (or left out, with amount)' };
});
export type EarnBodyInput = v.InferOutput<typeof EarnBody>;

const RedeemPoints = v.strictObject({
  type: v.pipe(v.literal('points'), v.description('Deducts `amount` (point, level and prepaid cards)')),
  amount: v.pipe(positive, maxDecimalsByCardType, v.description('Whole units (a fraction is 400 VALIDATION_FAILED) except on prepaid cards, which take up to 2 decimals')),
  note,
});

const RedeemReward = v.strictObject({
  type: v.pipe(v.literal('reward'), v.description('Redeems one of the card’s rewards, which sets the cost (stamp and point cards)')),
  rewardId: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(100),
      v.description('rw_…: one of the card’s `rewards`; left out, the default (the card’s `reward`). An id the card does not have is 400 REWARD_NOT_FOUND'),
    ),
  ),
  amount: absent('not with type=reward (the reward sets the cost)'),
  note,
});

/** `points` with an amount, or the card's `reward`. */
export const RedeemBody = oneOf([RedeemPoints, RedeemReward], (body) => {
  const { type } = fieldsOf(body);
  if (type === 'points') return RedeemPoints;
  if (type === 'reward') return RedeemReward;
  return { field: 'type', message: type === undefined ? 'required' : 'must be "points" or "reward"' };
});
export type RedeemBodyInput = v.InferOutput<typeof RedeemBody>;

const correctionOrSet = 'send exactly one of balanceCorrection and setPoints';

const AdjustByCorrection = v.strictObject({
  balanceCorrection: v.pipe(
    number,
    v.minValue(-MAX_UNITS, `must be at least -${MAX_UNITS}`),
    v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`),
    v.notValue(0, 'must not be 0'),
    twoDecimals,
    maxDecimalsByCardType,
    v.description(
      'Signed, non-zero change; a refund is negative. Whole units except on prepaid cards (2 decimals); a fraction off prepaid cards, or a balance that would pass 1,000,000,000, is 400 VALIDATION_FAILED',
    ),
  ),
  setPoints: absent(correctionOrSet),
  note,
});

const AdjustBySetPoints = v.strictObject({
  balanceCorrection: absent(correctionOrSet),
  setPoints: v.pipe(
    number,
    v.minValue(0, 'must be 0 or more'),
    v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`),
    twoDecimals,
    // Only point and level cards take setPoints, and they count whole units: no fraction is ever
    // accepted, which the document can say as a type (the card decides which 400 a fraction gets).
    v.metadata({ type: 'integer' }),
    v.description('Absolute points balance, 0 or more, whole units (point and level cards only)'),
  ),
  note,
});

/** Exactly one of `balanceCorrection` and `setPoints`. */
export const AdjustBody = oneOf([AdjustByCorrection, AdjustBySetPoints], (body) => ('setPoints' in fieldsOf(body) ? AdjustBySetPoints : AdjustByCorrection));
export type AdjustBodyInput = v.InferOutput<typeof AdjustBody>;

/**
 * A transactions cursor: the last row's time and insertion order, `<ms>-<seq>`, as nextCursor
 * gives them. Plain text, so the document's pattern is the whole rule: a client's validator
 * refuses exactly what the service does.
 */
export const CURSOR_PATTERN = /^([0-9]{1,15})-([0-9]{1,15})$/;

export const TransactionsQuery = v.strictObject({
  limit: pageLimit(25, 'Rows per page, newest first'),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.regex(CURSOR_PATTERN, 'is not a cursor this API returned'),
      v.description('The `nextCursor` of the previous page, passed back unchanged. Any other value is 400 VALIDATION_FAILED'),
    ),
  ),
});

// --- Responses ---

/** The one balance shape of every answer (customers, loyalty operations). */
export const BalanceResource = v.pipe(
  v.union([
    v.object({ stamps: v.number() }),
    v.object({ points: v.number(), level: v.pipe(v.string(), v.description('Level cards: the tier’s name')) }),
    v.object({ points: v.number() }),
  ]),
  v.description('stamp cards `{ stamps }`, point and prepaid cards `{ points }`, level cards `{ points, level }`'),
);

export const BalanceChangeResource = v.object({
  balance: BalanceResource,
  transactionId: v.pipe(v.string(), v.description('tx_… — the ledger row written')),
  change: v.pipe(v.number(), v.description('Signed change in units: negative for a redemption or a lowering correction')),
});

export const EarnResource = v.object({
  ...BalanceChangeResource.entries,
  promotionIds: v.pipe(v.array(v.string()), v.description('pr_…: the card’s promotions that ran at the award (empty when none)')),
  extra: v.pipe(v.number(), v.description('What they added, in units, included in `change` (0 when none)')),
});

export const RedeemResource = v.object({
  ...BalanceChangeResource.entries,
  reward: v.optional(v.pipe(v.string(), v.description('type=reward only: the reward’s name'))),
  rewardId: v.optional(v.pipe(v.string(), v.description('type=reward only: the reward’s id (rw_…)'))),
});

const PromotionsDetails = v.pipe(
  v.object({ ids: v.array(v.string()), extra: v.pipe(v.number(), v.description('Units the promotions added, included in `change`')) }),
  v.description('An earn the card’s promotions added to'),
);

const DetailsResource = v.pipe(
  v.union([
    v.object({ from: v.literal('spend'), spend: v.object({ amount: v.number(), currency: v.string() }), rate: v.number(), promotions: v.optional(PromotionsDetails) }),
    v.object({ from: v.literal('items'), items: v.array(v.object({ key: v.string(), quantity: v.number(), each: v.number() })), promotions: v.optional(PromotionsDetails) }),
    v.object({ promotions: PromotionsDetails }),
    v.object({ reward: v.object({ id: v.optional(v.pipe(v.string(), v.description('rw_…; absent on redemptions made before rewards had ids'))), name: v.string(), cost: v.number() }) }),
    v.object({ setPoints: v.number() }),
    v.object({ reverses: v.pipe(v.string(), v.description('kind `reversal`: the id of the row this one undoes')) }),
  ]),
  v.description('How the change was worked out, when it was not a flat amount'),
);

export const TransactionResource = v.object({
  id: v.string(),
  kind: v.pipe(
    v.picklist(['initial', 'earn', 'redeem', 'adjust', 'reversal']),
    v.description('`reversal` undoes an earlier row (an undo at the counter): the opposite change, with `details.reverses` naming the row'),
  ),
  change: v.number(),
  balanceAfter: v.number(),
  source: v.pipe(v.picklist(['api', 'scan', 'signup', 'console', 'import']), v.description('The channel: the API, a scan at the counter, the sign-up form, the console or a CSV import')),
  staff: v.pipe(v.nullable(v.object({ id: v.string(), name: v.string() })), v.description('The staff member at the counter who made the change; null for the other channels')),
  note: v.nullable(v.string()),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC')),
  details: v.optional(DetailsResource),
});

export const TransactionPage = v.object({
  data: v.array(TransactionResource),
  nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as ?cursor= for the next (older) page; null on the last page')),
});
