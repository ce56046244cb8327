import * as v from 'valibot';

// The error bodies of the API: { statusCode, error, message, ...extra } (docs/api.md#errors). A code
// that sends extra fields has a schema of its own, so a generated client can read them; each is
// checked against real answers in test/openapi-errors.test.ts.

const ErrorBody = v.object({
  statusCode: v.pipe(v.number(), v.integer()),
  error: v.pipe(v.string(), v.description('HTTP reason phrase, or the code where the contract says so (RATE_LIMITED, TEST_CUSTOMER_LIMIT)')),
  message: v.pipe(v.string(), v.description('Starts with the error code, e.g. `CUSTOMER_NOT_FOUND` or `VALIDATION_FAILED: amount`')),
});

const withFields = <E extends v.ObjectEntries>(description: string, entries: E) => v.pipe(v.object({ ...ErrorBody.entries, ...entries }), v.description(description));

/** components/schemas of the document, by name. */
export const ERROR_SCHEMAS = {
  Error: ErrorBody,
  ValidationError: withFields('400 VALIDATION_FAILED: every field that failed, with why', {
    issues: v.array(v.object({ path: v.pipe(v.string(), v.description('e.g. `spend.amount` or `items[0].quantity`; empty for the body itself')), message: v.string() })),
  }),
  KeysError: withFields('400 RESERVED_CUSTOM_FIELDS, UNKNOWN_CUSTOM_FIELDS, INVALID_CUSTOM_FIELD_VALUES, CUSTOM_FIELD_VALUE_TYPE_MISMATCH, UNKNOWN_ITEM_KEYS', {
    keys: v.pipe(v.array(v.string()), v.description('The custom-field or item keys at fault, as sent')),
  }),
  AwardWaitActiveError: withFields('400 AWARD_WAIT_ACTIVE', {
    retryAfterSeconds: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Seconds until this customer can be awarded again')),
  }),
  AmbiguousCustomerMatchError: withFields('409 AMBIGUOUS_CUSTOMER_MATCH: several customers share the email or phone; use a more precise ref', {
    matchedBy: v.picklist(['email', 'phone']),
    candidates: v.array(v.object({ passUserId: v.string(), contact: v.pipe(v.string(), v.description('The email or phone, masked')) })),
  }),
  ExternalIdOnOtherCardError: withFields('409 EXTERNAL_ID_ON_OTHER_CARD: the customer who carries this externalCustomerId', {
    cardId: v.string(),
    passUserId: v.string(),
  }),
  InternalError: withFields('500 INTERNAL_ERROR: the details are in the server log only', {
    requestId: v.pipe(v.string(), v.description('Quote it when reporting the error (also the X-Request-Id header)')),
  }),
} as const;

export type ErrorSchemaName = keyof typeof ERROR_SCHEMAS;

/** The schema of each code that sends extra fields; every other code answers a plain Error. */
const SCHEMA_OF_CODE: Record<string, ErrorSchemaName> = {
  VALIDATION_FAILED: 'ValidationError',
  RESERVED_CUSTOM_FIELDS: 'KeysError',
  UNKNOWN_CUSTOM_FIELDS: 'KeysError',
  INVALID_CUSTOM_FIELD_VALUES: 'KeysError',
  CUSTOM_FIELD_VALUE_TYPE_MISMATCH: 'KeysError',
  UNKNOWN_ITEM_KEYS: 'KeysError',
  AWARD_WAIT_ACTIVE: 'AwardWaitActiveError',
  AMBIGUOUS_CUSTOMER_MATCH: 'AmbiguousCustomerMatchError',
  EXTERNAL_ID_ON_OTHER_CARD: 'ExternalIdOnOtherCardError',
  INTERNAL_ERROR: 'InternalError',
};

export const errorSchemaOf = (code: string): ErrorSchemaName => SCHEMA_OF_CODE[code] ?? 'Error';
