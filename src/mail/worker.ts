import { cardsRepo } from '../cards/repo';
import type { Config } from '../config';
import { customersRepo } from '../customers/repo';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import { orgsRepo } from '../orgs/repo';
import { createRowQueue } from '../queue/row-queue';
import { nextAttemptAt, type ListedPolicy } from '../queue/retry';
import { testEmail, type MailMessage } from './card-email';
import { customerEmail } from './notices';
import { mailRepo, type MailSend } from './repo';
import { smtpTransport, SMTP_TIMEOUTS, type MailTransport } from './transport';

// Sends the mail queue through the row queue (queue/row-queue.ts), as webhooks are sent: rows
// written in the request's transaction, woken after the commit, swept by a job; each send claimed
// with a lease, its outcome written back to its row; a failure waits for its retry as a row, so a
// restart forgets nothing and the fake clock moves the schedule in tests. A request never waits
// for the mail server: it only writes the row. A send the server accepted is recorded even while
// the server shuts down, so a restart never sends it again.

export interface MailWorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
}

/** Waits before attempts 2, 3 and 4; after the fourth failure the email is given up. */
export const MAIL_RETRY_DELAYS_MS = [60_000, 10 * 60_000, 60 * 60_000] as const;
const MAIL_RETRY: ListedPolicy = { delaysMs: MAIL_RETRY_DELAYS_MS };
/** Emails in flight at once: a batch goes out steadily without opening many connections to one server. */
const IN_FLIGHT = 2;
/** An attempt ends within its timeouts; a lease past them can only belong to a worker that died. */
const LEASE_MS = SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout * 2;

export interface MailWorker {
  /** Rows were committed: send what is due now (coalesced). */
  wake(): void;
  /** Claims what is due and starts sending it; returns how many started. */
  sweep(): number;
  /** Resolves once nothing is in flight and no wake-up is pending. */
  idle(): Promise<void>;
  /** Stops taking work; sends in flight get `graceMs`, then are cut off; every outcome is recorded. */
  stop(graceMs?: number): Promise<void>;
}

/** Emails not yet sent nor given up (due now, throttled for later, or waiting for a retry): /healthz's mailBacklog. */
export function mailBacklog(db: Db): number {
  return mailRepo(db).pendingCount();
}

/** A refusal the server means for good (5xx: no such mailbox, relaying denied): retrying cannot help. */
const permanent = (err: unknown) => {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};
/** For the log: the reason without any address it quotes (the row keeps it until an erasure). */
const withoutAddresses = (text: string) => text.replace(/[^\s<>"'@]+@[^\s<>"']+/g, '<address>');

/** Nothing to send any more (the address or the customer is gone): a reason, final. */
class NotSent extends Error {}

export function createMailWorker(deps: MailWorkerDeps, options: { transport?: MailTransport } = {}): MailWorker {
  const settings = deps.config.mail;
  if (!settings) {
    // Mail is off: nothing is ever queued (the services refuse first), so there is nothing to send.
    return { wake() {}, sweep: () => 0, idle: async () => {}, stop: async () => {} };
  }
  const transport = options.transport ?? smtpTransport(settings);
  const repo = mailRepo(deps.db);

  /** What the row asks to send as it is now. */
  async function message(row: MailSend): Promise<MailMessage> {
    if (!row.recipient) throw new NotSent('not sent: the address was removed');
    if (row.kind === 'test') return testEmail(orgsRepo(deps.db).findOrg(row.orgId)?.name ?? 'your shop', row.recipient);
    const customer = row.customerId ? customersRepo(deps.db).findByPassUserId(row.customerId) : undefined;
    const card = customer && cardsRepo(deps.db).findById(customer.cardId);
    if (!customer || customer.erasedAt !== null || !card) throw new NotSent('not sent: the customer was deleted');
    const built = await customerEmail(deps, row.kind, customer, card, row.recipient);
    if (typeof built === 'string') throw new NotSent(built);
    return built;
  }

  const queue = createRowQueue<MailSend, void>(deps, {
    name: 'mail',
    concurrency: IN_FLIGHT,
    leaseMs: LEASE_MS,
    key: (row) => row.id,
    claim: ({ now, leaseUntil, limit, working }) => {
      const rows = repo.due(now, limit, working.map((r) => r.id));
      for (const row of rows) repo.lease(row.id, leaseUntil);
      return rows;
    },
    work: async (row, signal) => transport.send(await message(row), signal),
    record(row, outcome, now) {
      const number = row.attempts + 1;
      const reason = outcome.status === 'rejected' ? outcome.reason : null;
      const error = reason === null ? null : ((reason as Error).message || String(reason)).slice(0, 500);
      const next = reason === null || reason instanceof NotSent || permanent(reason) ? null : nextAttemptAt(MAIL_RETRY, number, now);
      const status = error === null ? 'sent' : next === null ? 'failed' : 'pending';
      repo.finish({ id: row.id, status, nextAttemptAt: next, error, now });
      const fields = { mailId: row.id, kind: row.kind, customerId: row.customerId, attempt: number, status };
      if (error === null) deps.log.info('mail sent', fields);
      else deps.log.warn('mail attempt failed', { ...fields, error: withoutAddresses(error), retryAt: next === null ? null : new Date(next).toISOString() });
    },
    backlog: () => mailBacklog(deps.db),
    close: () => transport.close(),
  });

  return { wake: queue.wake, sweep: queue.sweep, idle: queue.idle, stop: queue.stop };
}
