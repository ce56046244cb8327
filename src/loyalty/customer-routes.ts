import type { AppDeps } from '../deps';
import { defineRoute } from '../routing/route';
import { enrollCustomer } from './enroll';
import { customerResource } from './customer-resource';
import { expiringFor } from './expiring';
import { LookupQuery, PatchCustomerBody, PatchCustomerResult, REF_ERRORS, RefParams } from '../customers/schemas';
import { CustomerResource, EnrollBody, EnrollResult } from './customer-schemas';
import { getCustomerByRef, lookupCustomer, updateCustomer, type CustomerWithCard } from '../customers/service';

const CUSTOM_FIELD_RULES =
  ' customFields keys match the card’s questions case-insensitively and are stored under the question’s own key with canonical values ' +
  '(numbers as numbers, checkboxes as booleans, select as the option value, phone as E.164, the rest as strings). A bad entry is one 400 naming ' +
  'every bad key of the first failing check, in this order: RESERVED_CUSTOM_FIELDS, UNKNOWN_CUSTOM_FIELDS, VALIDATION_FAILED (two keys for one question), ' +
  'INVALID_CUSTOM_FIELD_VALUES (not a string, number or boolean; null included), CUSTOM_FIELD_VALUE_TYPE_MISMATCH; nothing is written.';
const CUSTOM_FIELD_ERRORS = ['RESERVED_CUSTOM_FIELDS', 'UNKNOWN_CUSTOM_FIELDS', 'INVALID_CUSTOM_FIELD_VALUES', 'CUSTOM_FIELD_VALUE_TYPE_MISMATCH', 'VALIDATION_FAILED'];

const read = (deps: AppDeps, found: CustomerWithCard) => ({ status: 200, body: customerResource(found.customer, found.card, deps.config, expiringFor(deps.db, found.customer, found.card)) });

// Order matters: /lookup is registered before /:ref, so it is never read as a ref. DELETE
// /v1/customers/:ref (the erasure) is privacy/routes.ts.
export const customerRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/customers',
    tag: 'Customers',
    summary: 'Enroll or match a customer',
    description:
      'Resolution order: externalCustomerId across the organisation, then email, then phone among the customers of cardId. ' +
      'No match creates a customer and pass (result `created`, event customer.enrolled); a match returns that customer unchanged ' +
      '(result `matched`; name, email, phone and initialPoints are not written, customFields are). Both answer 201: branch on `result`.' +
      CUSTOM_FIELD_RULES,
    scope: 'customers:write',
    body: EnrollBody,
    idempotent: true,
    responses: { 201: { description: 'The customer was created or matched', schema: EnrollResult } },
    errors: {
      400: CUSTOM_FIELD_ERRORS,
      403: ['CARD_NOT_IN_ORG'],
      404: ['CARD_NOT_FOUND'],
      409: ['AMBIGUOUS_CUSTOMER_MATCH', 'EXTERNAL_ID_ON_OTHER_CARD (body names cardId and passUserId)', 'TEST_CUSTOMER_LIMIT', 'IDEMPOTENCY_KEY_IN_USE'],
      422: ['IDEMPOTENCY_KEY_REUSED'],
    },
    handle: ({ deps, auth, body, idempotencyKey }) => {
      const result = enrollCustomer(deps, auth, body, { channel: 'api', idempotencyKey: idempotencyKey ?? null });
      return { status: 201, body: result };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customers/lookup',
    tag: 'Customers',
    summary: 'Find a customer by email or phone',
    description: 'Across the whole organisation. With both, email is tried first and phone only if the email matches nobody. Writes nothing.',
    scope: 'customers:read',
    query: LookupQuery,
    responses: { 200: { description: 'The customer', schema: CustomerResource } },
    errors: { 400: ['EMAIL_OR_PHONE_REQUIRED', 'EMAIL_MUST_BE_A_SINGLE_VALUE', 'PHONE_MUST_BE_A_SINGLE_VALUE'], ...REF_ERRORS },
    handle: ({ deps, auth, query }) => read(deps, lookupCustomer(deps, auth, query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/customers/:ref',
    tag: 'Customers',
    summary: 'Read a customer, its card type and balance',
    scope: 'customers:read',
    params: RefParams,
    responses: { 200: { description: 'The customer', schema: CustomerResource } },
    errors: REF_ERRORS,
    handle: ({ deps, auth, params }) => read(deps, getCustomerByRef(deps, auth, params.ref)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/customers/:ref',
    tag: 'Customers',
    summary: 'Set externalCustomerId and/or customFields',
    description:
      'Only these two fields are accepted (name, email and phone cannot be changed). customFields are merged into the stored answers. ' +
      '`updated` lists only what was written: a value equal to the stored one is not written.' +
      CUSTOM_FIELD_RULES,
    scope: 'customers:write',
    params: RefParams,
    body: PatchCustomerBody,
    idempotent: true,
    responses: { 200: { description: 'What was written', schema: PatchCustomerResult } },
    errors: {
      400: CUSTOM_FIELD_ERRORS,
      404: REF_ERRORS[404],
      409: [...REF_ERRORS[409], 'EXTERNAL_ID_TAKEN', 'IDEMPOTENCY_KEY_IN_USE'],
      422: ['IDEMPOTENCY_KEY_REUSED'],
    },
    handle: ({ deps, auth, params, body }) => ({ status: 200, body: updateCustomer(deps, auth, params.ref, body) }),
  }),
];
