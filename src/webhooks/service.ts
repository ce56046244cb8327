import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Config } from '../config';
import { ApiError, notFound, validationFailed } from '../lib/errors';
import { isoTime, type Clock } from '../lib/clock';
import { newId, randomToken } from '../lib/ids';
import { reason } from '../lib/reasons';
import { pointsToBlockedAddress } from './address-guard';
import { deliveriesRepo, type AttemptRow, type DeliveryRow } from './deliveries-repo';
import { webhooksRepo, type WebhookRow } from './repo';

export type { WebhookRow } from './repo';
export type { AttemptRow } from './deliveries-repo';

export interface WebhookDeps {
  db: Db;
  clock: Clock;
}

/** Whose endpoints: a key sees only its own org's, and only those of its mode. */
export interface Owner {
  orgId: string;
  livemode: boolean;
}

export const MAX_WEBHOOKS_PER_MODE = 20;

function findOwned(deps: WebhookDeps, owner: Owner, id: string): WebhookRow {
  const row = webhooksRepo(deps.db).find(owner.orgId, owner.livemode, id);
  if (!row) throw notFound('WEBHOOK_NOT_FOUND', id);
  return row;
}

/** What registration needs besides the database: whether private addresses are refused. */
export type WebhookWriteDeps = WebhookDeps & { config: { webhooks: Pick<Config['webhooks'], 'blockPrivate'> } };

/**
 * WEBHOOK_BLOCK_PRIVATE, judged when a URL is registered or changed: 400 VALIDATION_FAILED on
 * `url`, so the integrator learns it now rather than from failed deliveries. Resolves DNS, so it
 * runs before the write transaction; the send-time check stays (a name may resolve elsewhere later).
 */
async function refuseBlockedUrl(deps: WebhookWriteDeps, url: string | undefined): Promise<void> {
  if (url === undefined || !deps.config.webhooks.blockPrivate) return;
  if (await pointsToBlockedAddress(url)) {
    throw validationFailed([{ path: 'url', message: 'points to a private, loopback or otherwise internal address; this server sends webhooks to public addresses only (WEBHOOK_BLOCK_PRIVATE)', reason: reason('privateAddress') }]);
  }
}

export async function createWebhook(deps: WebhookWriteDeps, owner: Owner, input: { url: string; events: string[] }): Promise<WebhookRow> {
  await refuseBlockedUrl(deps, input.url);
  return inTransaction(deps.db, () => {
    const repo = webhooksRepo(deps.db);
    if (repo.count(owner.orgId, owner.livemode) >= MAX_WEBHOOKS_PER_MODE) {
      throw new ApiError(400, 'WEBHOOK_LIMIT_REACHED', {
        detail: `an organisation may have ${MAX_WEBHOOKS_PER_MODE} ${owner.livemode ? 'live' : 'test'} endpoints; delete one first`,
      });
    }
    const now = deps.clock.now();
    const row: WebhookRow = {
      id: newId('we'),
      orgId: owner.orgId,
      livemode: owner.livemode,
      url: input.url,
      events: input.events,
      status: 'active',
      secret: `whsec_${randomToken(32)}`,
      createdAt: now,
      updatedAt: now,
    };
    repo.insert(row);
    return row;
  });
}

export function listWebhooks(deps: WebhookDeps, owner: Owner): WebhookRow[] {
  return webhooksRepo(deps.db).list(owner.orgId, owner.livemode);
}

export function getWebhook(deps: WebhookDeps, owner: Owner, id: string): WebhookRow {
  return findOwned(deps, owner, id);
}

/**
 * Switches an endpoint off and fails its pending deliveries, so nothing more is sent to it.
 * Runs inside the caller's transaction (PATCH, or the worker after a 410).
 */
export function disableWebhook(deps: WebhookDeps, webhookId: string, now: number): void {
  if (webhooksRepo(deps.db).disable(webhookId, now)) deliveriesRepo(deps.db).failPending(webhookId);
}

export async function updateWebhook(
  deps: WebhookWriteDeps,
  owner: Owner,
  id: string,
  patch: { url?: string; events?: string[]; status?: WebhookRow['status'] },
): Promise<WebhookRow> {
  await refuseBlockedUrl(deps, patch.url);
  return inTransaction(deps.db, () => {
    const current = findOwned(deps, owner, id);
    const next = {
      url: patch.url ?? current.url,
      events: patch.events ?? current.events,
      status: patch.status ?? current.status,
    };
    const changed = next.url !== current.url || JSON.stringify(next.events) !== JSON.stringify(current.events) || next.status !== current.status;
    if (!changed) return current;
    const now = deps.clock.now();
    webhooksRepo(deps.db).update({ id, ...next, updatedAt: now });
    if (current.status === 'active' && next.status === 'disabled') deliveriesRepo(deps.db).failPending(id);
    return { ...current, ...next, updatedAt: now };
  });
}

/** Removes the endpoint with its deliveries; answers the record as it was. */
export function deleteWebhook(deps: WebhookDeps, owner: Owner, id: string): WebhookRow {
  return inTransaction(deps.db, () => {
    const current = findOwned(deps, owner, id);
    webhooksRepo(deps.db).remove(id);
    return current;
  });
}

export interface DeliveryView {
  delivery: DeliveryRow;
  attempts: AttemptRow[];
}

function withAttempts(deps: WebhookDeps, deliveries: DeliveryRow[]): DeliveryView[] {
  const attempts = deliveriesRepo(deps.db).attemptsFor(deliveries.map((d) => d.id));
  return deliveries.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.deliveryId === delivery.id) }));
}

export function listDeliveries(deps: WebhookDeps, owner: Owner, webhookId: string, limit: number): DeliveryView[] {
  findOwned(deps, owner, webhookId);
  return withAttempts(deps, deliveriesRepo(deps.db).listForWebhook(webhookId, limit));
}

/**
 * A new delivery of the same event to the same endpoint: the payload, and so the
 * event id, are unchanged; the signature gets a fresh timestamp when it is sent. The caller wakes
 * the worker after this commits.
 */
export function replayDelivery(deps: WebhookDeps, owner: Owner, deliveryId: string): DeliveryView {
  return inTransaction(deps.db, () => {
    const repo = deliveriesRepo(deps.db);
    const original = repo.findInScope(owner.orgId, owner.livemode, deliveryId);
    if (!original) throw notFound('DELIVERY_NOT_FOUND', deliveryId);
    const webhook = webhooksRepo(deps.db).findById(original.webhookId)!;
    if (webhook.status !== 'active') {
      // A disabled endpoint receives nothing; queueing a send that never happens would mislead.
      throw new ApiError(409, 'WEBHOOK_DISABLED', { detail: `${webhook.id} is disabled; set its status to active before replaying` });
    }
    const id = newId('wd');
    repo.insert({ id, webhookId: original.webhookId, eventSeq: original.eventSeq, livemode: webhook.livemode, now: deps.clock.now(), replayOf: original.id });
    return { delivery: repo.findById(id)!, attempts: [] };
  });
}

// --- What the API shows ---

export function webhookResource(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    status: row.status,
    livemode: row.livemode,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

export function deliveryResource({ delivery, attempts }: DeliveryView) {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: attempts.map((a) => ({
      number: a.number,
      status: a.status,
      responseCode: a.responseCode,
      error: a.error,
      durationMs: a.durationMs,
      at: isoTime(a.at),
    })),
    nextAttemptAt: delivery.nextAttemptAt === null ? null : isoTime(delivery.nextAttemptAt),
    replayOf: delivery.replayOf,
    createdAt: isoTime(delivery.createdAt),
  };
}
