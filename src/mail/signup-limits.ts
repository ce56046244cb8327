import type { Namespace } from '../customers/model';
import type { Db } from '../db/connection';
import { clientAddressKey } from '../lib/client-address';
import { addDays, localDate } from '../lib/days';
import { normalizeEmail } from '../lib/contact';
import { sha256Hex } from '../lib/secrets';
import { readOrgSettings } from '../orgs/settings';
import type { Quota, ThrottleDeps } from '../web/throttle';
import { mailHoldsRepo, type HoldReason } from './holds-repo';

// The sign-up pages' "Email me my card" is open to anyone: a stranger can sign up with someone
// else's address and have the shop's email sent there. So the card emails asked for there are
// limited per recipient (one a day, whichever shop or card asked: a mailbox is not flooded) and per
// client address (twenty an hour: one sender does not reach thousands). A held-back email is
// counted for the console; the customer still has their card on the screen.

const HOUR = 3_600_000;
/** One sign-up email a day to the same mailbox. */
export const SIGNUP_MAIL_PER_RECIPIENT: Quota = { limit: 1, windowMs: 24 * HOUR };
/** Twenty sign-up emails an hour from the same client address. */
export const SIGNUP_MAIL_PER_CLIENT: Quota = { limit: 20, windowMs: HOUR };
/** How long the console's counts of held-back emails are kept. */
const KEEP_DAYS = 90;

/**
 * The mailbox an address reaches, as far as it is known for every provider: the normal form
 * (lower-cased, ASCII domain) without a `+tag`, which most providers deliver to the same inbox.
 */
export function mailboxKey(email: string): string {
  const normal = normalizeEmail(email) ?? email.trim().toLowerCase();
  const at = normal.lastIndexOf('@');
  const local = normal.slice(0, at);
  const plus = local.indexOf('+');
  return plus > 0 ? `${local.slice(0, plus)}${normal.slice(at)}` : normal;
}

const RECIPIENT_PREFIX = 'signup-mail-to:';
const CLIENT_PREFIX = 'signup-mail-from:';

/** The quotas one sign-up email takes from, recipient first. The address is kept only as a hash. */
export function signupMailQuotas(to: string, clientAddress: string): { bucket: string; quota: Quota }[] {
  return [
    { bucket: `${RECIPIENT_PREFIX}${sha256Hex(mailboxKey(to))}`, quota: SIGNUP_MAIL_PER_RECIPIENT },
    { bucket: `${CLIENT_PREFIX}${clientAddressKey(clientAddress)}`, quota: SIGNUP_MAIL_PER_CLIENT },
  ];
}

export const holdReasonOf = (bucket: string): HoldReason => (bucket.startsWith(RECIPIENT_PREFIX) ? 'recipient' : 'client');

/** Counts one held-back email for the org's console, on the shop's day (in the caller's transaction). */
export function recordHold(deps: ThrottleDeps, n: Namespace, reason: HoldReason): void {
  const zone = readOrgSettings(deps.db, n.orgId).timeZone;
  const day = localDate(deps.clock.now(), zone);
  mailHoldsRepo(deps.db).add({ orgId: n.orgId, livemode: n.livemode, day, reason, forgetBefore: addDays(day, -KEEP_DAYS) });
}

export interface HeldBack {
  today: Record<HoldReason, number>;
  /** Today and the six days before it. */
  lastSevenDays: number;
}

/** What the console shows: the sign-up emails held back today (per limit) and in the last seven days. */
export function heldBack(deps: { db: Db; clock: ThrottleDeps['clock'] }, n: Namespace): HeldBack {
  const today = localDate(deps.clock.now(), readOrgSettings(deps.db, n.orgId).timeZone);
  const result: HeldBack = { today: { recipient: 0, client: 0 }, lastSevenDays: 0 };
  for (const row of mailHoldsRepo(deps.db).since(n.orgId, n.livemode, addDays(today, -6))) {
    result.lastSevenDays += row.held;
    if (row.day === today) result.today[row.reason] += row.held;
  }
  return result;
}
