import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export interface AdminListing {
  id: string;
  email: string;
  createdAt: number;
}

/** An admin login with its org, as `wallet-loyalty admin list` prints it. */
export interface AdminOfOrg {
  orgId: string;
  orgName: string;
  email: string;
}

function createAdminsRepo(db: Db) {
  const ofOrg = db.prepare<[string], { id: string; email: string; created_at: number }>('SELECT id, email, created_at FROM admins WHERE org_id = ? ORDER BY created_at, rowid');
  const countOfOrg = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM admins WHERE org_id = ?');
  const remove = db.prepare('DELETE FROM admins WHERE id = @id AND org_id = @orgId');
  const setEmail = db.prepare('UPDATE admins SET email = @email WHERE id = @id');
  const setLanguage = db.prepare('UPDATE admins SET language = @language WHERE id = @id');
  // The orgs in the order they were made, each org's admins likewise.
  const withOrgs = db.prepare<{ orgId: string | null }, { org_id: string; org_name: string; email: string }>(
    `SELECT o.id AS org_id, o.name AS org_name, a.email FROM admins a JOIN orgs o ON o.id = a.org_id
     WHERE @orgId IS NULL OR o.id = @orgId ORDER BY o.created_at, o.rowid, a.created_at, a.rowid`,
  );
  return {
    listOfOrg: (orgId: string): AdminListing[] => ofOrg.all(orgId).map((r) => ({ id: r.id, email: r.email, createdAt: r.created_at })),
    countOfOrg: (orgId: string): number => countOfOrg.get(orgId)!.n,
    /** Its sessions go with it (ON DELETE CASCADE). */
    remove: (orgId: string, id: string): boolean => remove.run({ id, orgId }).changes === 1,
    setEmail: (id: string, email: string) => void setEmail.run({ id, email }),
    setLanguage: (id: string, language: string) => void setLanguage.run({ id, language }),
    /** Every admin login with its org (only `orgId`'s when given). */
    listWithOrgs: (orgId: string | null): AdminOfOrg[] => withOrgs.all({ orgId }).map((r) => ({ orgId: r.org_id, orgName: r.org_name, email: r.email })),
  };
}

export const adminsRepo = perConnection(createAdminsRepo);
