import { sha256Hex } from '../lib/secrets';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { randomToken } from '../lib/ids';
import { sessionsRepo, type SessionKind, type SessionRow } from './sessions-repo';

// Browser sessions of the console (admins) and the counter (staff), stored in SQLite.
// The cookie carries a random token; the database keeps only its SHA-256, so neither a backup nor
// a log line can be turned into a session. Each session has its own CSRF token.

export type { SessionRow } from './sessions-repo';

export interface SessionPolicy {
  kind: SessionKind;
  cookie: string;
  path: string;
  /** Ends after this long without a request. */
  idleMs: number;
  /** Ends this long after sign-in, however busy. */
  absoluteMs: number;
}

const HOUR = 3_600_000;

/** A console session ends after 12 hours without use, and 7 days after sign-in in any case. */
export const CONSOLE_SESSIONS: SessionPolicy = { kind: 'console', cookie: 'wl_console', path: '/console', idleMs: 12 * HOUR, absoluteMs: 7 * 24 * HOUR };

/**
 * last_seen_at is written at most once a minute, not on every click — or once a tenth of the idle
 * limit when that is shorter (a counter that locks after 1 minute must see each use).
 */
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionDeps {
  db: Db;
  clock: Clock;
}

const tokenId = sha256Hex;

export function createSession(
  deps: SessionDeps,
  policy: SessionPolicy,
  owner: { orgId: string; adminId?: string; staffId?: string; livemode?: boolean },
): { token: string; session: SessionRow } {
  const token = randomToken(43);
  const id = tokenId(token);
  const now = deps.clock.now();
  const row = { id, kind: policy.kind, orgId: owner.orgId, adminId: owner.adminId ?? null, staffId: owner.staffId ?? null, csrfToken: randomToken(32), livemode: owner.livemode ?? true };
  sessionsRepo(deps.db).insert({ ...row, now });
  return { token, session: { ...row, createdAt: now, lastSeenAt: now } };
}

function expired(policy: SessionPolicy, session: SessionRow, now: number): boolean {
  return now - session.lastSeenAt >= policy.idleMs || now - session.createdAt >= policy.absoluteMs;
}

/** The live session behind a cookie token, or undefined; an expired one is deleted on the way. */
export function findSession(deps: SessionDeps, policy: SessionPolicy, token: string | undefined): SessionRow | undefined {
  if (!token || token.length < 32 || token.length > 100) return undefined;
  const repo = sessionsRepo(deps.db);
  const session = repo.find(tokenId(token));
  if (!session || session.kind !== policy.kind) return undefined;
  const now = deps.clock.now();
  if (expired(policy, session, now)) {
    repo.remove(session.id);
    return undefined;
  }
  if (now - session.lastSeenAt >= Math.min(TOUCH_INTERVAL_MS, policy.idleMs / 10)) {
    repo.touch(session.id, now);
    return { ...session, lastSeenAt: now };
  }
  return session;
}

export function endSession(deps: SessionDeps, sessionId: string): void {
  sessionsRepo(deps.db).remove(sessionId);
}

/** After a password change: every other browser of this admin is signed out. */
export function endOtherAdminSessions(deps: SessionDeps, adminId: string, keepSessionId: string): void {
  sessionsRepo(deps.db).removeOtherOfAdmin(adminId, keepSessionId);
}

/** After a password reset: every browser of this admin is signed out. */
export function endAdminSessions(deps: SessionDeps, adminId: string): void {
  sessionsRepo(deps.db).removeAllOfAdmin(adminId);
}

export function setSessionMode(deps: SessionDeps, sessionId: string, livemode: boolean): void {
  sessionsRepo(deps.db).setMode(sessionId, livemode);
}

/** The hourly sweep: sessions past their idle or absolute limit (they are refused anyway; this keeps the table small). */
export function sweepSessions(deps: SessionDeps, policies: SessionPolicy[]): number {
  const now = deps.clock.now();
  return policies.reduce((n, p) => n + sessionsRepo(deps.db).removeExpired(p.kind, now - p.idleMs, now - p.absoluteMs), 0);
}
