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

/**
 * Valid keys already read, by hash, per connection: every API request authenticates, and the
 * keys hardly ever change. Revocation stays immediate, in this process and across processes: the
 * cache holds only while keysRepo's version() is unchanged, and that moves with every write to
 * the keys through the repo (revoke, create) and with every commit another connection makes (the
 * CLI's `key revoke` in another process; SQLite's data_version, one read of shared memory). Unknown
 * and revoked keys are never cached, so guessing cannot fill it; a full cache simply starts over.
 */
const MAX_CACHED_KEYS = 10_000;
const caches = new WeakMap<Db, { version: string; rows: Map<string, ApiKeyRow> }>();

function cachedKeys(db: Db): Map<string, ApiKeyRow> {
  const version = keysRepo(db).version();
  let cache = caches.get(db);
  if (!cache || cache.version !== version || cache.rows.size >= MAX_CACHED_KEYS) {
    cache = { version, rows: new Map() };
    caches.set(db, cache);
  }
  return cache.rows;
}

/** The key behind a raw `X-Api-Key`, or null when it is malformed, unknown or revoked. */
export function authenticateKey(deps: KeyDeps, raw: string): ApiKeyRow | null {
  const claimedMode = modeOfRawKey(raw);
  if (!claimedMode) return null;
  const repo = keysRepo(deps.db);
  const hash = hashKey(raw);
  const cached = cachedKeys(deps.db);
  let row = cached.get(hash) ?? repo.findByHash(hash);
  // The lookup finds the row; the constant-time comparison keeps the final check free of timing hints.
  if (!row || !sameSecret(row.keyHash, hash) || row.revokedAt !== null || row.mode !== claimedMode) return null;
  const now = deps.clock.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt >= TOUCH_INTERVAL_MS) {
    repo.touch(row.id, now);
    row = { ...row, lastUsedAt: now };
  }
  cached.set(hash, row);
  return row;
}
