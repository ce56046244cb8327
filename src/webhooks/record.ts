import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { nextAttemptAt, type RetryPolicy } from '../queue/retry';
import { deliveriesRepo, type DeliveryStatus } from './deliveries-repo';
import type { SendOutcome } from './send';
import { disableWebhook } from './service';

export interface FinishedAttempt {
  deliveryId: string;
  webhookId: string;
  number: number;
  /** When the attempt started (injected clock). */
  at: number;
  outcome: SendOutcome;
}

type RecordDeps = { db: Db; clock: Clock };

/**
 * Writes one attempt and moves its delivery on, inside the caller's transaction (the queue's):
 * 2xx → succeeded; a failure with attempts left → pending again, due after the policy's wait;
 * the last failure → failed. A 410 fails the delivery at once and disables the endpoint.
 * Returns the delivery's new status, or null when the delivery is gone (its endpoint was deleted
 * while the attempt ran, taking the history with it).
 */
export function recordAttempt(deps: RecordDeps, policy: RetryPolicy, attempt: FinishedAttempt): DeliveryStatus | null {
  const repo = deliveriesRepo(deps.db);
  const current = repo.status(attempt.deliveryId);
  if (current === undefined) return null;
  const { outcome } = attempt;
  repo.insertAttempt({
    deliveryId: attempt.deliveryId,
    number: attempt.number,
    status: outcome.succeeded ? 'succeeded' : 'failed',
    responseCode: outcome.responseCode,
    error: outcome.error,
    durationMs: outcome.durationMs,
    at: attempt.at,
  });
  const now = deps.clock.now();
  // A delivery the endpoint's disabling already failed stays failed, unless this very attempt got through.
  const retryAt = !outcome.succeeded && current === 'pending' && outcome.responseCode !== 410 ? nextAttemptAt(policy, attempt.number, now) : null;
  const status: DeliveryStatus = outcome.succeeded ? 'succeeded' : retryAt !== null ? 'pending' : 'failed';
  repo.finish({ id: attempt.deliveryId, status, attemptCount: attempt.number, nextAttemptAt: retryAt });
  if (outcome.responseCode === 410) disableWebhook(deps, attempt.webhookId, now);
  return status;
}
