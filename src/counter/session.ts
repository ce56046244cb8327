import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { randomToken } from '../lib/ids';
import { orgsRepo, type OrgRow } from '../orgs/repo';
import { readOrgSettings, type OrgSettings } from '../orgs/settings';
import type { Staff } from '../staff/model';
import { staffRepo } from '../staff/repo';
import { clearCookie, readCookie, setCookie } from '../web/cookies';
import { checkOrigin, checkToken } from '../web/csrf';
import { createSession, endSession, findSession, type SessionPolicy } from '../web/sessions';
import type { SessionRow } from '../web/sessions-repo';

// Who is at the counter: a staff member unlocks it with their PIN (unlock.ts), and
// the session locks again after the owner's idle time (org setting counter.lockAfterMinutes) or
// after a shift (12 h). Each browser carries a device id in its own long-lived cookie, by which
// wrong PINs are counted and the shop's own devices are known.

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
  // An error page sent while serving the counter is in the shop's language, like the counter.
  ctx.state.lang = settings.language;
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

/** Every state-changing counter request carries the page's Origin and its session's token. */
export function checkCounterRequest(ctx: Context, deps: Pick<AppDeps, 'config'>, counter: CounterContext, formToken: string | undefined): void {
  checkOrigin(ctx, deps.config);
  checkToken(ctx, counter.csrfToken, formToken);
}
