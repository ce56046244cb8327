import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { generateRawKey, hashKey, keyHint, modeOfRawKey } from './key-format';
import { keysRepo, type ApiKeyRow } from './repo';
import { SCOPES, type Mode, type Scope } from './scopes';
import type { Db } from '../db/connection';

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
  // Found by its digest (an index lookup, which a guess cannot steer: it would need SHA-256
  // preimages), so the row's own digest is this one.
  const row = repo.findActiveByHash(hashKey(raw));
  if (!row || row.mode !== claimedMode) return null;
  const now = deps.clock.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt >= TOUCH_INTERVAL_MS) {
    touchQuietly(() => repo.touch(row.id, now));
  }
  return row;
}

/**
 * The informational last_used_at write. Should another process hold the write lock past the busy
 * timeout (the CLI's long import), the touch waits for a later request instead of failing this one.
 */
function touchQuietly(write: () => void): void {
  try {
    write();
  } catch (err) {
    if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
  }
}
