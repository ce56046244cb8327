import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { sha256Hex } from '../lib/secrets';

// The wordings customers agreed to on the sign-up form (the agreement as the owner wrote it in
// Settings). Each wording is stored once, keyed by its SHA-256; the customer row names the wording
// and the time. The owner may reword the agreement later: every customer keeps the wording they
// ticked. Enrolment records it; privacy/consent.ts reads it back for the console and the export.

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
