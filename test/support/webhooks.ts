import { randomBytes } from 'node:crypto';
import type { WriteDeps } from '../../src/deps';
import { emitEvent } from '../../src/events/outbox';
import type { EventEnvelope, EventType } from '../../src/events/types';
import { createDeliveryWorker, type DeliveryWorker, type WorkerOptions } from '../../src/webhooks/worker';
import { startTestApp, type TestApp } from './app';

export interface WebhookTestApp extends TestApp {
  worker: DeliveryWorker;
}

/** The test app with the delivery worker wired as main.ts wires it: woken after every commit. */
export async function startWebhookApp(env: Record<string, string> = {}, options: WorkerOptions = {}): Promise<WebhookTestApp> {
  let worker: DeliveryWorker | undefined;
  const app = await startTestApp({ env, afterCommit: { eventsWritten: () => worker?.wake() } });
  worker = createDeliveryWorker(app.deps, options);
  const close = app.close;
  return Object.assign(app, {
    worker,
    async close() {
      await worker!.stop(1_000);
      await close();
    },
  });
}

/** A writer: the app's deps, or a bare connection wired with main.ts's changeHooks. */
export type Producer = WriteDeps;

const token = () => randomBytes(8).toString('hex');

/**
 * Realistic `data` for each event type (docs/webhooks.md#what-arrives), as the customers and ledger
 * features will emit them: `balance` is the primary counter, `change` is signed.
 */
export function sampleData(type: EventType, cardId: string): { customerId: string; data: Record<string, unknown> } {
  const passUserId = token();
  const base = { externalCustomerId: `crm-${token().slice(0, 6)}`, passUserId, cardId };
  switch (type) {
    case 'customer.enrolled':
      return { customerId: passUserId, data: base };
    case 'balance.updated':
      return { customerId: passUserId, data: { ...base, cardType: 'stamp_card', balance: 7, change: 1 } };
    case 'reward.redeemed':
      return { customerId: passUserId, data: { ...base, cardType: 'point_card', balance: 20, change: -100 } };
    case 'level.changed':
      return { customerId: passUserId, data: { ...base, balance: 520, change: 40, level: 'Gold', previousLevel: 'Silver' } };
    case 'customer.deleted':
      return { customerId: passUserId, data: base };
  }
}

/** What every channel does: the event inside its change's transaction (the outbox wakes the worker after the commit). */
export function produce(app: Producer, input: { orgId: string; livemode: boolean; type: EventType; cardId: string; data?: Record<string, unknown> }): EventEnvelope {
  const sample = sampleData(input.type, input.cardId);
  const envelope = app.db.transaction(() =>
    emitEvent(app, { orgId: input.orgId, livemode: input.livemode, type: input.type, customerId: sample.customerId, data: input.data ?? sample.data }),
  )();
  return envelope;
}

/** Creates an endpoint through the API and returns its record with the secret. */
export async function createEndpoint(app: TestApp, key: string, url: string, events: string[] = ['*']): Promise<{ id: string; secret: string; livemode: boolean }> {
  const res = await app.request('POST', '/api/v1/webhooks', { key, body: { url, events } });
  if (res.status !== 201) throw new Error(`creating the endpoint failed: ${res.status} ${res.text}`);
  return res.body;
}

/** The stored envelope of an event, by its public id (the application never looks an event up by it: a test's small table is read whole). */
export function storedPayload(db: TestApp['db'], eventId: string): string | undefined {
  return (db.prepare('SELECT payload FROM events WHERE id = ?').get(eventId) as { payload: string } | undefined)?.payload;
}
