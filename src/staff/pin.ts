import { createHmac } from 'node:crypto';
import type { Db } from '../db/connection';
import { serverSecret } from '../db/secrets';

/**
 * A PIN's stored form: HMAC-SHA256 keyed with this database's own pepper, over the org id and the
 * PIN. Why not scrypt like passwords: the counter is unlocked by the PIN alone, so the stored form
 * must be found by lookup (and PINs must be unique within an org), which a salted hash cannot do.
 * And no hash protects a 4–8 digit secret from someone holding the database: there are at most
 * 10^8 of them. What protects PINs is the counter's lock-out after a few wrong tries, per device
 * and per org (web/throttle.ts); the hash only keeps them out of plain sight.
 */
export function pinHash(db: Db, now: number, orgId: string, pin: string): string {
  return createHmac('sha256', serverSecret(db, 'staff-pin-pepper', now)).update(`${orgId}\n${pin}`).digest('hex');
}
