import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// The devices on which staff unlocked an org's counter (migration 21), by the SHA-256 of their
// device cookie: the cookie is what proves a device, so the database never holds it.

function createCounterDevicesRepo(db: Db) {
  const find = db.prepare<{ orgId: string; deviceHash: string; since: number }, { n: number }>(
    'SELECT 1 AS n FROM counter_devices WHERE org_id = @orgId AND device_hash = @deviceHash AND last_unlocked_at >= @since',
  );
  const upsert = db.prepare(
    `INSERT INTO counter_devices (org_id, device_hash, last_unlocked_at) VALUES (@orgId, @deviceHash, @now)
     ON CONFLICT (org_id, device_hash) DO UPDATE SET last_unlocked_at = excluded.last_unlocked_at`,
  );
  const forget = db.prepare('DELETE FROM counter_devices WHERE org_id = @orgId AND last_unlocked_at < @before');
  return {
    /** Staff unlocked the counter on this device at `since` or later. */
    unlockedSince(orgId: string, deviceHash: string, since: number): boolean {
      return find.get({ orgId, deviceHash, since }) !== undefined;
    },
    unlocked(orgId: string, deviceHash: string, now: number): void {
      upsert.run({ orgId, deviceHash, now });
    },
    /** The org's devices last unlocked before `before`. */
    forgetBefore(orgId: string, before: number): void {
      forget.run({ orgId, before });
    },
  };
}

export const counterDevicesRepo = perConnection(createCounterDevicesRepo);
