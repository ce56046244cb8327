import * as v from 'valibot';
import { ColorSchema } from '../lib/colors';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { fieldsOf, oneOf } from '../lib/validation';
import { DEFAULT_FLAG_AWARDS_PER_DAY, DEFAULT_REMIND_DAYS, DEFAULT_SIGNUP_FIELDS, IDENTIFIER_TYPES, MAX_REWARDS, PASS_TYPES, programFieldAllowed, QUESTION_TYPES, RESERVED_KEYS, SIGNUP_FIELD_MODES, takesRewards, takesUnitValue } from './model';

// --- Program configuration, as an operator writes it (seed file, console). Amounts in units. ---

const units = (decimals: number) =>
  v.pipe(
    v.number(),
    v.finite(),
    v.check((n) => n > 0, 'must be greater than 0'),
    v.maxValue(MAX_UNITS),
    v.check((n) => hasAtMostDecimals(n, decimals), decimals === 0 ? 'must be a whole number' : `at most ${decimals} decimals`),
  );


export const QuestionConfig = v.pipe(
  v.strictObject({
    key: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must start with a letter and hold only letters, digits and _ (at most 64)'),
      v.check((k) => !(RESERVED_KEYS as readonly string[]).includes(k.toLowerCase()), `must not be one of ${RESERVED_KEYS.join(', ')}`),
    ),
    label: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
    type: v.picklist(QUESTION_TYPES),
    required: v.optional(v.boolean(), false),
    isIdentifier: v.optional(v.boolean(), false),
    options: v.optional(
      v.pipe(
        v.array(v.strictObject({ value: v.pipe(v.string(), v.minLength(1), v.maxLength(200)), label: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) })),
        v.minLength(1),
        v.check((opts) => new Set(opts.map((o) => o.value)).size === opts.length, 'option values must be unique'),
      ),
    ),
  }),
  v.forward(
    v.check((q) => (q.type === 'select') === (q.options !== undefined), 'a select question needs options; other types take none'),
    ['options'],
  ),
  v.forward(
    v.check((q) => !q.isIdentifier || (q.required && IDENTIFIER_TYPES.includes(q.type)), 'an identifier question must be required and of type number, text, email or phone'),
    ['isIdentifier'],
  ),
);

// --- The program's reward list, watch-list threshold and unit value: the same rules in the seed
// file, the console and PATCH /v1/cards/{cardId}. Amounts in units. ---

/** What a reward id looks like: `rw_` and 20 base62 characters (lib/ids). */
export const REWARD_ID = /^rw_[0-9A-Za-z]{20}$/;

const RewardEntry = v.strictObject({
  id: v.optional(
    v.pipe(
      v.string(),
      v.regex(REWARD_ID, 'must be a reward id (rw_…) of this card'),
      v.description('Keeps an existing reward’s id (and so its rewardId); an id this card does not have is 400 VALIDATION_FAILED. Leave it out for a new reward'),
    ),
  ),
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
  cost: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(MAX_UNITS), v.description('Stamps or points the reward takes: a whole number')),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300))),
});

const sameName = (name: string) => name.trim().toLowerCase();

export const RewardList = v.pipe(
  v.array(RewardEntry),
  v.minLength(1, 'must list at least one reward'),
  v.maxLength(MAX_REWARDS, `at most ${MAX_REWARDS} rewards`),
  v.check((list) => new Set(list.map((r) => sameName(r.name))).size === list.length, 'reward names must be unique'),
  v.check((list) => new Set(list.flatMap((r) => (r.id === undefined ? [] : [r.id]))).size === list.filter((r) => r.id !== undefined).length, 'each id at most once'),
  // Unique names and ids make every two entries different; the document says as much.
  v.metadata({ uniqueItems: true }),
  v.description(
    `Stamp and point cards: 1–${MAX_REWARDS} rewards, names unique (case-insensitively); the first is the default, which \`redeem type=reward\` without a rewardId redeems and \`reward\` shows. Kept in the order given`,
  ),
);

export const FlagAwardsPerDay = v.pipe(
  v.nullable(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1), v.maxValue(1000))),
  v.description(`A customer awarded more often than this in one shop day is listed on the console’s watch list (nothing is blocked). 1–1000; null sets the default, ${DEFAULT_FLAG_AWARDS_PER_DAY}`),
);

export const UnitValue = v.pipe(
  v.nullable(
    v.pipe(
      v.number(),
      v.finite(),
      v.gtValue(0, 'must be greater than 0'),
      v.maxValue(1_000_000),
      v.check((n) => hasAtMostDecimals(n, 4), 'at most 4 decimals'),
      v.metadata({ 'x-max-decimals': 4 }),
    ),
  ),
  v.description('What one stamp or point is worth in the card’s currency (up to 4 decimals), for the money columns of the monthly report; null clears it'),
);

