import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import { eventsRepo } from '../events/repo';
import type { Clock } from '../lib/clock';
import { deliveriesRepo } from './deliveries-repo';

/** How long delivery history (deliveries, their attempts, and the events they carried) is kept. */
export const WEBHOOK_HISTORY_DAYS = 30;

const BATCH = 500;
/** Batches per table and run (once a minute): a backlog, such as the first run on a year of
 * history, drains at 120,000 rows an hour per table, and each run holds the server for a few
 * short transactions only. With nothing to remove a run is two index probes. */
const MAX_BATCHES = 4;

/**
 * Keeps the webhook tables bounded: succeeded and failed deliveries (with their attempts) are
 * removed 30 days after they were created, and so are events no delivery refers to any more.
 * Pending deliveries are never removed, nor the events they (or a recent replay) still need.
 * A large backlog is worked off over several runs, in short transactions.
 */
export function sweepWebhookHistory(deps: { db: Db; clock: Clock }): { deliveries: number; events: number } {
  const cutoff = deps.clock.now() - WEBHOOK_HISTORY_DAYS * 24 * 3_600_000;
  const removeDeliveries = () => inTransaction(deps.db, () => deliveriesRepo(deps.db).deleteFinishedBefore(cutoff, BATCH));
  const removeEvents = () => inTransaction(deps.db, () => eventsRepo(deps.db).deleteUnreferencedBefore(cutoff, BATCH));
  const drain = (batch: () => number): number => {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = batch();
      total += n;
      if (n < BATCH) break;
    }
    return total;
  };
  // Deliveries first: an event is only removed once none of its deliveries is left.
  const deliveries = drain(removeDeliveries);
  const events = drain(removeEvents);
  return { deliveries, events };
}
