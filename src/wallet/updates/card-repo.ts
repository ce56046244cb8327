// SQL of the card-level update rows (tables wallet_card_fanouts and wallet_class_updates): what a
// card change leaves for the pass-update worker, one row per card however many customers it has.
import type { Db } from '../../db/connection';
import { perConnection } from '../../db/per-connection';

/** How far a card's fan-out got: the last customer done, in (livemode, createdAt, customerId) order. */
export interface FanoutPosition {
  livemode: number;
  createdAt: number;
  customerId: string;
}

/** Before every customer. */
export const FANOUT_START: FanoutPosition = Object.freeze({ livemode: -1, createdAt: 0, customerId: '' });

export interface ClassUpdateRow {
  cardId: string;
  generation: number;
  attempts: number;
}

interface RawClassUpdate {
  card_id: string;
  generation: number;
  attempts: number;
}

function createCardUpdatesRepo(db: Db) {
  // A newer change of the card restarts the expansion: customers done already get the newer pass too.
  const upsertFanout = db.prepare(
    `INSERT INTO wallet_card_fanouts (card_id, after_livemode, after_created_at, after_customer, queued_at, updated_at)
     VALUES (@cardId, @livemode, @createdAt, @customerId, @now, @now)
     ON CONFLICT (card_id) DO UPDATE SET after_livemode = @livemode, after_created_at = @createdAt, after_customer = @customerId, updated_at = @now`,
  );
  const nextFanout = db.prepare<[], { card_id: string; after_livemode: number; after_created_at: number; after_customer: string }>(
    'SELECT card_id, after_livemode, after_created_at, after_customer FROM wallet_card_fanouts ORDER BY queued_at, rowid LIMIT 1',
  );
  const advanceFanout = db.prepare<FanoutPosition & { cardId: string; now: number }>(
    'UPDATE wallet_card_fanouts SET after_livemode = @livemode, after_created_at = @createdAt, after_customer = @customerId, updated_at = @now WHERE card_id = @cardId',
  );
  const removeFanout = db.prepare('DELETE FROM wallet_card_fanouts WHERE card_id = ?');
  const countFanouts = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM wallet_card_fanouts');
  // The next slice of the card's customers (an index range on customers_card_fanout), each with
  // whether a wallet holds its pass: an Apple device registered it, or a Google save link was
  // handed out. Only those need a push; the web pass reads the card afresh on every view.
  const customerSlice = db.prepare<FanoutPosition & { cardId: string; limit: number }, { id: string; livemode: number; created_at: number; held: number }>(
    `SELECT c.id, c.livemode, c.created_at,
            (EXISTS (SELECT 1 FROM wallet_apple_registrations r WHERE r.customer_id = c.id)
             OR EXISTS (SELECT 1 FROM wallet_google_objects g WHERE g.customer_id = c.id)) AS held
     FROM customers c WHERE c.card_id = @cardId AND (c.livemode, c.created_at, c.id) > (@livemode, @createdAt, @customerId)
     ORDER BY c.livemode, c.created_at, c.id LIMIT @limit`,
  );

  const upsertClass = db.prepare(
    `INSERT INTO wallet_class_updates (card_id, generation, attempts, next_attempt_at, lease_until, last_error, queued_at, updated_at)
     VALUES (@cardId, 1, 0, @now, NULL, NULL, @now, @now)
     ON CONFLICT (card_id) DO UPDATE SET generation = generation + 1, attempts = 0, next_attempt_at = @now, last_error = NULL, updated_at = @now`,
  );
  const dueClasses = db.prepare<{ now: number; limit: number }, RawClassUpdate>(
    `SELECT card_id, generation, attempts FROM wallet_class_updates
     WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
     ORDER BY next_attempt_at, rowid LIMIT @limit`,
  );
  const leaseClass = db.prepare('UPDATE wallet_class_updates SET lease_until = @leaseUntil WHERE card_id = @cardId');
  const completeClass = db.prepare('DELETE FROM wallet_class_updates WHERE card_id = @cardId AND generation = @generation');
  const releaseClass = db.prepare('UPDATE wallet_class_updates SET lease_until = NULL, updated_at = @now WHERE card_id = @cardId');
  const failClass = db.prepare(
    `UPDATE wallet_class_updates SET attempts = attempts + 1, next_attempt_at = @nextAttemptAt, lease_until = NULL, last_error = @error, updated_at = @now
     WHERE card_id = @cardId`,
  );
  const countClasses = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM wallet_class_updates WHERE next_attempt_at IS NOT NULL');
  const classRow = db.prepare<[string], RawClassUpdate & { next_attempt_at: number | null; last_error: string | null }>('SELECT * FROM wallet_class_updates WHERE card_id = ?');

  return {
    queueFanout(cardId: string, now: number) {
      upsertFanout.run({ ...FANOUT_START, cardId, now });
    },
    /** The oldest card whose passes are still being queued, and how far that got. */
    nextFanout: (): { cardId: string; after: FanoutPosition } | undefined => {
      const row = nextFanout.get();
      return row && { cardId: row.card_id, after: { livemode: row.after_livemode, createdAt: row.after_created_at, customerId: row.after_customer } };
    },
    advanceFanout(cardId: string, after: FanoutPosition, now: number) {
      advanceFanout.run({ ...after, cardId, now });
    },
    removeFanout(cardId: string) {
      removeFanout.run(cardId);
    },
    pendingFanouts: () => countFanouts.get()!.n,
    /** Up to `limit` customers of the card after `after`, in order, each with its position. */
    customerSlice: (cardId: string, after: FanoutPosition, limit: number) =>
      customerSlice.all({ ...after, cardId, limit }).map((r) => ({ id: r.id, held: r.held === 1, position: { livemode: r.livemode, createdAt: r.created_at, customerId: r.id } })),

    queueClass(cardId: string, now: number) {
      upsertClass.run({ cardId, now });
    },
    /** Due, unleased class updates, leased to the caller until `leaseUntil` (one transaction). */
    claimDueClasses: db.transaction((now: number, leaseUntil: number, limit: number): ClassUpdateRow[] => {
      const rows = dueClasses.all({ now, limit });
      for (const row of rows) leaseClass.run({ cardId: row.card_id, leaseUntil });
      return rows.map((r) => ({ cardId: r.card_id, generation: r.generation, attempts: r.attempts }));
    }).immediate,
    /** Deletes the row unless the card changed again meanwhile; then it only drops the lease. */
    completeClass: db.transaction((cardId: string, generation: number, now: number) => {
      if (completeClass.run({ cardId, generation }).changes === 0) releaseClass.run({ cardId, now });
    }).immediate,
    /** Class updates still to send, due now or waiting for a retry. */
    pendingClasses: () => countClasses.get()!.n,
    failClass(cardId: string, nextAttemptAt: number | null, error: string, now: number) {
      failClass.run({ cardId, nextAttemptAt, error: error.slice(0, 500), now });
    },
    findClass: (cardId: string) => {
      const row = classRow.get(cardId);
      return row && { cardId: row.card_id, generation: row.generation, attempts: row.attempts, nextAttemptAt: row.next_attempt_at, lastError: row.last_error };
    },
  };
}

export const cardUpdatesRepo = perConnection(createCardUpdatesRepo);