/** The program fields PATCH /v1/cards/{cardId} takes besides the identifier question, each optional. */
export const ProgramPatchFields = {
  rewards: v.optional(RewardList),
  flagAwardsPerDay: v.optional(FlagAwardsPerDay),
  unitValue: v.optional(UnitValue),
};

// --- Expiry and birthdays: card settings in the seed file, the console and PATCH /v1/cards/{cardId} ---

const remindDays = v.optional(
  v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.maxValue(365),
    v.description(`Days before units expire that the customer is reminded (an email with consent, and a line on the pass); 0 turns reminders off. Default ${DEFAULT_REMIND_DAYS}`),
  ),
  DEFAULT_REMIND_DAYS,
);
const ExpiryByMonths = v.strictObject({
  months: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60), v.description('Each award expires at the end of the day (shop time zone) this many months after it was made. Point and level cards')),
  remindDays,
});
const ExpiryByInactivity = v.strictObject({
  inactiveDays: v.pipe(v.number(), v.integer(), v.minValue(7), v.maxValue(3650), v.description('The whole balance expires at the end of the day this many days after the last award. Stamp, point and level cards')),
  remindDays,
});

/** `{ months }` or `{ inactiveDays }`, each with `remindDays`. */
export const ExpirySetting = v.pipe(
  oneOf([ExpiryByMonths, ExpiryByInactivity], (input) => {
    const fields = fieldsOf(input);
    const months = 'months' in fields;
    const inactive = 'inactiveDays' in fields;
    if (months && inactive) return { field: 'inactiveDays', message: 'months and inactiveDays do not go together: choose one rule' };
    if (months) return ExpiryByMonths;
    if (inactive) return ExpiryByInactivity;
    return { message: 'must be { months } or { inactiveDays }, or null for no expiry' };
  }),
  v.description(
    'When units expire; null: never. Never retroactive: a rule applies to awards made while it is in force, and the oldest units are used first. Store credit never expires (400 UNSUPPORTED_FOR_CARD_TYPE on a prepaid card)',
  ),
);

export const BirthdaySetting = v.pipe(
  v.strictObject({
    questionKey: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(64),
      // Machine-readable for validators that know the card: the key must name one of its questions of this type.
      v.metadata({ 'x-question-type': 'date' }),
      v.description('The key of one of the card’s `date` questions (case-insensitive): the customer’s birthday. Another key is 400 VALIDATION_FAILED'),
    ),
    units: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_UNITS), v.description('Stamps or points given on the birthday (a whole number)')),
  }),
  v.description(
    'A birthday treat; null: none. Given once per calendar year on the birthday in the shop’s time zone (29 February counts on 28 February in other years), not in a year in which the answer was set or changed within 30 days before the birthday. Not on prepaid cards',
  ),
);

export type ExpiryInput = v.InferOutput<typeof ExpirySetting>;
export type BirthdayInput = v.InferOutput<typeof BirthdaySetting>;

