import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// An org's test clock: how far its sandbox runs ahead of real time. No row: no offset.

function createTestClocksRepo(db: Db) {
  const offsetOf = db.prepare<[string], { offset_ms: number }>('SELECT offset_ms FROM test_clocks WHERE org_id = ?');
  const upsert = db.prepare(
    `INSERT INTO test_clocks (org_id, offset_ms, updated_at) VALUES (@orgId, @offsetMs, @now)
     ON CONFLICT (org_id) DO UPDATE SET offset_ms = excluded.offset_ms, updated_at = excluded.updated_at`,
  );
  const withTestCustomers = db.prepare<[], { org_id: string }>('SELECT DISTINCT org_id FROM customers INDEXED BY customers_test_age WHERE livemode = 0');
  return {
    /** Milliseconds the org's sandbox is ahead of real time (0 when it never moved). */
    offset: (orgId: string): number => offsetOf.get(orgId)?.offset_ms ?? 0,
    setOffset: (orgId: string, offsetMs: number, now: number) => upsert.run({ orgId, offsetMs, now }),
    /** The orgs that have test customers: the sandboxes a sweep has anything to do in. */
    orgsWithTestCustomers: (): string[] => withTestCustomers.all().map((r) => r.org_id),
  };
}

export const testClocksRepo = perConnection(createTestClocksRepo);
