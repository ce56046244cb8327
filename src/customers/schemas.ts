import * as v from 'valibot';
import { reason } from '../lib/reasons';
import { checkWithReason } from '../lib/validation';
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
  checkWithReason(
    (id: string) => !RESERVED_REF_PREFIXES.some((p) => id.startsWith(p)),
    `must not start with ${RESERVED_REF_PREFIXES.join(', ')}`,
    reason('row.prefix', { prefixes: RESERVED_REF_PREFIXES.join(', ') }),
  ),
  v.description('Your own id for the customer, unique across the organisation (per mode). 1–255 characters, not starting with `pu_`, `email:` or `phone:`.'),
);

// Values are judged by the card's questions (custom-fields.ts), which gives the documented codes;
// here only "an object of entries" is checked, and the object is passed on untouched. Not
// v.record: it takes an array as an object and drops the keys `constructor`, `prototype` and
// `__proto__`, which must reach the question check and be named like any unknown key.
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const CustomFieldsInput = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'must be an object'),
  v.metadata({ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } }),
  v.description('Map from question key (matched case-insensitively) to a string, number or boolean. Keys name, email, phone, status and custom are reserved.'),
);

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

/** What resolving a {ref} can answer, as the routes document it. */
export const REF_ERRORS = { 404: ['CUSTOMER_NOT_FOUND'], 409: ['AMBIGUOUS_CUSTOMER_MATCH (body: matchedBy, candidates [{ passUserId, contact }] with masked contacts)'] };

// Repeated parameters arrive as arrays; the handler answers them with 400
// EMAIL_MUST_BE_A_SINGLE_VALUE or PHONE_MUST_BE_A_SINGLE_VALUE. The document says what a client may send: one string (an array
// schema would invite repeating it).
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

export const PatchCustomerResult = v.object({
  passUserId: v.string(),
  externalCustomerId: v.nullable(v.string()),
  cardId: v.string(),
  updated: v.pipe(v.array(v.picklist(['externalCustomerId', 'customFields'])), v.description('Only the fields actually written')),
});