const CardConfigObject = v.strictObject({
    ref: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
    name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
    passType: v.picklist(PASS_TYPES),
    reward: v.optional(v.strictObject({ name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)), cost: units(2) })),
    rewards: v.optional(RewardList),
    flagAwardsPerDay: v.optional(FlagAwardsPerDay),
    unitValue: v.optional(UnitValue),
    levels: v.optional(
      v.pipe(
        v.array(v.strictObject({ name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(50)), minPoints: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_UNITS)) })),
        v.minLength(1),
        v.check((ls) => ls[0]?.minPoints === 0, 'the first level must start at minPoints 0'),
        v.check((ls) => ls.every((l, i) => i === 0 || l.minPoints > ls[i - 1]!.minPoints), 'minPoints must ascend'),
        v.check((ls) => new Set(ls.map((l) => l.name)).size === ls.length, 'level names must be unique'),
      ),
    ),
    accrual: v.optional(
      v.strictObject({
        spend: v.optional(
          v.strictObject({
            currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')),
            rate: v.pipe(v.number(), v.finite(), v.check((n) => n > 0, 'must be greater than 0'), v.maxValue(1_000_000), v.check((n) => hasAtMostDecimals(n, 6), 'at most 6 decimals')),
          }),
        ),
        items: v.optional(v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'item keys hold letters, digits, _ . - (at most 64)')), units(2))),
      }),
    ),
    earningLimits: v.optional(
      v.pipe(
        v.strictObject({
          waitSeconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(366 * 86_400))),
          maxPerAward: v.optional(units(2)),
          period: v.optional(v.picklist(['day', 'week', 'month'])),
          maxPerPeriod: v.optional(units(2)),
        }),
        v.forward(v.check((l) => (l.period === undefined) === (l.maxPerPeriod === undefined), 'period and maxPerPeriod go together'), ['maxPerPeriod']),
      ),
    ),
    dataCollectionEnabled: v.optional(v.boolean(), false),
    signupFields: v.optional(
      v.pipe(
        v.strictObject({
          name: v.optional(v.picklist(SIGNUP_FIELD_MODES), DEFAULT_SIGNUP_FIELDS.name),
          email: v.optional(v.picklist(SIGNUP_FIELD_MODES), DEFAULT_SIGNUP_FIELDS.email),
          phone: v.optional(v.picklist(SIGNUP_FIELD_MODES), DEFAULT_SIGNUP_FIELDS.phone),
        }),
        v.description('What the sign-up form asks besides the questions: required, optional or off, per field'),
      ),
      { ...DEFAULT_SIGNUP_FIELDS },
    ),
    questions: v.optional(
      v.pipe(
        v.array(QuestionConfig),
        v.maxLength(50),
        v.check((qs) => new Set(qs.map((q) => q.key.toLowerCase())).size === qs.length, 'question keys must be unique (case-insensitively)'),
        v.check((qs) => qs.filter((q) => q.isIdentifier).length <= 1, 'at most one question may be the identifier'),
      ),
      [],
    ),
    design: v.optional(
      v.strictObject({
        backgroundColor: v.optional(ColorSchema),
        foregroundColor: v.optional(ColorSchema),
        labelColor: v.optional(ColorSchema),
        logoText: v.optional(v.pipe(v.string(), v.maxLength(60))),
      }),
    ),
    // Left out: a new card has none, and a card saved without them keeps what it had.
    expiry: v.optional(v.nullable(ExpirySetting)),
    birthday: v.optional(v.nullable(BirthdaySetting)),
});
type CardShape = v.InferOutput<typeof CardConfigObject>;

function wholeUnlessPrepaid(path: [string, ...string[]], amounts: (card: CardShape) => (number | undefined)[]) {
  return v.forward<CardShape, v.CheckIssue<CardShape>, never>(
    v.check((card) => card.passType === 'prepaid_card' || amounts(card).every((n) => n === undefined || Number.isInteger(n)), 'must be a whole number on this card type'),
    path as never,
  );
}

export const CardConfig = v.pipe(
  CardConfigObject,
  // Store credit is counted in cents; every other card counts whole units.
  wholeUnlessPrepaid(['reward', 'cost'], (c) => [c.reward?.cost]),
  wholeUnlessPrepaid(['accrual', 'items'], (c) => Object.values(c.accrual?.items ?? {})),
  wholeUnlessPrepaid(['earningLimits', 'maxPerAward'], (c) => [c.earningLimits?.maxPerAward]),
  wholeUnlessPrepaid(['earningLimits', 'maxPerPeriod'], (c) => [c.earningLimits?.maxPerPeriod]),
  // `reward` is the one-reward form older files use: it becomes a one-entry list.
  v.forward(v.check((c) => c.reward === undefined || c.rewards === undefined, 'give rewards or reward, not both'), ['rewards']),
  v.forward(v.check((c) => c.rewards === undefined || takesRewards(c.passType), 'only stamp and point cards list rewards'), ['rewards']),
  v.forward(v.check((c) => c.unitValue === undefined || c.unitValue === null || takesUnitValue(c.passType), 'store credit is money already: a prepaid card has no unitValue'), ['unitValue']),
  // Expiry and birthdays: what the card type allows, and the birthday's own question.
  v.forward(v.check((c) => !c.expiry || programFieldAllowed(c.passType, 'months' in c.expiry ? 'months' : 'inactiveDays'), (i) => expiryTypeMessage(i.input.passType)), ['expiry']),
  v.forward(v.check((c) => !c.birthday || programFieldAllowed(c.passType, 'birthday'), 'store credit has no birthday treat'), ['birthday']),
  v.forward(v.check((c) => !c.birthday || birthdayQuestionProblem(c.questions, c.birthday.questionKey) === null, (i) => birthdayQuestionProblem(i.input.questions, i.input.birthday!.questionKey)!), ['birthday', 'questionKey']),
);
export type CardConfigInput = v.InferOutput<typeof CardConfig>;

/** Why an expiry rule does not fit the card type (the API answers it as UNSUPPORTED_FOR_CARD_TYPE). */
export function expiryTypeMessage(passType: string): string {
  return passType === 'prepaid_card' ? 'store credit is money and never expires' : 'a stamp card expires by inactiveDays only (months counts points of each award)';
}

