import type { Db } from '../db/open';
import { perConnection } from '../db/per-connection';

export interface OrgRow {
  id: string;
  name: string;
  createdAt: number;
}

function createOrgsRepo(db: Db) {
  const insertOrg = db.prepare('INSERT INTO orgs (id, name, created_at) VALUES (@id, @name, @createdAt)');
  const insertAdmin = db.prepare(
    'INSERT INTO admins (id, org_id, email, password_hash, created_at) VALUES (@id, @orgId, @email, @passwordHash, @createdAt)',
  );
  const byId = db.prepare<[string], { id: string; name: string; created_at: number }>('SELECT * FROM orgs WHERE id = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM orgs');
  const adminByEmail = db.prepare<[string], { id: string }>('SELECT id FROM admins WHERE email = ?');

  return {
    insertOrg(row: OrgRow) {
      insertOrg.run(row);
    },
    insertAdmin(row: { id: string; orgId: string; email: string; passwordHash: string; createdAt: number }) {
      insertAdmin.run(row);
    },
    findOrg(id: string): OrgRow | undefined {
      const row = byId.get(id);
      return row && { id: row.id, name: row.name, createdAt: row.created_at };
    },
    countOrgs(): number {
      return count.get()!.n;
    },
    adminEmailTaken(email: string): boolean {
      return adminByEmail.get(email) !== undefined;
    },
  };
}

export const orgsRepo = perConnection(createOrgsRepo);
