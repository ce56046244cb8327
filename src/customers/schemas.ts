import * as v from 'valibot';
import { PASS_TYPES } from '../cards/model';
import { EMAIL_MESSAGE, isEmail } from '../lib/contact';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { BalanceResource, maxDecimalsByCardType } from '../loyalty/schemas';
import { RESERVED_REF_PREFIXES } from './refs';

// --- Requests ---

/** Characters as a client counts them (Unicode code points), not UTF-16 units: an emoji is one. */
const characterCount = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

export const ExternalCustomerId = v.pipe(
  v.string(),
  v.minLength(1, 'must be 1 to 255 characters'),
  v.check((id) => characterCount(id) <= 255, 'must be 1 to 255 characters'),
  // JSON Schema's maxLength counts code points too, so the document states the same rule;
  // and it refuses the ref prefixes in machine-readable form, not only in the description.
  v.metadata({ maxLength: 255, not: { pattern: `^(${RESERVED_REF_PREFIXES.join('|')})` } }),
  v.check((id) => !RESERVED_REF_PREFIXES.some((p) => id.startsWith(p)), `must not start with ${RESERVED_REF_PREFIXES.join(', ')}`),
  v.description('Your own id for the customer, unique across the organisation (per mode). 1–255 characters, not starting with `pu_`, `email:` or `phone:`.'),
);

// Values are judged by the card's questions (custom-fields.ts), which gives the spec's own codes;
// here only "an object of entries" is checked, and the object is passed on untouched. Not
// v.record: it takes an array as an object and drops the keys `constructor`, `prototype` and
// `__proto__`, which must reach the question check and be named like any unknown key.
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const CustomFieldsInput = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'must be an object'),
  v.metadata({ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } }),
  v.description('Map from question key (matched case-insensitively) to a string, number or boolean. Keys name, email, phone, status and custom are reserved.'),
);

const optionalText = (max: number, description: string) =>
  v.optional(v.pipe(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(max))), v.description(description)));

export const EnrollBody = v.strictObject({
  externalCustomerId: ExternalCustomerId,
  cardId: v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description('Card to enroll on; must belong to your organisation')),
  name: optionalText(200, 'Written only when a customer is created'),
  email: v.optional(
    v.pipe(
      v.nullable(
        v.pipe(
          v.string(),
          v.trim(),
          v.maxLength(254),
          v.check((email) => email === '' || isEmail(email), EMAIL_MESSAGE),
          // The shape every address the check takes has (blank, or dot-separated local runs, `@`,
          // two or more domain labels), so a client's validator refuses most malformed ones too;
          // the description says the rest.
          v.metadata({ pattern: /^\s*(?:[^\s@".]+(?:\.[^\s@".]+)*@[^\s@.]+(?:\.[^\s@.]+)+)?\s*$/.source }),
        ),
      ),
      v.description(
        'An email address (`name@example.com`; a domain in Unicode or `xn--` form is the same domain; quoted local parts are refused). A malformed one is 400 VALIDATION_FAILED; `""` or null is none. Matched case-insensitively among the customers of `cardId`; written only when a customer is created',
      ),
    ),
  ),
  phone: optionalText(
    50,
    'International format: `+`, country code and number (`+44 20 7946 0958`; spaces, dashes, dots and brackets allowed; a trunk 0 after the country code, as in `+44 (0)20…`, is dropped). Matched as E.164 among the customers of `cardId`; a national-format number, an unknown country code or a length the country does not use never matches and is no error. Written only when a customer is created',
  ),
  initialPoints: v.optional(
    v.pipe(
      v.number(),
      v.finite(),
      v.minValue(0),
      v.maxValue(MAX_UNITS),
      v.check((n) => hasAtMostDecimals(n, 2), 'at most 2 decimals'),
      maxDecimalsByCardType,
      v.description(
        'Opening stamps or points of a NEW customer (ignored on a match): whole units on the stamp, point and level cards (a fraction is 400 VALIDATION_FAILED), store credit up to 2 decimals',
      ),
    ),
  ),
  customFields: v.optional(CustomFieldsInput),
});
export type EnrollInput = v.InferOutput<typeof EnrollBody>;

