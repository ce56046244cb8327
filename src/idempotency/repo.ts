import { namespaceParams } from '../db/namespace-params';
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export interface IdempotencyScope {
  orgId: string;
  livemode: boolean;
  method: string;
  route: string;
  key: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: number;
}

/** The scope as statement parameters. */
const scopeParams = (scope: IdempotencyScope) => namespaceParams(scope.orgId, scope.livemode, { method: scope.method, route: scope.route, key: scope.key });

function createIdempotencyRepo(db: Db) {
  const find = db.prepare<[Record<string, unknown>], { fingerprint: string; response_status: number; response_body: string; created_at: number }>(
    `SELECT fingerprint, response_status, response_body, created_at FROM idempotency_keys
     WHERE org_id = @orgId AND livemode = @livemode AND method = @method AND route = @route AND key = @key`,
  );
  // REPLACE: an expired record the sweep has not reached yet gives way to the new one.
  const save = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (org_id, livemode, method, route, key, fingerprint, response_status, response_body, created_at)
     VALUES (@orgId, @livemode, @method, @route, @key, @fingerprint, @status, @body, @createdAt)`,
  );
  const sweep = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  return {
    find(scope: IdempotencyScope): StoredResponse | undefined {
      const row = find.get(scopeParams(scope));
      return row && { fingerprint: row.fingerprint, status: row.response_status, body: row.response_body, createdAt: row.created_at };
    },
    save(scope: IdempotencyScope, response: StoredResponse) {
      const { fingerprint, status, body, createdAt } = response;
      // The named keys first: a literal that starts with a spread gets a hidden class per call (docs/performance.md).
      save.run({ fingerprint, status, body, createdAt, ...scopeParams(scope) });
    },
    deleteOlderThan(cutoff: number): number {
      return sweep.run(cutoff).changes;
    },
  };
}

export const idempotencyRepo = perConnection(createIdempotencyRepo);