/** Why `key` cannot be the birthday question of a card with these questions; null when it can. */
export function birthdayQuestionProblem(questions: readonly { key: string; type: string }[], key: string): string | null {
  const question = questions.find((q) => q.key.toLowerCase() === key.toLowerCase());
  if (!question) return `the card has no question ${key}`;
  return question.type === 'date' ? null : `${question.key} is a ${question.type} question; the birthday needs a date question`;
}

// --- The API's view of a card (GET /v1/cards, PATCH /v1/cards/{cardId}). Amounts in units. ---

export const QuestionResource = v.object({
  key: v.string(),
  label: v.string(),
  type: v.picklist(QUESTION_TYPES),
  required: v.boolean(),
  isIdentifier: v.boolean(),
  options: v.optional(v.array(v.object({ value: v.string(), label: v.string() }))),
});

export const CardResource = v.object({
  cardId: v.pipe(v.string(), v.description('Same value in test and live mode')),
  name: v.string(),
  passType: v.picklist(PASS_TYPES),
  archived: v.pipe(
    v.boolean(),
    v.description('True when the owner archived the card: it takes no new sign-ups and the counter does not offer it; its customers keep their passes, which keep updating'),
  ),
  dataCollectionEnabled: v.boolean(),
  signupFields: v.pipe(
    v.object({ name: v.picklist(SIGNUP_FIELD_MODES), email: v.picklist(SIGNUP_FIELD_MODES), phone: v.picklist(SIGNUP_FIELD_MODES) }),
    v.description("What the card's sign-up form asks besides the questions"),
  ),
  questions: v.array(QuestionResource),
  reward: v.pipe(v.nullable(v.object({ name: v.string(), cost: v.number() })), v.description('The default reward of stamp and point cards: the first of `rewards`')),
  rewards: v.pipe(
    v.array(v.object({ id: v.pipe(v.string(), v.description('rw_…: the rewardId to redeem it by')), name: v.string(), cost: v.number(), description: v.optional(v.string()) })),
    v.description('Stamp and point cards: the rewards in the owner’s order, the first being the default (`reward`). Level and prepaid cards redeem none'),
  ),
  flagAwardsPerDay: v.pipe(v.number(), v.description('Awards to one customer in one shop day above which the console’s watch list shows them')),
  unitValue: v.pipe(v.nullable(v.number()), v.description('Money per stamp or point in the card’s currency, for the report’s liability; null when not set')),
  levels: v.pipe(v.nullable(v.array(v.object({ name: v.string(), minPoints: v.number() }))), v.description('Tiers of a level card, ascending')),
  accrual: v.pipe(
    v.nullable(v.object({ spend: v.optional(v.object({ currency: v.string(), rate: v.number() })), items: v.optional(v.record(v.string(), v.number())) })),
    v.description('Rates used by earn with from=spend / from=items'),
  ),
  earningLimits: v.nullable(
    v.object({ waitSeconds: v.optional(v.number()), maxPerAward: v.optional(v.number()), period: v.optional(v.picklist(['day', 'week', 'month'])), maxPerPeriod: v.optional(v.number()) }),
  ),
  expiry: v.pipe(
    v.nullable(v.union([v.object({ months: v.number(), remindDays: v.number() }), v.object({ inactiveDays: v.number(), remindDays: v.number() })])),
    v.description('When units expire (`months` after each award, or the whole balance after `inactiveDays` without an award), with the reminder days; null: never'),
  ),
  birthday: v.pipe(v.nullable(v.object({ questionKey: v.string(), units: v.number() })), v.description('The birthday treat: the date question and the units given; null: none')),
});

export const PatchCardBody = v.pipe(
  v.strictObject({
    identifierQuestionKey: v.optional(
      v.pipe(
        v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
        v.description('Key of a required number/text/email/phone question, or null to clear the identifier'),
      ),
    ),
    ...ProgramPatchFields,
    expiry: v.optional(v.nullable(ExpirySetting)),
    birthday: v.optional(v.nullable(BirthdaySetting)),
  }),
  // Older clients send identifierQuestionKey alone; an empty body is refused as it always was, in
  // the same words (the body sets no other field, so the one field it always took is required).
  v.forward(v.check((body) => Object.keys(body).length > 0, 'required'), ['identifierQuestionKey']),
  v.metadata({ minProperties: 1 }),
  v.description('At least one field; each one sent is set, the others are left as they are'),
);
export type PatchCardInput = v.InferOutput<typeof PatchCardBody>;

export const CardIdParams = v.strictObject({ cardId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) });
