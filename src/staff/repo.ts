import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import type { Staff } from './model';

interface RawStaff {
  id: string;
  org_id: string;
  name: string;
  status: Staff['status'];
  created_at: number;
  updated_at: number;
}

const map = (r: RawStaff): Staff => ({ id: r.id, orgId: r.org_id, name: r.name, status: r.status, createdAt: r.created_at, updatedAt: r.updated_at });

function createStaffRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO staff (id, org_id, name, pin_hash, status, created_at, updated_at)
     VALUES (@id, @orgId, @name, @pinHash, 'active', @now, @now)`,
  );
  const byId = db.prepare<{ orgId: string; id: string }, RawStaff>('SELECT * FROM staff WHERE org_id = @orgId AND id = @id');
  const byPin = db.prepare<{ orgId: string; pinHash: string }, RawStaff>('SELECT * FROM staff WHERE org_id = @orgId AND pin_hash = @pinHash');
  const ofOrg = db.prepare<[string], RawStaff>('SELECT * FROM staff WHERE org_id = ? ORDER BY status, name COLLATE NOCASE, created_at');
  const setPin = db.prepare('UPDATE staff SET pin_hash = @pinHash, updated_at = @now WHERE id = @id');
  const setName = db.prepare('UPDATE staff SET name = @name, updated_at = @now WHERE id = @id');
  const setStatus = db.prepare('UPDATE staff SET status = @status, updated_at = @now WHERE id = @id');

  return {
    insert(row: { id: string; orgId: string; name: string; pinHash: string; now: number }) {
      insert.run(row);
    },
    find: (orgId: string, id: string) => mapOne(byId.get({ orgId, id })),
    /** Any staff member of the org holding this PIN hash, active or not (PINs stay unique). */
    findByPinHash: (orgId: string, pinHash: string) => mapOne(byPin.get({ orgId, pinHash })),
    list: (orgId: string) => ofOrg.all(orgId).map(map),
    setPin(id: string, pinHash: string, now: number) {
      setPin.run({ id, pinHash, now });
    },
    setName(id: string, name: string, now: number) {
      setName.run({ id, name, now });
    },
    setStatus(id: string, status: Staff['status'], now: number) {
      setStatus.run({ id, status, now });
    },
  };
}

function mapOne(row: RawStaff | undefined): Staff | undefined {
  return row && map(row);
}

export const staffRepo = perConnection(createStaffRepo);
