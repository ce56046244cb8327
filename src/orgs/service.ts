import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { ApiError, notFound } from '../lib/errors';
import { normalizeEmail } from '../lib/contact';
import { orgsRepo, type AdminRow, type OrgRow } from './repo';
import type { WriteDeps } from '../deps';
import type { Lang } from '../i18n/langs';
import { readOrgSettings, writeOrgSettings } from './settings';

export type { AdminRow, OrgRow } from './repo';

export interface OrgDeps {
  db: Db;
  clock: Clock;
}

export function createOrg(deps: OrgDeps, input: { name: string }): { id: string; name: string } {
  const id = newId('org');
  orgsRepo(deps.db).insertOrg({ id, name: input.name, createdAt: deps.clock.now() });
  return { id, name: input.name };
}

export function getOrg(deps: { db: Db }, orgId: string): OrgRow {
  const org = orgsRepo(deps.db).findOrg(orgId);
  if (!org) throw notFound('ORG_NOT_FOUND', orgId);
  return org;
}

/** How many orgs this server holds (one: a single shop's server, whose pages may say so plainly). */
export function countOrgs(deps: { db: Db }): number {
  return orgsRepo(deps.db).countOrgs();
}

/** The admin with this id and their org; undefined when either is gone (a session outliving its admin). */
export function findAdminAndOrg(deps: { db: Db }, adminId: string): { admin: AdminRow; org: OrgRow } | undefined {
  const admin = orgsRepo(deps.db).findAdmin(adminId);
  const org = admin && orgsRepo(deps.db).findOrg(admin.orgId);
  return admin && org ? { admin, org } : undefined;
}

/** The admin whose login is this email key (adminEmailKey), if any. */
export function findAdminByEmail(deps: { db: Db }, emailKey: string): AdminRow | undefined {
  return orgsRepo(deps.db).findAdminByEmail(emailKey);
}

/** Stores an admin's new password hash (hashed by the caller, outside any transaction), within the caller's transaction. */
export function setAdminPasswordHash(deps: { db: Db }, adminId: string, passwordHash: string): void {
  orgsRepo(deps.db).setAdminPassword(adminId, passwordHash);
}

/** How an admin's email is stored and looked up: the one email rule's key (lower case, IDN domains in their xn-- form). */
export function adminEmailKey(email: string): string {
  return normalizeEmail(email) ?? email.trim().toLowerCase();
}

/**
 * An org admin. The password arrives already hashed (lib/password.ts hashPassword, which is async
 * and slow on purpose): hashing cannot run inside the write transaction.
 */
export function createAdmin(deps: OrgDeps, input: { orgId: string; email: string; passwordHash: string }): { id: string; email: string } {
  const repo = orgsRepo(deps.db);
  const email = adminEmailKey(input.email);
  if (repo.adminEmailTaken(email)) throw new ApiError(409, 'ADMIN_EMAIL_TAKEN', { detail: email });
  const id = newId('adm');
  repo.insertAdmin({ id, orgId: input.orgId, email, passwordHash: input.passwordHash, createdAt: deps.clock.now() });
  return { id, email };
}

export function renameOrg(deps: OrgDeps, orgId: string, name: string): OrgRow {
  return inTransaction(deps.db, () => {
    getOrg(deps, orgId);
    orgsRepo(deps.db).renameOrg(orgId, name);
    return getOrg(deps, orgId);
  });
}

export interface OrgProfile {
  name: string;
  brandColor: string | null;
  timeZone: string;
  country?: string | null;
  language?: Lang;
  /** ISO 4217, or null: amounts without a currency sign. */
  currency?: string | null;
}

/**
 * The org's name, brand colour, time zone, country, language and currency, as the console's
 * settings page saves them: one write (the start checklist's first step). A new language or
 * currency changes what the passes of customers who chose no language show (labels, money), so
 * every card's installed passes are updated after the commit.
 */
export function updateOrgProfile(deps: WriteDeps, orgId: string, input: OrgProfile): OrgRow {
  return inTransaction(deps.db, () => {
    getOrg(deps, orgId);
    orgsRepo(deps.db).renameOrg(orgId, input.name);
    const before = readOrgSettings(deps.db, orgId);
    const started = before.started;
    const after = writeOrgSettings(deps.db, orgId, {
      brandColor: input.brandColor,
      timeZone: input.timeZone,
      ...(input.country !== undefined ? { country: input.country } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      started: { ...started, profileSavedAt: started.profileSavedAt ?? deps.clock.now() },
    });
    if (after.language !== before.language || after.currency !== before.currency) {
      for (const cardId of orgsRepo(deps.db).cardIds(orgId)) deps.onChange.cardChanged(deps, cardId);
    }
    return getOrg(deps, orgId);
  });
}

/** A step of the start checklist the owner took (a poster printed, a card saved), remembered the first time. */
export function noteStarted(deps: OrgDeps, orgId: string, step: 'posterPrintedAt' | 'cardSavedAt'): void {
  if (readOrgSettings(deps.db, orgId).started[step] !== null) return;
  inTransaction(deps.db, () => {
    const started = readOrgSettings(deps.db, orgId).started;
    if (started[step] === null) writeOrgSettings(deps.db, orgId, { started: { ...started, [step]: deps.clock.now() } });
  });
}
