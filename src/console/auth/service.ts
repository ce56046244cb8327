import { inTransaction } from '../../db/transaction';
import type { Db } from '../../db/connection';
import type { Clock } from '../../lib/clock';
import { hashPassword, needsRehash, verifyDecoy, verifyPassword } from '../../lib/password';
import { orgsRepo, type AdminRow } from '../../orgs/repo';
import { adminEmailKey } from '../../orgs/service';
import { endOtherAdminSessions } from '../../web/sessions';
import { clearFailures, lockedForSeconds, recordFailure, type ThrottlePolicy } from '../../web/throttle';

// Console sign-in (decisions §8): email and password, failures rate limited per client address and
// per account. Every answer to a failed attempt is the same whether the email exists or not, and
// an unknown email costs the same scrypt as a wrong password.

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
const addressBucket = (ip: string) => `signin-address:${ip}`;


export type SignInOutcome = { ok: true; admin: AdminRow } | { ok: false; lockedSeconds: number };

export async function signIn(deps: AuthDeps, input: { email: string; password: string; ip: string }): Promise<SignInOutcome> {
  const email = adminEmailKey(input.email);
  const buckets = [addressBucket(input.ip), accountBucket(email)];
  const locked = lockedForSeconds(deps, buckets);
  // A locked account is not even checked: no answer may tell a right password from a wrong one then.
  if (locked > 0) return { ok: false, lockedSeconds: locked };

  const admin = email ? orgsRepo(deps.db).findAdminByEmail(email) : undefined;
  const valid = admin ? await verifyPassword(input.password, admin.passwordHash) : await verifyDecoy(input.password);
  if (!admin || !valid) {
    const lockedSeconds = recordFailure(deps, [
      { bucket: addressBucket(input.ip), policy: ADDRESS_POLICY },
      { bucket: accountBucket(email), policy: ACCOUNT_POLICY },
    ]);
    return { ok: false, lockedSeconds };
  }
  clearFailures(deps, [accountBucket(email)]);
  if (needsRehash(admin.passwordHash)) await setPassword(deps, admin.id, input.password);
  return { ok: true, admin };
}

async function setPassword(deps: AuthDeps, adminId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  inTransaction(deps.db, () => orgsRepo(deps.db).setAdminPassword(adminId, hash));
}

/**
 * The signed-in admin's own password, asked before a change to their login (the email), throttled
 * like a sign-in so a borrowed session cannot guess it. Null when right, else the field's message.
 */
export async function checkOwnPassword(deps: AuthDeps, input: { admin: AdminRow; password: string; ip: string }): Promise<string | null> {
  const buckets = [addressBucket(input.ip), accountBucket(input.admin.email)];
  const locked = lockedForSeconds(deps, buckets);
  if (locked > 0) return `Too many wrong passwords. Try again in ${Math.ceil(locked / 60)} minutes.`;
  if (await verifyPassword(input.password, input.admin.passwordHash)) return null;
  recordFailure(deps, [
    { bucket: addressBucket(input.ip), policy: ADDRESS_POLICY },
    { bucket: accountBucket(input.admin.email), policy: ACCOUNT_POLICY },
  ]);
  return 'This is not your password.';
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
  const buckets = [addressBucket(input.ip), accountBucket(input.admin.email)];
  const locked = lockedForSeconds(deps, buckets);
  if (locked > 0) return { ok: false, field: 'current', message: `Too many wrong passwords. Try again in ${Math.ceil(locked / 60)} minutes.` };
  if (!(await verifyPassword(input.current, input.admin.passwordHash))) {
    recordFailure(deps, [
      { bucket: addressBucket(input.ip), policy: ADDRESS_POLICY },
      { bucket: accountBucket(input.admin.email), policy: ACCOUNT_POLICY },
    ]);
    return { ok: false, field: 'current', message: 'This is not your current password.' };
  }
  const hash = await hashPassword(input.next);
  inTransaction(deps.db, () => {
    orgsRepo(deps.db).setAdminPassword(input.admin.id, hash);
    endOtherAdminSessions(deps, input.admin.id, input.sessionId);
  });
  return { ok: true };
}
