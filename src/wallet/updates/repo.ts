// SQL of the durable pass-update queue (table wallet_pass_updates), and the question whether
// anything could receive an update of a pass at all.
import type { Db } from '../../db/connection';
import { perConnection } from '../../db/per-connection';

export interface PassUpdateRow {
  customerId: string;
  generation: number;
  attempts: number;
  nextAttemptAt: number | null;
  leaseUntil: number | null;
  lastError: string | null;
}

interface RawRow {
  customer_id: string;
  generation: number;
  attempts: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  last_error: string | null;
}

const map = (r: RawRow): PassUpdateRow => ({
  customerId: r.customer_id,
  generation: r.generation,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  leaseUntil: r.lease_until,
  lastError: r.last_error,
});

function createPassUpdatesRepo(db: Db) {
  // A new change makes the row due at once with a fresh attempt count, even if it had been given
  // up on; a lease held by a running worker stays, and the bumped generation tells that worker
  // to leave the row for another round instead of deleting it.
  const upsert = db.prepare(
    `INSERT INTO wallet_pass_updates (customer_id, generation, attempts, next_attempt_at, lease_until, last_error, queued_at, updated_at)
     VALUES (@customerId, 1, 0, @now, NULL, NULL, @now, @now)
     ON CONFLICT (customer_id) DO UPDATE SET
       generation = generation + 1, attempts = 0, next_attempt_at = @now, last_error = NULL, updated_at = @now`,
  );
  const due = db.prepare<{ now: number; limit: number }, RawRow>(
    `SELECT * FROM wallet_pass_updates
     WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
     ORDER BY next_attempt_at, rowid LIMIT @limit`,
  );
  const lease = db.prepare('UPDATE wallet_pass_updates SET lease_until = @leaseUntil WHERE customer_id = @customerId');
  const complete = db.prepare('DELETE FROM wallet_pass_updates WHERE customer_id = @customerId AND generation = @generation');
  const release = db.prepare('UPDATE wallet_pass_updates SET lease_until = NULL, updated_at = @now WHERE customer_id = @customerId');
  const fail = db.prepare(
    `UPDATE wallet_pass_updates SET attempts = attempts + 1, next_attempt_at = @nextAttemptAt, lease_until = NULL,
       last_error = @error, updated_at = @now
     WHERE customer_id = @customerId`,
  );
  const pendingCount = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM wallet_pass_updates WHERE next_attempt_at IS NOT NULL');
  const byCustomer = db.prepare<[string], RawRow>('SELECT * FROM wallet_pass_updates WHERE customer_id = ?');
  // Two index probes (the registrations' customer index, the Google objects' primary key).
  const receivers = db.prepare<[string, string], { apple: number; google: number }>(
    `SELECT EXISTS (SELECT 1 FROM wallet_apple_registrations WHERE customer_id = ?) AS apple,
            EXISTS (SELECT 1 FROM wallet_google_objects WHERE customer_id = ?) AS google`,
  );
  const remove = db.prepare('DELETE FROM wallet_pass_updates WHERE customer_id = ?');

  return {
    queue(customerId: string, now: number) {
      upsert.run({ customerId, now });
    },
    /** Due, unleased rows, leased to the caller until `leaseUntil` (one transaction). */
    claimDue: db.transaction((now: number, leaseUntil: number, limit: number): PassUpdateRow[] => {
      const rows = due.all({ now, limit }).map(map);
      for (const row of rows) lease.run({ customerId: row.customerId, leaseUntil });
      return rows.map((row) => ({ ...row, leaseUntil }));
    }).immediate,
    /** Deletes the row unless a newer change arrived meanwhile; then it only drops the lease. */
    complete: db.transaction((customerId: string, generation: number, now: number): 'done' | 'requeued' => {
      if (complete.run({ customerId, generation }).changes > 0) return 'done';
      release.run({ customerId, now });
      return 'requeued';
    }).immediate,
    releaseLease(customerId: string, now: number) {
      release.run({ customerId, now });
    },
    fail(customerId: string, nextAttemptAt: number | null, error: string, now: number) {
      fail.run({ customerId, nextAttemptAt, error: error.slice(0, 500), now });
    },
    /** Rows still to send, due now or waiting for a retry (given-up rows rest with no due time). */
    pendingCount: () => pendingCount.get()!.n,
    find(customerId: string): PassUpdateRow | undefined {
      const row = byCustomer.get(customerId);
      return row && map(row);
    },
    remove(customerId: string) {
      remove.run(customerId);
    },
    /** Whether an Apple device registered the pass, and whether a Google object was handed out for it. */
    receivers(customerId: string): { apple: boolean; google: boolean } {
      const row = receivers.get(customerId, customerId)!;
      return { apple: row.apple === 1, google: row.google === 1 };
    },
  };
}

export const passUpdatesRepo = perConnection(createPassUpdatesRepo);
