import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// The mail queue (migration 19): one row per email, claimed with a lease by the worker, each
// attempt's outcome written back to it. The rows are the queue, the log and the retry schedule.

/** `expiry_reminder` and `birthday` are the sweeps' emails (mail/notices.ts). */
export type MailKind = 'card' | 'test' | 'expiry_reminder' | 'birthday';
export type MailStatus = 'pending' | 'sent' | 'failed';
/** Who asked: the customer on the page after sign-up, the console, the counter, an import's report; `sweep`: the expiry and birthday sweeps. */
export type MailVia = 'signup' | 'console' | 'scan' | 'import' | 'sweep';

export interface MailSend {
  id: string;
  orgId: string;
  livemode: boolean;
  customerId: string | null;
  kind: MailKind;
  via: MailVia;
  recipient: string | null;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: number | null;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: string;
  org_id: string;
  livemode: number;
  customer_id: string | null;
  kind: MailKind;
  requested_via: MailVia;
  recipient: string | null;
  status: MailStatus;
  attempts: number;
  next_attempt_at: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

const map = (r: Row): MailSend => ({
  id: r.id,
  orgId: r.org_id,
  livemode: r.livemode === 1,
  customerId: r.customer_id,
  kind: r.kind,
  via: r.requested_via,
  recipient: r.recipient,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function createMailRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO mail_sends (id, org_id, livemode, customer_id, kind, requested_via, recipient, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES (@id, @orgId, @livemode, @customerId, @kind, @via, @recipient, 'pending', 0, @dueAt, @now, @now)`,
  );
  // Due and not held by a live lease (an expired one is a crashed worker's), oldest due first.
  const due = db.prepare<{ now: number; limit: number; exclude: string }, Row>(
    `SELECT * FROM mail_sends INDEXED BY mail_sends_due
     WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
       AND id NOT IN (SELECT value FROM json_each(@exclude))
     ORDER BY next_attempt_at, rowid LIMIT @limit`,
  );
  const lease = db.prepare('UPDATE mail_sends SET lease_until = @leaseUntil WHERE id = @id');
  const finish = db.prepare(
    `UPDATE mail_sends SET status = @status, attempts = attempts + 1, next_attempt_at = @nextAttemptAt, lease_until = NULL, error = @error, updated_at = @now
     WHERE id = @id AND status = 'pending'`,
  );
  // Through mail_sends_due (WHERE pending): the count reads the waiting rows only.
  const pendingCount = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM mail_sends WHERE status = 'pending'");
  const ofCustomer = db.prepare<{ customerId: string; limit: number }, Row>('SELECT * FROM mail_sends WHERE customer_id = @customerId ORDER BY created_at DESC, rowid DESC LIMIT @limit');
  const recentOfKind = db.prepare<{ orgId: string; livemode: number; kind: MailKind; limit: number }, Row>(
    'SELECT * FROM mail_sends WHERE org_id = @orgId AND livemode = @livemode AND kind = @kind ORDER BY created_at DESC, rowid DESC LIMIT @limit',
  );
  const hasCard = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM mail_sends WHERE customer_id = ? AND kind = 'card' AND status != 'failed'");
  const lastScheduled = db.prepare<{ orgId: string; livemode: number }, { at: number | null }>(
    "SELECT max(next_attempt_at) AS at FROM mail_sends WHERE org_id = @orgId AND livemode = @livemode AND status = 'pending' AND requested_via = 'import'",
  );

  return {
    insert(row: { id: string; orgId: string; livemode: boolean; customerId: string | null; kind: MailKind; via: MailVia; recipient: string; dueAt: number; now: number }) {
      insert.run({ ...row, livemode: row.livemode ? 1 : 0 });
    },
    due: (now: number, limit: number, exclude: string[]) => due.all({ now, limit, exclude: JSON.stringify(exclude) }).map(map),
    lease: (id: string, leaseUntil: number) => lease.run({ id, leaseUntil }),
    /** The attempt's outcome: sent, failed for good, or pending again with its next due time. */
    finish: (row: { id: string; status: MailStatus; nextAttemptAt: number | null; error: string | null; now: number }) => finish.run(row).changes === 1,
    /** Emails still to send: due now, throttled for later, or waiting for a retry. */
    pendingCount: () => pendingCount.get()!.n,
    ofCustomer: (customerId: string, limit = 20) => ofCustomer.all({ customerId, limit }).map(map),
    recent: (orgId: string, livemode: boolean, kind: MailKind, limit = 5) => recentOfKind.all({ orgId, livemode: livemode ? 1 : 0, kind, limit }).map(map),
    /** Whether the customer's card was sent, or is on its way. */
    hasCard: (customerId: string) => hasCard.get(customerId)!.n > 0,
    /** When the namespace's last queued import email is due: a new batch follows it. */
    lastImportDue: (orgId: string, livemode: boolean) => lastScheduled.get({ orgId, livemode: livemode ? 1 : 0 })!.at,
  };
}

export const mailRepo = perConnection(createMailRepo);
