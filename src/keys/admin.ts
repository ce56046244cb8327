import type { Db } from '../db/open';
import { ApiError } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { isoTime } from '../lib/clock';
import { keysRepo } from './repo';

// Operator-side key management (CLI, console): listing never shows more than the key's hint.

export function listApiKeys(deps: { db: Db }, orgId?: string) {
  return keysRepo(deps.db)
    .list(orgId)
    .map((k) => ({
      id: k.id,
      orgId: k.orgId,
      deviceName: k.deviceName,
      mode: k.mode,
      hint: k.keyHint,
      scopes: k.scopes,
      createdAt: isoTime(k.createdAt),
      lastUsedAt: k.lastUsedAt === null ? null : isoTime(k.lastUsedAt),
      revokedAt: k.revokedAt === null ? null : isoTime(k.revokedAt),
    }));
}

export function revokeApiKey(deps: { db: Db; clock: Clock }, keyId: string): void {
  const repo = keysRepo(deps.db);
  if (!repo.findById(keyId)) throw new ApiError(404, 'KEY_NOT_FOUND', { detail: keyId });
  if (!repo.revoke(keyId, deps.clock.now())) throw new ApiError(409, 'KEY_ALREADY_REVOKED', { detail: keyId });
}
