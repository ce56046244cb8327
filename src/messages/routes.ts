import { resolveCustomer } from '../customers/refs';
import { defineRoute } from '../routing/route';
import { BODY_MAX, HEADER_MAX } from './model';
import { AudienceMessageBody, CardIdParams, CustomerMessageBody, MessageAccepted, MessageParams, MessageResource, RefParams } from './schemas';
import { getMessage, messageResource, sendToAudience, sendToCustomer } from './service';

const TAG = 'Messages';
const HOW =
  ` \`header\` (1–${HEADER_MAX} characters, one line) and \`body\` (1–${BODY_MAX}) are trimmed. The message goes on every pass the customer holds: ` +
  'Apple Wallet (the first field on the back of the pass; its words on the lock screen when they are new to the pass), ' +
  'Google Wallet (a message on the pass, with a notification while that pass had fewer than 3 notifying updates in 24 hours, else shown without one) ' +
  'and the web pass (on top). A pass shows the latest message only. Sending happens after the answer; ' +
  '`GET /v1/cards/{cardId}/messages/{messageId}` shows how the passes fared. `recipients` counts customers holding at least one pass (a pass such a customer adds later shows the message too). ' +
  'Test keys reach test customers only, live keys live ones.';

export const messageRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/cards/:cardId/messages',
    tag: TAG,
    summary: 'Send a message to the card’s audience',
    description:
      '`audience`: `"all"`, `{ "level": NAME }` (level cards), `{ "visitedWithinDays": N }` (an earn in the last N × 24 hours), `{ "notVisitedForDays": N }` ' +
      '(no earn in that time, and joined before it), or `{ "minBalance": N }` (in the card’s units; store credit with 2 decimals). ' +
      'A customer gets at most one audience message per day (the shop’s calendar): customers an audience message reached today are left out of `recipients`.' +
      HOW,
    scope: 'cards:write',
    params: CardIdParams,
    body: AudienceMessageBody,
    idempotent: true,
    responses: { 202: { description: 'Accepted: the message is on its way to `recipients` customers', schema: MessageAccepted } },
    errors: {
      400: ['VALIDATION_FAILED: <paths> (with issues; also a level the card does not have, a level on a card without levels, or a fraction of minBalance on a card of whole units)'],
      403: ['CARD_NOT_IN_ORG'],
      404: ['CARD_NOT_FOUND'],
      409: ['IDEMPOTENCY_KEY_IN_USE'],
      422: ['IDEMPOTENCY_KEY_REUSED'],
    },
    handle: ({ deps, auth, params, body }) => {
      const message = sendToAudience(deps, auth, params.cardId, body, 'api');
      return { status: 202, body: { messageId: message.id, recipients: message.recipients } };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/customers/:ref/messages',
    tag: TAG,
    summary: 'Send a message to one customer',
    description: 'Not counted toward the one audience message a day, and not held back by it.' + HOW,
    scope: 'customers:write',
    params: RefParams,
    body: CustomerMessageBody,
    idempotent: true,
    responses: { 202: { description: 'Accepted: `recipients` is 1, or 0 when the customer holds no pass yet', schema: MessageAccepted } },
    errors: { 404: ['CUSTOMER_NOT_FOUND'], 409: ['AMBIGUOUS_CUSTOMER_MATCH', 'IDEMPOTENCY_KEY_IN_USE'], 422: ['IDEMPOTENCY_KEY_REUSED'] },
    handle: ({ deps, auth, params, body }) => {
      const customer = resolveCustomer(deps.db, auth, params.ref);
      const message = sendToCustomer(deps, auth, customer.id, body, 'api');
      return { status: 202, body: { messageId: message.id, recipients: message.recipients } };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/cards/:cardId/messages/:messageId',
    tag: TAG,
    summary: 'Read a message and how its passes fared',
    description: 'Audience and one-customer messages alike (a one-customer message is filed under the customer’s card). The figures move as the passes are reached.',
    scope: 'cards:read',
    params: MessageParams,
    responses: { 200: { description: 'The message with its delivery figures', schema: MessageResource } },
    errors: { 403: ['CARD_NOT_IN_ORG'], 404: ['CARD_NOT_FOUND', 'MESSAGE_NOT_FOUND'] },
    handle: ({ deps, auth, params }) => ({ status: 200, body: messageResource(deps, getMessage(deps, auth, params.cardId, params.messageId)) }),
  }),
];
