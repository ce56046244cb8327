import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { randomToken } from '../lib/ids';
import { orgsRepo, type OrgRow } from '../orgs/repo';
import { readOrgSettings, type OrgSettings } from '../orgs/settings';
import type { Staff } from '../staff/model';
import { staffRepo } from '../staff/repo';
import { staffByPin } from '../staff/service';
import { clearCookie, readCookie, setCookie } from '../web/cookies';
import { checkOrigin, checkToken } from '../web/csrf';
import { createSession, endSession, findSession, type SessionPolicy } from '../web/sessions';
import type { SessionRow } from '../web/sessions-repo';
import { clearFailures, lockedForSeconds, recordFailure, waitText, type ThrottlePolicy } from '../web/throttle';
import { throttleRepo } from '../web/throttle-repo';

// Who is at the counter (decisions §8): a staff member unlocks it with their PIN, and the session
// locks again after the owner's idle time (org setting counter.lockAfterMinutes) or after a
// shift (12 h). Wrong PINs are counted per device (a random id in its own long-lived cookie) and
// per org: one device that guesses is stopped first; many devices guessing together (or one that
// drops its cookie) meet the org's limit.

const MINUTE = 60_000;
export const COUNTER_COOKIE = 'wl_counter';
export const DEVICE_COOKIE = 'wl_device';
/** Cookies of every counter page and its requests (and the service worker's scope). */
export const COUNTER_PATH = '/counter';
/** However busy, a counter session ends after a long shift. */
export const COUNTER_SHIFT_MS = 12 * 60 * MINUTE;
const DEVICE_COOKIE_SECONDS = 5 * 365 * 24 * 3600;

/** The session policy of an org's counter: its own idle lock. */
export function counterPolicy(lockAfterMinutes: number): SessionPolicy {
  return { kind: 'counter', cookie: COUNTER_COOKIE, path: COUNTER_PATH, idleMs: lockAfterMinutes * MINUTE, absoluteMs: COUNTER_SHIFT_MS };
}

/** For the hourly sweep: the longest idle time an owner may set (orgs/settings.ts allows 240 min). */
export const COUNTER_SESSIONS_SWEEP = counterPolicy(240);

