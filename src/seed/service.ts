import { inTransaction } from '../db/transaction';
import * as v from 'valibot';
import { createCard, type CardDeps } from '../cards/service';
import { createApiKey } from '../keys/service';
import { hashPassword } from '../lib/password';
import { createStaff } from '../staff/service';
import type { Mode } from '../keys/scopes';
import { toIssues } from '../lib/validation';
import { orgsRepo } from '../orgs/repo';
import { adminEmailKey, createAdmin, createOrg } from '../orgs/service';
import { writeOrgSettings } from '../orgs/settings';
import { SeedFile, type SeedFileInput } from './schema';

export interface SeedResult {
  orgs: { orgId: string; cards: { ref: string | null; cardId: string }[]; keys: { deviceName: string; mode: Mode; key: string }[] }[];
}

/** A seed file that cannot be applied; the message is one line naming the field. */
export class SeedError extends Error {}

/** Validates a parsed seed file; the error's one line names the first bad field. */
export function parseSeedFile(input: unknown): SeedFileInput {
  const result = v.safeParse(SeedFile, input, { abortEarly: false });
  if (!result.success) {
    const first = toIssues(result.issues)[0]!;
    const more = result.issues.length > 1 ? ` (and ${result.issues.length - 1} more)` : '';
    throw new SeedError(`${first.path || 'seed file'}: ${first.message}${more}`);
  }
  checkUnique(result.output);
  return result.output;
}

/** Card refs are unique within an org (they name the cards in the output); admin emails in the file; staff PINs within an org. */
function checkUnique(file: SeedFileInput): void {
  const emails = new Map<string, string>();
  file.orgs.forEach((org, o) => {
    const refs = new Set<string>();
    org.cards.forEach((card, c) => {
      // A reward id names a reward a card already has; a card the file creates has none yet.
      const withId = card.rewards?.findIndex((r) => r.id !== undefined) ?? -1;
      if (withId >= 0) throw new SeedError(`orgs[${o}].cards[${c}].rewards[${withId}].id: a new card's rewards get their ids when it is created; leave id out`);
      if (card.ref === undefined) return;
      if (refs.has(card.ref)) throw new SeedError(`orgs[${o}].cards[${c}].ref: "${card.ref}" is used twice in this org`);
      refs.add(card.ref);
    });
    const pins = new Map<string, number>();
    org.staff.forEach((member, s) => {
      const first = pins.get(member.pin);
      if (first !== undefined) throw new SeedError(`orgs[${o}].staff[${s}].pin: the same PIN as orgs[${o}].staff[${first}]; PINs are unique within an org`);
      pins.set(member.pin, s);
    });
    org.admins.forEach((admin, a) => {
      const email = adminEmailKey(admin.email);
      const where = `orgs[${o}].admins[${a}].email`;
      if (emails.has(email)) throw new SeedError(`${where}: ${admin.email} is already given at ${emails.get(email)}`);
      emails.set(email, where);
    });
  });
}

/** The admins' password hashes, per org and admin, in file order. */
export type SeedPasswordHashes = string[][];

/**
 * Hashes the admins' passwords (scrypt, slow on purpose and async: never inside the transaction).
 * One after another, so a file with many admins never holds more than one hash's 128 MiB.
 */
export async function hashSeedPasswords(file: SeedFileInput): Promise<SeedPasswordHashes> {
  const hashes: SeedPasswordHashes = [];
  for (const org of file.orgs) {
    const ofOrg: string[] = [];
    for (const admin of org.admins) ofOrg.push(await hashPassword(admin.password));
    hashes.push(ofOrg);
  }
  return hashes;
}

/**
 * Creates everything in the file in one transaction: all of it, or (on any error) nothing. A file
 * with admins needs their hashes from hashSeedPasswords first.
 */
export function applySeed(deps: CardDeps, file: SeedFileInput, passwordHashes: SeedPasswordHashes = []): SeedResult {
  return inTransaction(deps.db, () => ({
    orgs: file.orgs.map((orgSeed, o) => {
      const org = createOrg(deps, { name: orgSeed.name });
      if (orgSeed.settings) writeOrgSettings(deps.db, org.id, orgSeed.settings);
      orgSeed.admins.forEach((admin, a) => {
        if (orgsRepo(deps.db).adminEmailTaken(adminEmailKey(admin.email))) {
          throw new SeedError(`orgs[${o}].admins[${a}].email: ${admin.email} is already an admin login in this database`);
        }
        const passwordHash = passwordHashes[o]?.[a];
        if (!passwordHash) throw new Error(`applySeed: orgs[${o}].admins[${a}] has no password hash (call hashSeedPasswords first)`);
        createAdmin(deps, { orgId: org.id, email: admin.email, passwordHash });
      });
      orgSeed.staff.forEach((member) => createStaff(deps, org.id, member));
      const cards = orgSeed.cards.map((config) => ({ ref: config.ref ?? null, cardId: createCard(deps, org.id, config).id }));
      const keys = orgSeed.keys.map((k, i) => {
        const created = createApiKey(deps, { orgId: org.id, deviceName: k.deviceName ?? `key-${i + 1}`, mode: k.mode, scopes: k.scopes, legacy: k.legacy });
        return { deviceName: created.deviceName, mode: created.mode, key: created.key };
      });
      return { orgId: org.id, cards, keys };
    }),
  }));
}
