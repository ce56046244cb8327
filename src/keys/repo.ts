import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import type { Mode, Scope } from './scopes';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  deviceName: string;
  mode: Mode;
  keyHash: string;
  keyHint: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

interface RawRow {
  id: string;
  org_id: string;
  device_name: string;
  mode: Mode;
  key_hash: string;
  key_hint: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const map = (r: RawRow): ApiKeyRow => ({
  id: r.id,
  orgId: r.org_id,
  deviceName: r.device_name,
  mode: r.mode,
  keyHash: r.key_hash,
  keyHint: r.key_hint,
  scopes: JSON.parse(r.scopes) as Scope[],
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

function createKeysRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO api_keys (id, org_id, device_name, mode, key_hash, key_hint, scopes, created_at)
     VALUES (@id, @orgId, @deviceName, @mode, @keyHash, @keyHint, @scopes, @createdAt)`,
  );
  const byHash = db.prepare<[string], RawRow>('SELECT * FROM api_keys WHERE key_hash = ?');
  const byId = db.prepare<[string], RawRow>('SELECT * FROM api_keys WHERE id = ?');
  const all = db.prepare<[], RawRow>('SELECT * FROM api_keys ORDER BY org_id, created_at');
  const ofOrg = db.prepare<[string], RawRow>('SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = @at WHERE id = @id');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL');

  return {
    insert(row: Omit<ApiKeyRow, 'lastUsedAt' | 'revokedAt'>) {
      insert.run({ ...row, scopes: JSON.stringify(row.scopes) });
    },
    /** The key with this hash unless it is revoked. */
    findActiveByHash(hash: string): ApiKeyRow | undefined {
      const row = byHash.get(hash);
      return row && row.revoked_at === null ? map(row) : undefined;
    },
    findById(id: string): ApiKeyRow | undefined {
      const row = byId.get(id);
      return row && map(row);
    },
    list(orgId?: string): ApiKeyRow[] {
      return (orgId ? ofOrg.all(orgId) : all.all()).map(map);
    },
    /** Records when a key was last used (informational). */
    touch(id: string, at: number) {
      touch.run({ id, at });
    },
    revoke(id: string, at: number): boolean {
      return revoke.run({ id, at }).changes === 1;
    },
  };
}
export const keysRepo = perConnection(createKeysRepo);
