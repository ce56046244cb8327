import * as v from 'valibot';
import { createCard, type CardDeps } from '../cards/service';
import { createApiKey } from '../keys/service';
import type { Mode } from '../keys/scopes';
import { toIssues } from '../lib/validation';
import { createAdmin, createOrg } from '../orgs/service';
import { SeedFile, type SeedFileInput } from './schema';

export interface SeedResult {
  orgs: { orgId: string; cards: { ref: string | null; cardId: string }[]; keys: { deviceName: string; mode: Mode; key: string }[] }[];
}

export class SeedError extends Error {}

/** Validates a parsed seed file; the error's one line names the first bad field. */
export function parseSeedFile(input: unknown): SeedFileInput {
  const result = v.safeParse(SeedFile, input, { abortEarly: false });
  if (result.success) return result.output;
  const first = toIssues(result.issues)[0]!;
  const more = result.issues.length > 1 ? ` (and ${result.issues.length - 1} more)` : '';
  throw new SeedError(`${first.path || 'seed file'}: ${first.message}${more}`);
}

/** Creates everything in the file in one transaction: all of it, or (on any error) nothing. */
export function applySeed(deps: CardDeps, file: SeedFileInput): SeedResult {
  return deps.db.transaction(() => ({
    orgs: file.orgs.map((orgSeed) => {
      const org = createOrg(deps, { name: orgSeed.name });
      for (const admin of orgSeed.admins) createAdmin(deps, { orgId: org.id, email: admin.email, password: admin.password });
      const cards = orgSeed.cards.map((config) => ({ ref: config.ref ?? null, cardId: createCard(deps, org.id, config).id }));
      const keys = orgSeed.keys.map((k) => {
        const created = createApiKey(deps, { orgId: org.id, deviceName: k.deviceName, mode: k.mode, scopes: k.scopes, legacy: k.legacy });
        return { deviceName: created.deviceName, mode: created.mode, key: created.key };
      });
      return { orgId: org.id, cards, keys };
    }),
  }))();
}
