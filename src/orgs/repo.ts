import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { isConsoleLang, type ConsoleLang } from '../i18n/langs';

export interface OrgRow {
  id: string;
  name: string;
  createdAt: number;
}

export interface AdminRow {
  id: string;
  orgId: string;
  email: string;
  passwordHash: string;
  createdAt: number;
  /** The console's language for this admin; null: the default (admins/service.ts adminLang). */
  language: ConsoleLang | null;
}

interface RawAdmin {
  id: string;
  org_id: string;
  email: string;
  password_hash: string;
  created_at: number;
  language: string | null;
}

const mapAdmin = (r: RawAdmin): AdminRow => ({
  id: r.id,
  orgId: r.org_id,
  email: r.email,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
  language: isConsoleLang(r.language) ? r.language : null,
});

function createOrgsRepo(db: Db) {
  const insertOrg = db.prepare('INSERT INTO orgs (id, name, created_at) VALUES (@id, @name, @createdAt)');
  const insertAdmin = db.prepare(
    'INSERT INTO admins (id, org_id, email, password_hash, created_at) VALUES (@id, @orgId, @email, @passwordHash, @createdAt)',
  );
  const byId = db.prepare<[string], { id: string; name: string; created_at: number }>('SELECT id, name, created_at FROM orgs WHERE id = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM orgs');
  const adminByEmail = db.prepare<[string], RawAdmin>('SELECT * FROM admins WHERE email = ?');
  const adminById = db.prepare<[string], RawAdmin>('SELECT * FROM admins WHERE id = ?');
  const setPassword = db.prepare('UPDATE admins SET password_hash = @passwordHash WHERE id = @id');
  const rename = db.prepare('UPDATE orgs SET name = @name WHERE id = @id');
  const settings = db.prepare<[string], { settings: string }>('SELECT settings FROM orgs WHERE id = ?');
  const setSettings = db.prepare('UPDATE orgs SET settings = @settings WHERE id = @id');
  const cardIds = db.prepare<[string], string>('SELECT id FROM cards WHERE org_id = ? ORDER BY created_at, id').pluck();

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
    /** Emails are stored lower-cased and compared without case (COLLATE NOCASE). */
    findAdminByEmail(email: string): AdminRow | undefined {
      const row = adminByEmail.get(email);
      return row && mapAdmin(row);
    },
    findAdmin(id: string): AdminRow | undefined {
      const row = adminById.get(id);
      return row && mapAdmin(row);
    },
    setAdminPassword(id: string, passwordHash: string) {
      setPassword.run({ id, passwordHash });
    },
    renameOrg(id: string, name: string) {
      rename.run({ id, name });
    },
    /** The org's settings document as stored (orgs/settings.ts reads it). */
    settingsJson(id: string): string | undefined {
      return settings.get(id)?.settings;
    },
    setSettingsJson(id: string, json: string) {
      setSettings.run({ id, settings: json });
    },
    /** The org's cards (the org-wide settings that passes show reach each of them). */
    cardIds: (id: string) => cardIds.all(id),
  };
}

export const orgsRepo = perConnection(createOrgsRepo);
