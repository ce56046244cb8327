import * as v from 'valibot';
import { EVENT_TYPES } from '../events/types';
import { isHttpUrl, oneOf, pageLimit } from '../lib/validation';

// --- Requests ---

// Credentials in the URL are refused: the URL is read back by every GET and list, while the
// contract shows a secret only once; a receiver authenticates deliveries by their signature.
const hasNoCredentials = (text: string): boolean => {
  // Not a URL at all: the check above reports that (valibot runs every check of the pipe).
  if (!URL.canParse(text)) return true;
  const url = new URL(text);
  return url.username === '' && url.password === '';
};

const WebhookUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(2048),
  v.check(isHttpUrl, 'must be an absolute http(s) URL'),
  v.check(hasNoCredentials, 'must not contain a user name or password; verify the X-Loyalty-Signature of each delivery instead'),
  // What the document can say of the two checks above: the scheme, then a host with no `user:pass@`
  // before it (the authority, up to the first / \ ? or #, holds no @). A URL parser decides the
  // rest, as the description says.
  v.metadata({ pattern: /^\s*[Hh][Tt][Tt][Pp][Ss]?:[/\\]*[^\s/\\?#@:][^\s/\\?#@]*(?:[/\\?#]|\s*$)/.source }),
  v.description(
    'Absolute http(s) URL that receives the deliveries, as a WHATWG URL parser reads it, with a host and without a user name or password (`https://user:pass@…` is 400 VALIDATION_FAILED: verify the X-Loyalty-Signature instead)',
  ),
);

export const SUBSCRIBABLE = [...EVENT_TYPES, '*'] as const;

const atLeastOne = 'must list at least one event type';
const NamedEvents = v.pipe(v.array(v.picklist(EVENT_TYPES)), v.minLength(1, atLeastOne));
const EveryEvent = v.pipe(v.array(v.literal('*')), v.minLength(1, atLeastOne));

// Event names, or ["*"] for all: two shapes, so a generated client cannot mix them either. "*"
// already means every type; mixing it with names would make the subscription ambiguous to read.
// The description goes before the transform: the OpenAPI conversion stops at a transform.
const EventList = v.pipe(
  oneOf([NamedEvents, EveryEvent], (list) => {
    if (!Array.isArray(list) || !list.includes('*')) return NamedEvents;
    return list.every((e) => e === '*') ? EveryEvent : { message: 'send ["*"] alone for every event type' };
  }),
  v.description(`Event types (${EVENT_TYPES.join(', ')}), or ["*"] for all; a name listed twice is kept once`),
  v.transform((list) => [...new Set(list)]),
);

export const CreateWebhookBody = v.strictObject({ url: WebhookUrl, events: EventList });

export const PatchWebhookBody = v.strictObject({
  url: v.optional(WebhookUrl),
  events: v.optional(EventList),
  status: v.optional(v.pipe(v.picklist(['active', 'disabled']), v.description('A disabled endpoint receives nothing; its pending deliveries stop'))),
});

export const WebhookIdParams = v.strictObject({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) });
export const DeliveryIdParams = v.strictObject({ deliveryId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) });

export const DeliveriesQuery = v.object({
  limit: pageLimit(50, 'How many deliveries, newest first'),
});

// --- Responses ---

const iso = v.pipe(v.string(), v.description('ISO 8601 UTC timestamp'));

export const WebhookResource = v.object({
  id: v.pipe(v.string(), v.description('we_…')),
  url: v.string(),
  events: v.array(v.picklist(SUBSCRIBABLE)),
  status: v.picklist(['active', 'disabled']),
  livemode: v.pipe(v.boolean(), v.description('false for a test key’s endpoints, which receive only test events')),
  createdAt: iso,
  updatedAt: iso,
});

export const CreatedWebhookResource = v.object({
  ...WebhookResource.entries,
  secret: v.pipe(v.string(), v.description('whsec_… signing secret. Shown only in this response: store it now')),
});

export const AttemptResource = v.object({
  number: v.pipe(v.number(), v.description('1 to 3')),
  status: v.picklist(['succeeded', 'failed']),
  responseCode: v.pipe(v.nullable(v.number()), v.description('null on a timeout, a refused address or a network error')),
  error: v.pipe(v.nullable(v.string()), v.description('Why the attempt failed; null when it succeeded')),
  durationMs: v.number(),
  at: iso,
});

export const DeliveryResource = v.object({
  id: v.pipe(v.string(), v.description('wd_…')),
  webhookId: v.string(),
  eventId: v.pipe(v.string(), v.description('The event’s id: the same on every retry and replay, so receivers deduplicate on it')),
  eventType: v.picklist(EVENT_TYPES),
  status: v.pipe(v.picklist(['pending', 'succeeded', 'failed']), v.description('pending until a 2xx (succeeded) or the last attempt failed (failed)')),
  attempts: v.array(AttemptResource),
  nextAttemptAt: v.pipe(v.nullable(iso), v.description('When the next attempt is due; null once final')),
  replayOf: v.pipe(v.nullable(v.string()), v.description('The delivery this one replays')),
  createdAt: iso,
});
