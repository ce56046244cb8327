import { conflict, notFound } from '../lib/errors';
import { maskEmail, maskPhone, normalizeEmail, normalizePhone, phoneFromUrl } from '../lib/contact';
import type { Db } from '../db/connection';
import type { Customer, Namespace } from './model';
import { customersRepo } from './repo';

/** The four forms of `{ref}`: externalCustomerId, `pu_<passUserId>`, `email:<email>`, `phone:<E.164>`. */
export type CustomerRef =
  | { kind: 'passUserId'; passUserId: string }
  | { kind: 'email'; email: string }
  | { kind: 'phone'; phone: string }
  | { kind: 'externalCustomerId'; externalCustomerId: string };

/** externalCustomerIds may not start with these, so a ref is never ambiguous. */
export const RESERVED_REF_PREFIXES = ['pu_', 'email:', 'phone:'] as const;

export function parseRef(raw: string): CustomerRef {
  if (raw.startsWith('pu_')) return { kind: 'passUserId', passUserId: raw.slice(3) };
  if (raw.startsWith('email:')) return { kind: 'email', email: raw.slice(6) };
  if (raw.startsWith('phone:')) return { kind: 'phone', phone: raw.slice(6) };
  return { kind: 'externalCustomerId', externalCustomerId: raw };
}

/**
 * Several customers share an email or phone: 409 AMBIGUOUS_CUSTOMER_MATCH with masked candidates
 * so the caller can choose a more precise ref without learning the contacts.
 */
export function ambiguous(matchedBy: 'email' | 'phone', candidates: Customer[]) {
  return conflict('AMBIGUOUS_CUSTOMER_MATCH', undefined, {
    matchedBy,
    candidates: candidates.map((c) => ({
      passUserId: c.id,
      contact: matchedBy === 'email' ? maskEmail(c.email ?? c.emailNorm ?? '') : maskPhone(c.phoneNorm ?? ''),
    })),
  });
}

/** Exactly one match, none (undefined) or 409: the rule for every email/phone lookup. */
export function single(matchedBy: 'email' | 'phone', matches: Customer[]): Customer | undefined {
  if (matches.length > 1) throw ambiguous(matchedBy, matches);
  return matches[0];
}

export function findByEmail(db: Db, n: Namespace, email: string, cardId?: string): Customer | undefined {
  const normal = normalizeEmail(email);
  return normal ? single('email', customersRepo(db).findByEmail(n, normal, cardId)) : undefined;
}

export function findByPhone(db: Db, n: Namespace, phone: string, cardId?: string): Customer | undefined {
  const normal = normalizePhone(phone);
  return normal ? single('phone', customersRepo(db).findByPhone(n, normal, cardId)) : undefined;
}

/** The customer behind a `{ref}` in the caller's org and mode: 404 CUSTOMER_NOT_FOUND, or 409 when ambiguous. */
export function resolveCustomer(db: Db, n: Namespace, raw: string): Customer {
  const ref = parseRef(raw);
  const repo = customersRepo(db);
  let found: Customer | undefined;
  switch (ref.kind) {
    case 'passUserId':
      found = repo.findById(n, ref.passUserId);
      break;
    case 'externalCustomerId':
      found = repo.findByExternalId(n, ref.externalCustomerId);
      break;
    case 'email':
      found = findByEmail(db, n, ref.email);
      break;
    case 'phone':
      found = findByPhone(db, n, phoneFromUrl(ref.phone));
      break;
  }
  if (!found) throw notFound('CUSTOMER_NOT_FOUND', raw);
  return found;
}
