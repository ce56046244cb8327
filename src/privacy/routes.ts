import { defineRoute } from '../routing/route';
import { REF_ERRORS, RefParams } from '../customers/schemas';
import { eraseCustomerByRef } from './erase';
import { DeleteCustomerResult } from './schemas';

// The erasure through the API; the console's is its customer page's "Delete personal data", the
// export is the console's "Download data" and the CLI's `customer export`.

export const privacyRoutes = [
  defineRoute({
    method: 'DELETE',
    path: '/v1/customers/:ref',
    tag: 'Customers',
    summary: 'Erase a customer’s personal data (an addition to the contract)',
    description:
      'For a customer’s request to be forgotten. Name, email, phone, customFields, consent and externalCustomerId are erased; the install link and the pass’s ' +
      'code stop working and the pass is voided (Apple: void, Google: inactive, web pass: removed). The ledger stays for the shop’s books, identified by the ' +
      'passUserId only. Sends customer.deleted (data: passUserId, externalCustomerId as it was, cardId). Afterwards every ref of the customer is 404 ' +
      'CUSTOMER_NOT_FOUND, so a repeat answers 404: the customer is gone. Takes no Idempotency-Key (like DELETE /v1/webhooks/{id}): no answer is stored, as it ' +
      'would name the erased customer.',
    scope: 'customers:write',
    params: RefParams,
    responses: { 200: { description: 'The customer’s personal data is erased', schema: DeleteCustomerResult } },
    errors: REF_ERRORS,
    handle: ({ deps, auth, params }) => ({ status: 200, body: eraseCustomerByRef(deps, auth, params.ref) }),
  }),
];
