import type { WriteDeps } from '../deps';
import { isoTime } from '../lib/clock';
import { newId } from '../lib/ids';
import type { EventEnvelope, EventType } from './types';

/**
 * Emits an event: builds its envelope and announces it (`onChange.eventEmitted`), and the webhooks
 * keep it for the endpoints that subscribe to it: the event row and one delivery row each. Call it
 * inside the transaction of the change that caused the event: a crash then loses neither or both,
 * and nothing is sent until the transaction commits (the worker reads committed rows only).
 */
export function emitEvent(
  deps: WriteDeps,
  input: { orgId: string; livemode: boolean; type: EventType; customerId: string | null; data: Record<string, unknown> },
): EventEnvelope {
  if (!deps.db.inTransaction) throw new Error('emitEvent must run inside the transaction of the change it reports');
  const now = deps.clock.now();
  const envelope: EventEnvelope = { id: newId('evt'), type: input.type, createdAt: isoTime(now), orgId: input.orgId, livemode: input.livemode, data: input.data };
  deps.onChange.eventEmitted(deps, {
    id: envelope.id,
    orgId: input.orgId,
    livemode: input.livemode,
    type: input.type,
    customerId: input.customerId,
    payload: JSON.stringify(envelope),
    createdAt: now,
  });
  return envelope;
}
