import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import type { Customer } from './model';
import { sha256Hex } from '../lib/secrets';

// What a customer agreed to when they signed up (the sign-up form's agreement, as the owner wrote
// it in Settings) and when. Each wording is stored once, keyed by its SHA-256; the customer row
// names the wording and the time. The owner may reword the agreement later: every customer keeps
// the wording they ticked.

export interface Consent {
  /** The agreement as the customer saw it. */
  text: string;
  /** The first 12 hex digits of the wording's SHA-256: tells two wordings apart at a glance. */
  version: string;
  /** When they agreed (ms). */
  givenAt: number;
}


export const consentVersion = (sha256: string) => sha256.slice(0, 12);

function createConsentRepo(db: Db) {
  const insert = db.prepare('INSERT INTO consent_texts (sha256, text, created_at) VALUES (@sha256, @text, @now) ON CONFLICT DO NOTHING');
  const text = db.prepare<[string], string>('SELECT text FROM consent_texts WHERE sha256 = ?').pluck();
  return {
    /** Stores the wording (once) and returns its key. Inside the enrolment's transaction. */
    record(wording: string, now: number): string {
      const sha256 = sha256Hex(wording);
      insert.run({ sha256, text: wording, now });
      return sha256;
    },
    text: (sha256: string) => text.get(sha256),
  };
}

export const consentRepo = perConnection(createConsentRepo);

/** The customer's recorded consent, or null (created by another channel than the sign-up form, or erased). */
export function consentOf(db: Db, customer: Pick<Customer, 'consentSha256' | 'consentAt'>): Consent | null {
  if (!customer.consentSha256 || customer.consentAt === null) return null;
  const text = consentRepo(db).text(customer.consentSha256);
  return text === undefined ? null : { text, version: consentVersion(customer.consentSha256), givenAt: customer.consentAt };
}
