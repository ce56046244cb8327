import type { Db } from '../db/connection';
import { consentRepo } from '../customers/consent-repo';
import type { Customer } from '../customers/model';

// What a customer agreed to when they signed up, and when: the wording as they saw it (stored once
// per wording, customers/consent-repo.ts), shown on the customer's console page and exported with
// their data. An erasure clears the customer's reference to it; the wording stays, shared by others.

export interface Consent {
  /** The agreement as the customer saw it. */
  text: string;
  /** The first 12 hex digits of the wording's SHA-256: tells two wordings apart at a glance. */
  version: string;
  /** When they agreed (ms). */
  givenAt: number;
}

export const consentVersion = (sha256: string) => sha256.slice(0, 12);

/** The customer's recorded consent, or null (created by another channel than the sign-up form, or erased). */
export function consentOf(db: Db, customer: Pick<Customer, 'consentSha256' | 'consentAt'>): Consent | null {
  if (!customer.consentSha256 || customer.consentAt === null) return null;
  const text = consentRepo(db).text(customer.consentSha256);
  return text === undefined ? null : { text, version: consentVersion(customer.consentSha256), givenAt: customer.consentAt };
}
