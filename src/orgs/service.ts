import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { ApiError, notFound } from '../lib/errors';
import { normalizeEmail } from '../lib/contact';
import { orgsRepo, type OrgRow } from './repo';
import type { WriteDeps } from '../deps';
import type { ShopLocation } from './locations';
import { readOrgSettings, writeOrgSettings } from './settings';

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

/** The org's name, brand colour and time zone, as the console's settings page saves them: one write (the start checklist's first step). */
export function updateOrgProfile(deps: OrgDeps, orgId: string, input: { name: string; brandColor: string | null; timeZone: string; country?: string | null }): OrgRow {
  return inTransaction(deps.db, () => {
    getOrg(deps, orgId);
    orgsRepo(deps.db).renameOrg(orgId, input.name);
    const started = readOrgSettings(deps.db, orgId).started;
    writeOrgSettings(deps.db, orgId, {
      brandColor: input.brandColor,
      timeZone: input.timeZone,
      ...(input.country !== undefined ? { country: input.country } : {}),
      started: { ...started, profileSavedAt: started.profileSavedAt ?? deps.clock.now() },
    });
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

/**
 * Replaces the shop's locations (at most ten, checked by the settings schema) and refreshes every
 * pass of the org, which carries them: one write, and the wallet's card updates in its transaction.
 */
export function saveShopLocations(deps: WriteDeps, orgId: string, locations: readonly ShopLocation[]): ShopLocation[] {
  return inTransaction(deps.db, () => {
    getOrg(deps, orgId);
    const saved = writeOrgSettings(deps.db, orgId, { locations: [...locations], locationsChangedAt: deps.clock.now() });
    deps.onChange.orgPassesChanged(deps, orgId);
    return saved.locations;
  });
}
