import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export interface AdminListing {
  id: string;
  email: string;
  createdAt: number;
}

function createAdminsRepo(db: Db) {
  const ofOrg = db.prepare<[string], { id: string; email: string; created_at: number }>('SELECT id, email, created_at FROM admins WHERE org_id = ? ORDER BY created_at, id');
  const countOfOrg = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM admins WHERE org_id = ?');
  const remove = db.prepare('DELETE FROM admins WHERE id = @id AND org_id = @orgId');
  const setEmail = db.prepare('UPDATE admins SET email = @email WHERE id = @id');
  return {
    listOfOrg: (orgId: string): AdminListing[] => ofOrg.all(orgId).map((r) => ({ id: r.id, email: r.email, createdAt: r.created_at })),
    countOfOrg: (orgId: string): number => countOfOrg.get(orgId)!.n,
    /** Its sessions go with it (ON DELETE CASCADE). */
    remove: (orgId: string, id: string): boolean => remove.run({ id, orgId }).changes === 1,
    setEmail: (id: string, email: string) => void setEmail.run({ id, email }),
  };
}

export const adminsRepo = perConnection(createAdminsRepo);
