import { wakeAfterCommit } from '../db/after-commit';
import { inTransaction } from '../db/transaction';
import { mailServerLabel, type Config } from '../config';
import type { Customer, Namespace } from '../customers/model';
import { customersRepo } from '../customers/repo';
import type { Db } from '../db/connection';
import type { WriteDeps } from '../deps';
import { isEmail } from '../lib/contact';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { takeQuota } from '../web/throttle';
import type { HoldReason } from './holds-repo';
import { mailRepo, type MailKind, type MailSend, type MailVia } from './repo';
import { holdReasonOf, recordHold, signupMailQuotas } from './signup-limits';
import { unsubscribedAt } from './unsubscribe';

// Transactional mail only: a customer's own card, on request (from the sign-up
// pages within the abuse limits of signup-limits.ts), and the console's test email. Each function writes rows in its caller's transaction (or one of its own) and wakes
// the worker after the commit; nothing here talks to the mail server. Without SMTP_URL and
// MAIL_FROM every feature shows as off, and these refuse with MAIL_OFF rather than fail.

export type MailDeps = WriteDeps & { config: Readonly<Pick<Config, 'mail'>> };
export type { MailSend } from './repo';

/** The last emails sent (or queued) to the customer, newest first, with their outcome. */
export function customerEmails(deps: { db: Db }, customerId: string): MailSend[] {
  return mailRepo(deps.db).ofCustomer(customerId);
}

/** The namespace's last test emails, newest first, with their outcome. */
export function recentTestEmails(deps: { db: Db }, n: Namespace): MailSend[] {
  return mailRepo(deps.db).recent(n.orgId, n.livemode, 'test');
}

/** Import batches go out at this pace, so a shop's mail provider never sees a burst of hundreds. */
export const IMPORT_EMAILS_PER_MINUTE = 30;

/** Mail is set up, as the console shows it: the server, the sender and whether TLS is required, never the password. */
export function mailSetup(config: Readonly<Pick<Config, 'mail'>>): { server: string; from: string; tls: 'required' | 'off' } | null {
  return config.mail ? { server: mailServerLabel(config.mail.smtpUrl), from: config.mail.from, tls: config.mail.tlsRequired ? 'required' : 'off' } : null;
}

/** What `?tls=off` allows, in the start-up log and on Settings → Email. */
export const MAIL_TLS_OFF_WARNING =
  'SMTP_URL says ?tls=off: when the mail server offers no encryption, its password and every email (customers\' addresses and card links) travel unencrypted';

function assertOn(config: Readonly<Pick<Config, 'mail'>>): void {
  if (!config.mail) throw new ApiError(409, 'MAIL_OFF', { detail: 'email is not set up on this server: the operator sets SMTP_URL and MAIL_FROM (README, "Email")' });
}

function queue(deps: MailDeps, row: { orgId: string; livemode: boolean; customerId: string | null; kind: MailKind; via: MailVia; recipient: string; dueAt: number }): string {
  const id = newId('ml');
  mailRepo(deps.db).insert({ id, ...row, now: deps.clock.now() });
  wakeAfterCommit(deps.db, 'mail', () => deps.afterCommit.mailQueued());
  return id;
}

/** Why a customer cannot be sent their card; null when they can. */
export function cardEmailBlocker(customer: Pick<Customer, 'email' | 'erasedAt'>): string | null {
  if (customer.erasedAt !== null) return 'the customer was deleted';
  if (!customer.email || !isEmail(customer.email)) return 'there is no email address for this customer';
  return null;
}

/** Queues the customer's card to their address, asked for by the shop's own staff (the console, the counter). */
export function queueCardEmail(deps: MailDeps, customer: Customer, via: 'console' | 'scan'): { id: string; to: string } {
  assertOn(deps.config);
  return inTransaction(deps.db, () => {
    const blocker = cardEmailBlocker(customer);
    if (blocker) throw new ApiError(400, 'NO_EMAIL_ADDRESS', { detail: blocker });
    const to = customer.email!;
    return { id: queue(deps, { orgId: customer.orgId, livemode: customer.livemode, customerId: customer.id, kind: 'card', via, recipient: to, dueAt: deps.clock.now() }), to };
  });
}

export type SignupEmailOutcome = { queued: true; id: string; to: string } | { queued: false; reason: HoldReason };

/**
 * Queues the customer's card from the sign-up pages, where anyone may ask: within the limits per
 * recipient and per client address (signup-limits.ts), or held back and counted for the console.
 * Either way the caller still shows the card on the screen.
 */
export function queueSignupCardEmail(deps: MailDeps, customer: Customer, clientAddress: string): SignupEmailOutcome {
  assertOn(deps.config);
  return inTransaction(deps.db, () => {
    const blocker = cardEmailBlocker(customer);
    if (blocker) throw new ApiError(400, 'NO_EMAIL_ADDRESS', { detail: blocker });
    const to = customer.email!;
    const refused = takeQuota(deps, signupMailQuotas(to, clientAddress));
    if (refused) {
      const reason = holdReasonOf(refused.bucket);
      recordHold(deps, { orgId: customer.orgId, livemode: customer.livemode }, reason);
      return { queued: false, reason };
    }
    return { queued: true, id: queue(deps, { orgId: customer.orgId, livemode: customer.livemode, customerId: customer.id, kind: 'card', via: 'signup', recipient: to, dueAt: deps.clock.now() }), to };
  });
}