/** The fifth wrong PIN on one device within 15 minutes pauses it for 15 minutes. */
export const DEVICE_PIN_POLICY: ThrottlePolicy = { maxFailures: 4, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** The twentieth wrong PIN across an org's devices within 15 minutes pauses its counters for 15 minutes. */
export const ORG_PIN_POLICY: ThrottlePolicy = { maxFailures: 19, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };

// A device's wrong PINs are counted per org, so the owner's Staff page can list the org's paused
// devices and lift a pause (pausedCounters, liftCounterPause below).
const devicePrefix = (orgId: string) => `counter-device:${orgId}:`;
const deviceBucket = (orgId: string, deviceId: string) => `${devicePrefix(orgId)}${deviceId}`;
const orgBucket = (orgId: string) => `counter-org:${orgId}`;

/** How the PIN screen and the Staff page name a device: the end of its random id, enough to tell a shop's few apart. */
export const deviceLabel = (deviceId: string) => deviceId.slice(-6).toUpperCase();

export interface PausedCounter {
  /** deviceLabel of the device, or null for the pause of every device of the org. */
  device: string | null;
  until: number;
}

/** The org's counters paused after wrong PINs: each device, and the org-wide pause. */
export function pausedCounters(deps: Pick<AppDeps, 'db' | 'clock'>, orgId: string): PausedCounter[] {
  const now = deps.clock.now();
  const repo = throttleRepo(deps.db);
  const devices = repo.lockedWithPrefix(devicePrefix(orgId), now).map((b) => ({ device: deviceLabel(b.bucket.slice(devicePrefix(orgId).length)), until: b.lockedUntil! }));
  const org = repo.find(orgBucket(orgId));
  return org?.lockedUntil && org.lockedUntil > now ? [{ device: null, until: org.lockedUntil }, ...devices] : devices;
}

/**
 * The owner lifts a pause from the console: the device's count starts again from nothing (the
 * device labelled `device`), or, with null, the org-wide pause and count. True when one was lifted.
 */
export function liftCounterPause(deps: Pick<AppDeps, 'db' | 'clock'>, orgId: string, device: string | null): boolean {
  const repo = throttleRepo(deps.db);
  if (device === null) {
    if (!repo.find(orgBucket(orgId))) return false;
    clearFailures(deps, [orgBucket(orgId)]);
    return true;
  }
  const bucket = repo.lockedWithPrefix(devicePrefix(orgId), deps.clock.now()).find((b) => deviceLabel(b.bucket.slice(devicePrefix(orgId).length)) === device);
  if (!bucket) return false;
  clearFailures(deps, [bucket.bucket]);
  return true;
}

/** Everything a counter request knows once the session checked out. */
export interface CounterContext {
  org: OrgRow;
  settings: OrgSettings;
  session: SessionRow;
  staff: Staff;
  csrfToken: string;
}

/** This browser's device id, created on first sight. */
export function deviceId(ctx: Context, deps: Pick<AppDeps, 'config'>): string {
  const existing = readCookie(ctx, DEVICE_COOKIE);
  if (existing && existing.length >= 20 && existing.length <= 64) return existing;
  const id = randomToken(32);
  setCookie(ctx, deps.config, DEVICE_COOKIE, id, { path: COUNTER_PATH, maxAge: DEVICE_COOKIE_SECONDS });
  return id;
}

export type UnlockOutcome = { ok: true; staff: Staff } | { ok: false; message: string; lockedSeconds: number };

function pausedMessage(deps: AppDeps, device: string, orgId: string): { message: string; lockedSeconds: number } | undefined {
  const deviceLock = lockedForSeconds(deps, [deviceBucket(orgId, device)]);
  if (deviceLock > 0) {
    return {
      lockedSeconds: deviceLock,
      message: `Too many wrong PINs on this device. Unlocking is paused: try again in ${waitText(deviceLock)}, or ask the owner to lift the pause on the Staff page of the console (this device: ${deviceLabel(device)}).`,
    };
  }
  const orgLock = lockedForSeconds(deps, [orgBucket(orgId)]);
  if (orgLock > 0) {
    return {
      lockedSeconds: orgLock,
      message: `Too many wrong PINs at this shop’s counters. Unlocking is paused on every device: try again in ${waitText(orgLock)}, or ask the owner to lift the pause on the Staff page of the console.`,
    };
  }
  return undefined;
}

/** Checks a PIN against the org's active staff, with the device and org throttles in front. */
export function unlock(deps: AppDeps, orgId: string, device: string, pin: string): UnlockOutcome {
  // While paused the PIN is not even looked at: no answer may tell a right PIN from a wrong one then.
  const paused = pausedMessage(deps, device, orgId);
  if (paused) return { ok: false, ...paused };
  const staff = /^\d{4,8}$/.test(pin) ? staffByPin(deps, orgId, pin) : undefined;
  if (!staff) {
    recordFailure(deps, [
      { bucket: deviceBucket(orgId, device), policy: DEVICE_PIN_POLICY },
      { bucket: orgBucket(orgId), policy: ORG_PIN_POLICY },
    ]);
    const nowPaused = pausedMessage(deps, device, orgId);
    if (nowPaused) return { ok: false, ...nowPaused };
    return { ok: false, lockedSeconds: 0, message: 'That PIN is not right. Try again.' };
  }
  clearFailures(deps, [deviceBucket(orgId, device)]);
  return { ok: true, staff };
}

/** Starts the staff member's session on this browser (replacing any counter session it had). */
export function startCounterSession(ctx: Context, deps: AppDeps, org: OrgRow, staff: Staff, livemode: boolean): void {
  const previous = readCookie(ctx, COUNTER_COOKIE);
  const policy = counterPolicy(readOrgSettings(deps.db, org.id).counter.lockAfterMinutes);
  const old = findSession(deps, policy, previous);
  if (old) endSession(deps, old.id);
  const { token } = createSession(deps, policy, { orgId: org.id, staffId: staff.id, livemode });
  // No Max-Age: the cookie ends with the browser too; the server ends the session on idle or shift end.
  setCookie(ctx, deps.config, COUNTER_COOKIE, token, { path: COUNTER_PATH });
}

/**
 * The counter session of this request for this org, or undefined (locked). A session of a staff
 * member disabled since is ended at once: every request re-reads the member.
 */
export function counterSession(ctx: Context, deps: AppDeps, orgId: string): CounterContext | undefined {
  const org = orgsRepo(deps.db).findOrg(orgId);
  if (!org) return undefined;
  const settings = readOrgSettings(deps.db, org.id);
  const session = findSession(deps, counterPolicy(settings.counter.lockAfterMinutes), readCookie(ctx, COUNTER_COOKIE));
  if (!session || session.orgId !== org.id || !session.staffId) return undefined;
  const staff = staffRepo(deps.db).find(org.id, session.staffId);
  if (!staff || staff.status !== 'active') {
    endSession(deps, session.id);
    return undefined;
  }
  return { org, settings, session, staff, csrfToken: session.csrfToken };
}

/** Ends this browser's counter session (the Lock button, the idle timer). */
export function lockCounter(ctx: Context, deps: AppDeps, counter: CounterContext | undefined): void {
  if (counter) endSession(deps, counter.session.id);
  clearCookie(ctx, deps.config, COUNTER_COOKIE, COUNTER_PATH);
}

/** decisions §8: every state-changing counter request carries the page's Origin and its session's token. */
export function checkCounterRequest(ctx: Context, deps: Pick<AppDeps, 'config'>, counter: CounterContext, formToken: string | undefined): void {
  checkOrigin(ctx, deps.config);
  checkToken(ctx, counter.csrfToken, formToken);
}
