import { inTransaction } from '../db/transaction';
import { cardsRepo } from '../cards/repo';
import type { Config } from '../config';
import { customersRepo } from '../customers/repo';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import { orgsRepo } from '../orgs/repo';
import { testEmail, type MailMessage } from './card-email';
import { customerEmail } from './notices';
import { mailRepo, type MailSend } from './repo';
import { smtpTransport, SMTP_TIMEOUTS, type MailTransport } from './transport';

// Sends the mail queue, as the webhook worker sends deliveries (webhooks/worker.ts): rows written
// in the request's transaction, woken after the commit, swept by a job; each send claimed with a
// lease, its outcome written back to its row; a failure waits for its retry as a row, so a
// restart forgets nothing and the fake clock moves the schedule in tests. A request never waits
// for the mail server: it only writes the row.

export interface MailWorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
}

/** Waits before attempts 2, 3 and 4; after the fourth failure the email is given up. */
export const MAIL_RETRY_DELAYS_MS = [60_000, 10 * 60_000, 60 * 60_000] as const;
/** Emails in flight at once: a batch goes out steadily without opening many connections to one server. */
const IN_FLIGHT = 2;
/** An attempt ends within its timeouts; a lease past them can only belong to a worker that died. */
const LEASE_MS = SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout * 2;

/** When attempt `attempts + 1` is due after a failure at `failedAt`; null when none is left. */
export function nextMailAttemptAt(attempts: number, failedAt: number): number | null {
  const wait = MAIL_RETRY_DELAYS_MS[attempts - 1];
  return wait === undefined ? null : failedAt + wait;
}

export interface MailWorker {
  /** Rows were committed: send what is due now (coalesced). */
  wake(): void;
  /** Claims what is due and starts sending it; returns how many started. */
  sweep(): number;
  /** Resolves once nothing is in flight and no wake-up is pending. */
  idle(): Promise<void>;
  /** Stops taking work; attempts in flight get `graceMs`, then are cut off (their lease lets the next start send them). */
  stop(graceMs?: number): Promise<void>;
}

/** A refusal the server means for good (5xx: no such mailbox, relaying denied): retrying cannot help. */
const permanent = (err: unknown) => {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};
/** For the log: the reason without any address it quotes (the row keeps it until an erasure). */
const withoutAddresses = (text: string) => text.replace(/[^\s<>"'@]+@[^\s<>"']+/g, '<address>');

export function createMailWorker(deps: MailWorkerDeps, options: { transport?: MailTransport } = {}): MailWorker {
  const settings = deps.config.mail;
  if (!settings) {
    // Mail is off: nothing is ever queued (the services refuse first), so there is nothing to send.
    return { wake() {}, sweep: () => 0, idle: async () => {}, stop: async () => {} };
  }
  const transport = options.transport ?? smtpTransport(settings);
  const repo = mailRepo(deps.db);
  const inFlight = new Map<string, Promise<void>>();
  let wakeup = false;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];
  const shutdown = new AbortController();

  function notifyIfIdle() {
    if (inFlight.size > 0 || wakeup) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function sweep(): number {
    if (stopped || inFlight.size >= IN_FLIGHT) return 0;
    let claimed: MailSend[] = [];
    try {
      claimed = inTransaction(deps.db, () => {
        const now = deps.clock.now();
        const rows = repo.due(now, IN_FLIGHT - inFlight.size, [...inFlight.keys()]);
        for (const row of rows) repo.lease(row.id, now + LEASE_MS);
        return rows;
      });
    } catch (err) {
      deps.log.error('mail sweep failed', { err });
    }
    for (const row of claimed) {
      const attempt = send(row).finally(() => {
        inFlight.delete(row.id);
        // A slot is free: the next due email takes it.
        if (!stopped) sweep();
        notifyIfIdle();
      });
      inFlight.set(row.id, attempt);
    }
    return claimed.length;
  }

  /** What the row asks to send as it is now; a string when there is nothing to send any more. */
  async function message(row: MailSend): Promise<MailMessage | string> {
    if (!row.recipient) return 'not sent: the address was removed';
    if (row.kind === 'test') return testEmail(orgsRepo(deps.db).findOrg(row.orgId)?.name ?? 'your shop', row.recipient);
    const customer = row.customerId ? customersRepo(deps.db).findByPassUserId(row.customerId) : undefined;
    const card = customer && cardsRepo(deps.db).findById(customer.cardId);
    if (!customer || customer.erasedAt !== null || !card) return 'not sent: the customer was deleted';
    return customerEmail(deps, row.kind, customer, card, row.recipient);
  }

  async function send(row: MailSend): Promise<void> {
    const number = row.attempts + 1;
    let error: string | null = null;
    let final = false;
    try {
      const built = await message(row);
      if (typeof built === 'string') {
        error = built;
        final = true;
      } else {
        await transport.send(built, shutdown.signal);
      }
    } catch (err) {
      error = ((err as Error).message || String(err)).slice(0, 500);
      final = permanent(err);
    }
    if (stopped) return; // the lease lets the next start send it again
    const now = deps.clock.now();
    const next = error === null || final ? null : nextMailAttemptAt(number, now);
    const status = error === null ? 'sent' : next === null ? 'failed' : 'pending';
    try {
      inTransaction(deps.db, () => repo.finish({ id: row.id, status, nextAttemptAt: next, error, now }));
    } catch (err) {
      deps.log.error('mail attempt could not be recorded', { mailId: row.id, err });
      return;
    }
    const fields = { mailId: row.id, kind: row.kind, customerId: row.customerId, attempt: number, status };
    if (error === null) deps.log.info('mail sent', fields);
    else deps.log.warn('mail attempt failed', { ...fields, error: withoutAddresses(error), retryAt: next === null ? null : new Date(next).toISOString() });
  }

  return {
    wake() {
      if (stopped || wakeup) return;
      wakeup = true;
      queueMicrotask(() => {
        wakeup = false;
        sweep();
        notifyIfIdle();
      });
    },
    sweep,
    async idle() {
      await Promise.resolve();
      if (inFlight.size === 0 && !wakeup) return;
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    async stop(graceMs = 5_000) {
      stopped = true;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...inFlight.values()]), late]);
      clearTimeout(timer);
      shutdown.abort();
      await Promise.allSettled([...inFlight.values()]);
      transport.close();
      notifyIfIdle();
    },
  };
}
