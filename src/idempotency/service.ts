import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { ApiError, validationFailed } from '../lib/errors';
import { InFlightList } from '../lib/in-flight-list';
import { sha256Hex } from '../lib/secrets';
import { idempotencyRepo, type IdempotencyScope } from './repo';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface SerializedReply {
  status: number;
  /** The exact bytes sent, so a replay is byte-identical. */
  body: string;
  replayed: boolean;
}

// Requests holding a key right now, from the moment they pass authentication until they answer
// (a slow upload holds its key too). One process owns the database, so memory is the true lock.
const inFlight = new InFlightList<string>();

/** Claims the key for this request; null when another request holds it. Call the result to release. */
export function claimIdempotencyKey(scope: IdempotencyScope): (() => void) | null {
  const lock = JSON.stringify(scope);
  if (inFlight.has(lock)) return null;
  inFlight.add(lock);
  return () => inFlight.delete(lock);
}

/** Text written as is by canonicalJson, told apart from the values still to be written. */
class Literal {
  constructor(readonly text: string) {}
}

/**
 * Sorted keys at every depth: the same JSON written in another key order fingerprints the same.
 * Iterative, not recursive: a body may nest thousands of levels inside customFields (64 KiB
 * allows ~30,000), and a recursive walk would overflow the stack and answer 500.
 */
function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const item = todo.pop();
    if (item instanceof Literal) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      out.push('[');
      todo.push(new Literal(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        todo.push(item[i]);
        if (i > 0) todo.push(new Literal(','));
      }
    } else if (item && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      todo.push(new Literal('}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, value] = entries[i]!;
        todo.push(value, new Literal(`${JSON.stringify(key)}:`));
        if (i > 0) todo.push(new Literal(','));
      }
    } else {
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
}

export function checkIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > 255) {
    throw validationFailed([{ path: 'Idempotency-Key', message: 'must be 1 to 255 characters' }]);
  }
}

// Final answers worth keeping: below 500, and not the ones that depend on who asked or when.
const NOT_KEPT = new Set([401, 403, 429]);

/**
 * Runs a write under an Idempotency-Key (docs/api.md#idempotency). The handler runs inside one transaction
 * together with the stored response, so either both land or neither does.
 */
export function runIdempotent(
  deps: { db: Db; clock: Clock },
  scope: IdempotencyScope,
  request: { path: string; body: unknown },
  holdsLock: boolean,
  handler: () => { status: number; body: unknown },
): SerializedReply {
  const repo = idempotencyRepo(deps.db);
  const fingerprint = sha256Hex(`${scope.method} ${request.path}\n${canonicalJson(request.body ?? null)}`);
  const now = deps.clock.now();

  const existing = repo.find(scope);
  if (existing && existing.createdAt > now - IDEMPOTENCY_TTL_MS) {
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', { detail: 'this Idempotency-Key was used with another path or body' });
    }
    return { status: existing.status, body: existing.body, replayed: true };
  }

  if (!holdsLock) {
    throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', { detail: 'a request with this Idempotency-Key is still running' });
  }
  try {
    return inTransaction(deps.db, () => {
      const reply = handler();
      const body = JSON.stringify(reply.body);
      repo.save(scope, { fingerprint, status: reply.status, body, createdAt: now });
      return { status: reply.status, body, replayed: false };
    });
  } catch (err) {
    if (err instanceof ApiError && err.status < 500 && !NOT_KEPT.has(err.status)) {
      // The write rolled back; keep the refusal so a retry gets the same answer.
      repo.save(scope, { fingerprint, status: err.status, body: JSON.stringify(err.toBody()), createdAt: now });
    }
    throw err;
  }
}

export function sweepIdempotencyKeys(deps: { db: Db; clock: Clock }): number {
  return idempotencyRepo(deps.db).deleteOlderThan(deps.clock.now() - IDEMPOTENCY_TTL_MS);
}
