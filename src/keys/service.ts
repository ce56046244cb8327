import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { sameSecret } from '../lib/secrets';
import { generateRawKey, hashKey, keyHint, modeOfRawKey } from './key-format';
import { keysRepo, type ApiKeyRow } from './repo';
import { SCOPES, type Mode, type Scope } from './scopes';
import type { Db } from '../db/open';

export interface KeyDeps {
  db: Db;
  clock: Clock;
}

export interface CreatedKey {
  id: string;
  orgId: string;
  deviceName: string;
  mode: Mode;
  scopes: Scope[];
  /** Shown once; only its hash is stored. */
  key: string;
}

export function createApiKey(
  deps: KeyDeps,
  input: { orgId: string; deviceName: string; mode?: Mode; scopes?: Scope[]; legacy?: boolean },
): CreatedKey {
  const mode: Mode = input.legacy ? 'live' : (input.mode ?? 'live');
  const raw = generateRawKey(mode, input.legacy);
  const scopes = input.scopes ? [...new Set(input.scopes)] : [...SCOPES];
  const id = newId('key');
  keysRepo(deps.db).insert({
    id,
    orgId: input.orgId,
    deviceName: input.deviceName,
    mode,
    keyHash: hashKey(raw),
    keyHint: keyHint(raw),
    scopes,
    createdAt: deps.clock.now(),
  });
  return { id, orgId: input.orgId, deviceName: input.deviceName, mode, scopes, key: raw };
}

// last_used_at is informational: refresh it at most once a minute, not on every request.
const TOUCH_INTERVAL_MS = 60_000;

/** The key behind a raw `X-Api-Key`, or null when it is malformed, unknown or revoked. */
export function authenticateKey(deps: KeyDeps, raw: string): ApiKeyRow | null {
  const claimedMode = modeOfRawKey(raw);
  if (!claimedMode) return null;
  const repo = keysRepo(deps.db);
  const hash = hashKey(raw);
  const row = repo.findByHash(hash);
  // The index finds the row; the constant-time comparison keeps the final check free of timing hints.
  if (!row || !sameSecret(row.keyHash, hash) || row.revokedAt !== null || row.mode !== claimedMode) return null;
  const now = deps.clock.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt >= TOUCH_INTERVAL_MS) repo.touch(row.id, now);
  return row;
}