export interface BatchResult {
  /** Mail is not set up: nothing was queued. */
  off: boolean;
  queued: number;
  /** No usable address, or erased. */
  skippedNoEmail: number;
  /** Already sent (or on its way), and `resend` was not asked for. */
  skippedAlreadySent: number;
  /** Not a customer (of the namespace, when one is given). */
  notFound: number;
  /** When the last of the batch is due to go out. */
  lastDueAt: number | null;
}

/** Customers handled per transaction: a few milliseconds of the write lock and of the event loop each. */
const CHUNK = 200;

/**
 * Every customer of `customerIds` their card (an import's "Email every imported customer their
 * card"): customers without an address are skipped, and so is anyone whose card was sent already
 * (or is queued), unless `resend`. The batch is throttled as rows: IMPORT_EMAILS_PER_MINUTE are due
 * per minute, after any import batch still queued, so the worker sends it steadily and a restart
 * keeps the schedule. Works in chunks of transactions, yielding to requests in between.
 */
export async function queueCardEmails(deps: MailDeps, customerIds: readonly string[], options: { resend?: boolean; namespace?: Namespace } = {}): Promise<BatchResult> {
  const result: BatchResult = { off: !deps.config.mail, queued: 0, skippedNoEmail: 0, skippedAlreadySent: 0, notFound: 0, lastDueAt: null };
  if (result.off) return result;
  const customers = customersRepo(deps.db);
  const repo = mailRepo(deps.db);
  const slotOf = new Map<string, number>();
  for (let start = 0; start < customerIds.length; start += CHUNK) {
    inTransaction(deps.db, () => {
      const now = deps.clock.now();
      for (const id of customerIds.slice(start, start + CHUNK)) {
        const customer = customers.findByPassUserId(id);
        if (!customer || customer.erasedAt !== null || (options.namespace && (customer.orgId !== options.namespace.orgId || customer.livemode !== options.namespace.livemode))) {
          result.notFound++;
          continue;
        }
        if (cardEmailBlocker(customer)) {
          result.skippedNoEmail++;
          continue;
        }
        if (!options.resend && repo.hasCard(customer.id)) {
          result.skippedAlreadySent++;
          continue;
        }
        // Each namespace's batch continues after what its earlier batches still have queued.
        const space = `${customer.orgId}/${customer.livemode}`;
        let slot = slotOf.get(space);
        if (slot === undefined) {
          const last = repo.lastImportDue(customer.orgId, customer.livemode);
          slot = last !== null && last >= now ? Math.floor((last - now) / 60_000) * IMPORT_EMAILS_PER_MINUTE + IMPORT_EMAILS_PER_MINUTE : 0;
        }
        const dueAt = now + Math.floor(slot / IMPORT_EMAILS_PER_MINUTE) * 60_000;
        slotOf.set(space, slot + 1);
        queue(deps, { orgId: customer.orgId, livemode: customer.livemode, customerId: customer.id, kind: 'card', via: 'import', recipient: customer.email!, dueAt });
        result.queued++;
        result.lastDueAt = Math.max(result.lastDueAt ?? 0, dueAt);
      }
    });
    if (start + CHUNK < customerIds.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return result;
}

/** The console's "Send a test email" to `to`. */
export function queueTestEmail(deps: MailDeps, n: Namespace, to: string): string {
  assertOn(deps.config);
  if (!isEmail(to)) throw new ApiError(400, 'INVALID_EMAIL', { detail: 'enter an email address such as name@example.com', extra: { field: 'to' } });
  return inTransaction(deps.db, () => queue(deps, { orgId: n.orgId, livemode: n.livemode, customerId: null, kind: 'test', via: 'console', recipient: to.trim(), dueAt: deps.clock.now() }));
}

// --- The sweeps' emails: expiry reminders and birthday greetings ---

/**
 * Queues an expiry reminder or a birthday greeting inside the sweep's transaction, when the
 * customer may be sent one: mail is set up, they have an address, they agreed to the shop keeping
 * their details on the sign-up form (the consent it records), and they did not unsubscribe from
 * these emails (unsubscribe.ts). False when not queued.
 * What the email says is worked out when it is sent (mail/notices.ts), so it is never stale.
 */
export function queueNoticeEmail(deps: MailDeps, customer: Customer, kind: 'expiry_reminder' | 'birthday'): boolean {
  if (!deps.config.mail || customer.consentAt === null || cardEmailBlocker(customer) || unsubscribedAt(deps.db, customer.id) !== undefined) return false;
  queue(deps, { orgId: customer.orgId, livemode: customer.livemode, customerId: customer.id, kind, via: 'sweep', recipient: customer.email!, dueAt: deps.clock.now() });
  return true;
}
