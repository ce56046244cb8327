import type { Db } from '../db/open';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { hashPassword } from '../lib/password';
import { ApiError } from '../lib/errors';
import { orgsRepo } from './repo';

export interface OrgDeps {
  db: Db;
  clock: Clock;
}

export function createOrg(deps: OrgDeps, input: { name: string }): { id: string; name: string } {
  const id = newId('org');
  orgsRepo(deps.db).insertOrg({ id, name: input.name, createdAt: deps.clock.now() });
  return { id, name: input.name };
}

export function createAdmin(deps: OrgDeps, input: { orgId: string; email: string; password: string }): { id: string; email: string } {
  const repo = orgsRepo(deps.db);
  const email = input.email.trim().toLowerCase();
  if (repo.adminEmailTaken(email)) throw new ApiError(409, 'ADMIN_EMAIL_TAKEN', { detail: email });
  const id = newId('adm');
  repo.insertAdmin({ id, orgId: input.orgId, email, passwordHash: hashPassword(input.password), createdAt: deps.clock.now() });
  return { id, email };
}
