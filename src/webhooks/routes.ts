import * as v from 'valibot';
import { defineRoute } from '../routing/route';
import { WEBHOOK_HISTORY_DAYS } from './history';
import {
  CreatedWebhookResource,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryIdParams,
  DeliveryResource,
  PatchWebhookBody,
  WebhookIdParams,
  WebhookResource,
} from './schemas';
import {
  createWebhook,
  deleteWebhook,
  deliveryResource,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  updateWebhook,
  webhookResource,
} from './service';

const TAG = 'Webhooks';
const NOT_FOUND = { 404: ['WEBHOOK_NOT_FOUND'] };
// WEBHOOK_BLOCK_PRIVATE is the operator's choice, so a client meets this refusal on some servers only.
const PRIVATE_URL = 'VALIDATION_FAILED: <paths> (with issues; also `url` when it is or resolves to a private or loopback address and the operator set WEBHOOK_BLOCK_PRIVATE)';

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks',
    tag: TAG,
    summary: 'Register a webhook endpoint',
    description:
      'The endpoint belongs to the key’s mode: a test key’s endpoints receive only test events (`livemode: false`). The response alone carries the signing `secret`. At most 20 endpoints per organisation and mode.',
    scope: 'webhooks:manage',
    body: CreateWebhookBody,
    responses: { 201: { description: 'The new endpoint, with its signing secret (shown only here)', schema: CreatedWebhookResource } },
    errors: { 400: [PRIVATE_URL, 'WEBHOOK_LIMIT_REACHED'] },
    handle: async ({ deps, auth, body }) => {
      const row = await createWebhook(deps, auth, body);
      return { status: 201, body: { ...webhookResource(row), secret: row.secret } };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks',
    tag: TAG,
    summary: 'List webhook endpoints',
    description: 'The key’s mode only, oldest first. Secrets are never included.',
    scope: 'webhooks:manage',
    responses: { 200: { description: 'The endpoints', schema: v.array(WebhookResource) } },
    handle: ({ deps, auth }) => ({ status: 200, body: listWebhooks(deps, auth).map(webhookResource) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:id',
    tag: TAG,
    summary: 'Read one webhook endpoint',
    scope: 'webhooks:manage',
    params: WebhookIdParams,
    responses: { 200: { description: 'The endpoint', schema: WebhookResource } },
    errors: NOT_FOUND,
    handle: ({ deps, auth, params }) => ({ status: 200, body: webhookResource(getWebhook(deps, auth, params.id)) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/webhooks/:id',
    tag: TAG,
    summary: 'Update a webhook endpoint',
    description: 'Any of `url`, `events`, `status`. Disabling stops the endpoint’s pending deliveries (they become `failed`); events that happen while it is disabled are not queued for it.',
    scope: 'webhooks:manage',
    params: WebhookIdParams,
    body: PatchWebhookBody,
    responses: { 200: { description: 'The updated endpoint', schema: WebhookResource } },
    errors: { ...NOT_FOUND, 400: [PRIVATE_URL] },
    handle: async ({ deps, auth, params, body }) => ({ status: 200, body: webhookResource(await updateWebhook(deps, auth, params.id, body)) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    tag: TAG,
    summary: 'Delete a webhook endpoint',
    description: 'Removes the endpoint and its delivery history; nothing more is sent to it.',
    scope: 'webhooks:manage',
    params: WebhookIdParams,
    responses: { 200: { description: 'The endpoint as it was', schema: WebhookResource } },
    errors: NOT_FOUND,
    handle: ({ deps, auth, params }) => ({ status: 200, body: webhookResource(deleteWebhook(deps, auth, params.id)) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries',
    tag: TAG,
    summary: 'Recent deliveries of one endpoint',
    description: `Newest first, each with every attempt (number, outcome, response code, error, duration, time). Finished deliveries are kept ${WEBHOOK_HISTORY_DAYS} days after they were created; a pending one stays until it is final.`,
    scope: 'webhooks:manage',
    params: WebhookIdParams,
    query: DeliveriesQuery,
    responses: { 200: { description: 'The deliveries', schema: v.array(DeliveryResource) } },
    errors: NOT_FOUND,
    handle: ({ deps, auth, params, query }) => ({
      status: 200,
      body: listDeliveries(deps, auth, params.id, query.limit).map(deliveryResource),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks/deliveries/:deliveryId/replay',
    tag: TAG,
    summary: 'Replay a delivery',
    description: 'Sends the same event (same event id) again to the delivery’s endpoint as a new delivery with `replayOf` set and a fresh signature timestamp.',
    scope: 'webhooks:manage',
    params: DeliveryIdParams,
    responses: { 201: { description: 'The new delivery', schema: DeliveryResource } },
    errors: { 404: ['DELIVERY_NOT_FOUND'], 409: ['WEBHOOK_DISABLED'] },
    handle: ({ deps, auth, params }) => {
      const view = replayDelivery(deps, auth, params.deliveryId);
      deps.afterCommit.eventsWritten();
      return { status: 201, body: deliveryResource(view) };
    },
  }),
];
