import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import { ApiError } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { isoTime } from '../lib/clock';
import { keysRepo, type ApiKeyRow } from './repo';

// Operator-side key management (CLI, console): listing never shows more than the key's hint.

export type ListedKey = ReturnType<typeof listed>;

const listed = (k: ApiKeyRow) => ({
  id: k.id,
  orgId: k.orgId,
  deviceName: k.deviceName,
  mode: k.mode,
  hint: k.keyHint,
  scopes: k.scopes,
  createdAt: isoTime(k.createdAt),
  lastUsedAt: k.lastUsedAt === null ? null : isoTime(k.lastUsedAt),
  revokedAt: k.revokedAt === null ? null : isoTime(k.revokedAt),
});

export function listApiKeys(deps: { db: Db }, orgId?: string): ListedKey[] {
  return keysRepo(deps.db).list(orgId).map(listed);
}

/**
 * One key, as a listing shows it. With `orgId` (the console) a key of another org is not found,
 * exactly like a key that does not exist: an admin learns nothing about other orgs' keys.
 */
export function getApiKey(deps: { db: Db }, keyId: string, orgId?: string): ListedKey {
  const row = keysRepo(deps.db).findById(keyId);
  if (!row || (orgId !== undefined && row.orgId !== orgId)) throw new ApiError(404, 'KEY_NOT_FOUND', { detail: keyId });
  return listed(row);
}

/** Revokes a key at once: the next request made with it is answered 401. `orgId` as in getApiKey. */
export function revokeApiKey(deps: { db: Db; clock: Clock }, keyId: string, orgId?: string): ListedKey {
  return inTransaction(deps.db, () => {
    getApiKey(deps, keyId, orgId);
    if (!keysRepo(deps.db).revoke(keyId, deps.clock.now())) throw new ApiError(409, 'KEY_ALREADY_REVOKED', { detail: keyId });
    return getApiKey(deps, keyId, orgId);
  });
}