export const PatchCustomerBody = v.strictObject({
  externalCustomerId: v.optional(ExternalCustomerId),
  customFields: v.optional(CustomFieldsInput),
});

// One {ref} rule for every route that takes one. Counted in characters (code points), as
// externalCustomerId is: the longest ref is `email:` and a 254-character address.
export const RefParams = v.strictObject({
  ref: v.pipe(
    v.string(),
    v.minLength(1, 'must be 1 to 300 characters'),
    v.check((ref) => characterCount(ref) <= 300, 'must be 1 to 300 characters'),
    v.metadata({ maxLength: 300 }),
    v.description('`<externalCustomerId>`, `pu_<passUserId>`, `email:<email>` or `phone:<E.164>` (a `+` may be sent as `%2B`)'),
  ),
});

// Repeated parameters arrive as arrays; the handler answers them with the spec's own codes. The
// document says what a client may send: one string (an array schema would invite repeating it).
const singleQueryValue = (name: string) =>
  v.optional(
    v.pipe(
      v.union([v.string(), v.array(v.string())]),
      v.description(`Give once; repeating it is 400 ${name.toUpperCase()}_MUST_BE_A_SINGLE_VALUE`),
      v.metadata({ anyOf: [{ type: 'string' }] }),
    ),
  );

export const LookupQuery = v.strictObject({
  email: singleQueryValue('email'),
  phone: singleQueryValue('phone'),
});

// --- Responses ---

const Status = v.picklist(['pending_install', 'installed']);

export const CustomerResource = v.object({
  externalCustomerId: v.nullable(v.string()),
  passUserId: v.string(),
  cardId: v.string(),
  cardType: v.picklist(PASS_TYPES),
  balance: BalanceResource,
  nextReward: v.pipe(
    v.nullable(
      v.object({
        rewardId: v.string(),
        name: v.string(),
        cost: v.number(),
        remaining: v.pipe(v.number(), v.description('Stamps or points still missing')),
      }),
    ),
    v.description('Stamp and point cards: the cheapest reward the balance cannot pay yet (whatever the list order); null when every reward is affordable, and on level and prepaid cards'),
  ),
  installed: v.boolean(),
  installUrl: v.string(),
  status: Status,
  name: v.nullable(v.string()),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  customFields: v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
  livemode: v.boolean(),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC')),
  expiring: v.pipe(
    v.nullable(
      v.object({
        amount: v.pipe(v.number(), v.description('Units that expire next (the oldest awards first)')),
        at: v.pipe(v.string(), v.description('ISO 8601 UTC: the last moment they are valid, the end of that day in the shop’s time zone')),
      }),
    ),
    v.description('The next units to expire and when, on a card with expiry; null when nothing will expire'),
  ),
});

export const EnrollResult = v.object({
  passUserId: v.string(),
  externalCustomerId: v.pipe(
    v.nullable(v.string()),
    v.description('The id now on the customer; with `already_has_external_id` the id it already carried, not the one sent'),
  ),
  cardId: v.string(),
  result: v.picklist(['created', 'matched']),
  matchedBy: v.nullable(v.picklist(['externalCustomerId', 'email', 'phone'])),
  linked: v.pipe(v.boolean(), v.description('Whether the sent externalCustomerId is now attached')),
  linkSkippedReason: v.optional(v.pipe(v.picklist(['external_id_taken', 'already_has_external_id']), v.description('Present only when linked is false'))),
  installUrl: v.string(),
  status: Status,
});

export const DeleteCustomerResult = v.object({
  passUserId: v.string(),
  deleted: v.literal(true),
});

export const PatchCustomerResult = v.object({
  passUserId: v.string(),
  externalCustomerId: v.nullable(v.string()),
  cardId: v.string(),
  updated: v.pipe(v.array(v.picklist(['externalCustomerId', 'customFields'])), v.description('Only the fields actually written')),
});
