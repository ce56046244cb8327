import type { Db } from '../db/connection';
import { inTransaction } from '../db/transaction';
import type { Clock } from '../lib/clock';
import { normalizeEmail } from '../lib/contact';
import { randomToken } from '../lib/ids';
import { hashPassword } from '../lib/password';
import type { ConsoleLang } from '../i18n/langs';
import { orgsRepo, type AdminRow } from '../orgs/repo';
import { readOrgSettings } from '../orgs/settings';
import { adminEmailKey, createAdmin } from '../orgs/service';
import { endAdminSessions } from '../web/sessions';
import { adminsRepo, type AdminListing, type AdminOfOrg } from './repo';

export type { AdminListing } from './repo';

// Several admins per org, with equal rights; the CLI's `admin` commands and the
// console's Settings → Admins share these rules. A new password is random, shown once and stored as
// a hash; the person changes it after signing in.

export interface AdminDeps {
  db: Db;
  clock: Clock;
}

/**
 * A refusal the person can act on; `field` is the form field it belongs to. `message` is for the
 * operator, who sees every org; `orgMessage`, where set, is what an org's admin reads instead.
 */
export class AdminError extends Error {
  constructor(
    readonly field: 'email' | 'password' | 'form',
    message: string,
    readonly orgMessage?: string,
  ) {
    super(message);
  }
}

/**
 * An admin login is unique across the server. An org's admin is told so only for their own org's
 * logins (which their list shows anyway): whether an address is another org's login is none of
 * their business, so that answer is the same neutral one an unusable address would get.
 */
function emailTaken(deps: AdminDeps, email: string, orgId: string): AdminError | undefined {
  const holder = orgsRepo(deps.db).findAdminByEmail(email);
  if (!holder) return undefined;
  const orgMessage = holder.orgId === orgId ? `${email} is already an admin of this shop.` : `${email} cannot be used for an admin login. Choose another email address.`;
  return new AdminError('email', `${email} is already an admin login.`, orgMessage);
}

/** 20 letters and digits (119 bits): typed once, then changed under "Change password". */
export const newAdminPassword = (): string => randomToken(20);

function checkedEmail(raw: string): string {
  if (!raw.trim()) throw new AdminError('email', 'Enter an email address.');
  if (!normalizeEmail(raw)) throw new AdminError('email', `${raw.trim()} is not an email address.`);
  return adminEmailKey(raw);
}

export function listAdmins(db: Db, orgId: string): AdminListing[] {
  return adminsRepo(db).listOfOrg(orgId);
}

/**
 * Every admin login of this server with its org, or of one org (`wallet-loyalty admin list`): the
 * email a password reset needs, which nobody remembers. Emails and org names only, never a secret.
 */
export function listAdminLogins(db: Db, orgId?: string): { org: { id: string; name: string } | null; admins: AdminOfOrg[] } {
  if (orgId === undefined) return { org: null, admins: adminsRepo(db).listWithOrgs(null) };
  const org = orgsRepo(db).findOrg(orgId);
  if (!org) throw new AdminError('form', `no org ${orgId}`);
  return { org: { id: org.id, name: org.name }, admins: adminsRepo(db).listWithOrgs(orgId) };
}

/** A new admin of the org with a random password, returned once. */
export async function addAdmin(deps: AdminDeps, input: { orgId: string; email: string }): Promise<{ id: string; email: string; password: string }> {
  const email = checkedEmail(input.email);
  if (!orgsRepo(deps.db).findOrg(input.orgId)) throw new AdminError('form', `no org ${input.orgId}`);
  const taken = emailTaken(deps, email, input.orgId);
  if (taken) throw taken;
  const password = newAdminPassword();
  const passwordHash = await hashPassword(password); // slow, so outside the transaction; checked again inside
  const created = inTransaction(deps.db, () => {
    const takenSince = emailTaken(deps, email, input.orgId);
    if (takenSince) throw takenSince;
    return createAdmin(deps, { orgId: input.orgId, email, passwordHash });
  });
  return { ...created, password };
}

/** A new random password for the admin with this email; every browser signed in as them is signed out. */
export async function resetAdminPassword(deps: AdminDeps, rawEmail: string): Promise<{ email: string; orgId: string; password: string }> {
  const email = checkedEmail(rawEmail);
  const admin = orgsRepo(deps.db).findAdminByEmail(email);
  if (!admin) throw new AdminError('email', `no admin login ${email}`);
  const password = newAdminPassword();
  const hash = await hashPassword(password);
  inTransaction(deps.db, () => {
    orgsRepo(deps.db).setAdminPassword(admin.id, hash);
    endAdminSessions(deps, admin.id);
  });
  return { email: admin.email, orgId: admin.orgId, password };
}

/** Removes an admin of the org; never the last one, who would leave the org without a way in. */
export function removeAdmin(deps: AdminDeps, input: { orgId: string; adminId: string }): void {
  inTransaction(deps.db, () => {
    const repo = adminsRepo(deps.db);
    if (!repo.listOfOrg(input.orgId).some((a) => a.id === input.adminId)) throw new AdminError('form', 'This admin no longer exists.');
    if (repo.countOfOrg(input.orgId) <= 1) throw new AdminError('form', 'The last admin cannot be removed: add another admin first.');
    repo.remove(input.orgId, input.adminId);
  });
}

/** The signed-in admin's new login email (their password checked by the caller). */
export function changeAdminEmail(deps: AdminDeps, admin: AdminRow, rawEmail: string): string {
  const email = checkedEmail(rawEmail);
  if (email === admin.email) throw new AdminError('email', 'This is already your login email.');
  return inTransaction(deps.db, () => {
    const taken = emailTaken(deps, email, admin.orgId);
    if (taken) throw taken;
    adminsRepo(deps.db).setEmail(admin.id, email);
    return email;
  });
}

/** The console's language for this admin: their choice, else German in a German-speaking shop, else English. */
export function adminLang(db: Db, admin: Pick<AdminRow, 'orgId' | 'language'>): ConsoleLang {
  if (admin.language) return admin.language;
  return readOrgSettings(db, admin.orgId).language === 'de' ? 'de' : 'en';
}

/** The signed-in admin's choice of the console's language (Settings → Account). */
export function setAdminLanguage(deps: AdminDeps, admin: Pick<AdminRow, 'id'>, lang: ConsoleLang): void {
  inTransaction(deps.db, () => adminsRepo(deps.db).setLanguage(admin.id, lang));
}
