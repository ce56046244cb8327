import * as v from 'valibot';
import { PASS_TYPES } from '../cards/model';
import { CustomFieldsInput, ExternalCustomerId } from '../customers/schemas';
import { EMAIL_MESSAGE, isEmail } from '../lib/contact';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { BalanceResource, maxDecimalsByCardType } from './schemas';

// The customer endpoints' bodies that carry a balance: enroll (its opening balance) and the
// customer as every read answers it. The rest of /v1/customers (refs, PATCH, lookup) is in
// customers/schemas.ts.

// --- Requests ---

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

