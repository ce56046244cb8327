import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export type SessionKind = 'console' | 'counter';

export interface SessionRow {
  id: string;
  kind: SessionKind;
  orgId: string;
  adminId: string | null;
  staffId: string | null;
  csrfToken: string;
  livemode: boolean;
  createdAt: number;
  lastSeenAt: number;
}

interface RawSession {
  id: string;
  kind: SessionKind;
  org_id: string;
  admin_id: string | null;
  staff_id: string | null;
  csrf_token: string;
  livemode: number;
  created_at: number;
  last_seen_at: number;
}

const map = (r: RawSession): SessionRow => ({
  id: r.id,
  kind: r.kind,
  orgId: r.org_id,
  adminId: r.admin_id,
  staffId: r.staff_id,
  csrfToken: r.csrf_token,
  livemode: r.livemode === 1,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
});

function createSessionsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO sessions (id, kind, org_id, admin_id, staff_id, csrf_token, livemode, created_at, last_seen_at)
     VALUES (@id, @kind, @orgId, @adminId, @staffId, @csrfToken, @livemode, @now, @now)`,
  );
  const byId = db.prepare<[string], RawSession>('SELECT * FROM sessions WHERE id = ?');
  const touch = db.prepare('UPDATE sessions SET last_seen_at = @now WHERE id = @id');
  const setMode = db.prepare('UPDATE sessions SET livemode = @livemode WHERE id = @id');
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');
  const removeOtherOfAdmin = db.prepare('DELETE FROM sessions WHERE admin_id = @adminId AND id != @keepId');
  const removeAllOfAdmin = db.prepare('DELETE FROM sessions WHERE admin_id = ?');
  const removeExpired = db.prepare('DELETE FROM sessions WHERE kind = @kind AND (last_seen_at < @idleCutoff OR created_at < @absoluteCutoff)');

  return {
    insert(row: Omit<SessionRow, 'createdAt' | 'lastSeenAt'> & { now: number }) {
      insert.run({ ...row, livemode: row.livemode ? 1 : 0 });
    },
    find: (id: string) => {
      const row = byId.get(id);
      return row && map(row);
    },
    touch(id: string, now: number) {
      touch.run({ id, now });
    },
    setMode(id: string, livemode: boolean) {
      setMode.run({ id, livemode: livemode ? 1 : 0 });
    },
    remove(id: string) {
      remove.run(id);
    },
    removeOtherOfAdmin(adminId: string, keepId: string) {
      removeOtherOfAdmin.run({ adminId, keepId });
    },
    removeAllOfAdmin(adminId: string) {
      removeAllOfAdmin.run(adminId);
    },
    removeExpired(kind: SessionKind, idleCutoff: number, absoluteCutoff: number): number {
      return removeExpired.run({ kind, idleCutoff, absoluteCutoff }).changes;
    },
  };
}

export const sessionsRepo = perConnection(createSessionsRepo);
