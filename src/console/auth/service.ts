import { inTransaction } from '../../db/transaction';
import type { Db } from '../../db/connection';
import { clientAddressKey } from '../../lib/client-address';
import type { Clock } from '../../lib/clock';
import type { oneAtATime } from '../../lib/one-at-a-time';
import { hashPassword, needsRehash, verifyDecoy, verifyPassword } from '../../lib/password';
import { adminEmailKey, findAdminByEmail, setAdminPasswordHash, type AdminRow } from '../../orgs/service';
import { endOtherAdminSessions } from '../../web/sessions';
import { attemptsCounted, clearFailures, refundAttempt, reserveAttempt, type ThrottlePolicy } from '../../web/throttle';

// Console sign-in (decisions §8): email and password, failures rate limited per client address and
// per account. Every answer to a failed attempt is the same whether the email exists or not, and
// an unknown email costs the same scrypt as a wrong password.
//
// An attempt is counted before its password is hashed (reserveAttempt), so attempts sent side by
// side cannot all slip under the limit: the one past it is refused at once, with no hash.
//
// The sign-in hashes run one at a time (the route's oneAtATime queue), those of addresses with
// fewer attempts in their window first. One scrypt takes 128 MiB and most of a core: two at once
// each take about twice as long, so running a flood's hashes beside the owner's, or queueing the
// owner's behind them on libuv's four threads, slows the owner by seconds. In turn, the owner's
// sign-in waits for at most the one hash already running.

export interface AuthDeps {
  db: Db;
  clock: Clock;
}

const MINUTE = 60_000;
/** Five wrong passwords for one account in 15 minutes lock it for 15 minutes. */
export const ACCOUNT_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** One address may fail 20 times in 15 minutes across accounts (one shop's staff share an address). */
export const ADDRESS_POLICY: ThrottlePolicy = { maxFailures: 20, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };

const accountBucket = (email: string) => `signin-account:${email}`;
const addressBucket = (ip: string) => `signin-address:${clientAddressKey(ip)}`;

function attemptBuckets(ip: string, email: string) {
  return [
    { bucket: addressBucket(ip), policy: ADDRESS_POLICY },
    { bucket: accountBucket(email), policy: ACCOUNT_POLICY },
  ];
}

/** The attempt was right after all: the account's count starts again, the address gets its attempt back. */
function forgiveAttempt(deps: AuthDeps, ip: string, email: string): void {
  inTransaction(deps.db, () => {
    clearFailures(deps, [accountBucket(email)]);
    refundAttempt(deps, [addressBucket(ip)]);
  });
}

export type SignInOutcome = { ok: true; admin: AdminRow } | { ok: false; lockedSeconds: number };

/** The server's sign-in password checks, one at a time (route-owned, one per server). */
export type PasswordChecks = ReturnType<typeof oneAtATime>;

export async function signIn(deps: AuthDeps, input: { email: string; password: string; ip: string }, checks: PasswordChecks): Promise<SignInOutcome> {
  const email = adminEmailKey(input.email);
  // The address's attempts before this one: a flooding address's checks wait behind everyone else's.
  const rank = attemptsCounted(deps, addressBucket(input.ip), ADDRESS_POLICY);
  // A refused attempt is not even checked: no answer may tell a right password from a wrong one then.
  const locked = reserveAttempt(deps, attemptBuckets(input.ip, email));
  if (locked > 0) return { ok: false, lockedSeconds: locked };

  const admin = email ? findAdminByEmail(deps, email) : undefined;
  const valid = await checks(rank, () => (admin ? verifyPassword(input.password, admin.passwordHash) : verifyDecoy(input.password)));
  if (!admin || !valid) return { ok: false, lockedSeconds: 0 };
  forgiveAttempt(deps, input.ip, email);
  if (needsRehash(admin.passwordHash)) await setPassword(deps, admin.id, input.password);
  return { ok: true, admin };
}

async function setPassword(deps: AuthDeps, adminId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  inTransaction(deps.db, () => setAdminPasswordHash(deps, adminId, hash));
}

/**
 * The signed-in admin's own password, asked before a change to their login (the email), throttled
 * like a sign-in so a borrowed session cannot guess it. Null when right, else the field's message.
 */
export async function checkOwnPassword(deps: AuthDeps, input: { admin: AdminRow; password: string; ip: string }): Promise<string | null> {
  const locked = reserveAttempt(deps, attemptBuckets(input.ip, input.admin.email));
  if (locked > 0) return `Too many wrong passwords. Try again in ${Math.ceil(locked / 60)} minutes.`;
  if (!(await verifyPassword(input.password, input.admin.passwordHash))) return 'This is not your password.';
  forgiveAttempt(deps, input.ip, input.admin.email);
  return null;
}

export type PasswordChangeOutcome = { ok: true } | { ok: false; field: 'current'; message: string };

/**
 * Changes a signed-in admin's password after checking the current one (throttled like a sign-in,
 * so a borrowed session cannot guess it), and signs every other browser of this admin out.
 */
export async function changePassword(
  deps: AuthDeps,
  input: { admin: AdminRow; sessionId: string; current: string; next: string; ip: string },
): Promise<PasswordChangeOutcome> {
  const locked = reserveAttempt(deps, attemptBuckets(input.ip, input.admin.email));
  if (locked > 0) return { ok: false, field: 'current', message: `Too many wrong passwords. Try again in ${Math.ceil(locked / 60)} minutes.` };
  if (!(await verifyPassword(input.current, input.admin.passwordHash))) return { ok: false, field: 'current', message: 'This is not your current password.' };
  forgiveAttempt(deps, input.ip, input.admin.email);
  const hash = await hashPassword(input.next);
  inTransaction(deps.db, () => {
    setAdminPasswordHash(deps, input.admin.id, hash);
    endOtherAdminSessions(deps, input.admin.id, input.sessionId);
  });
  return { ok: true };
}
