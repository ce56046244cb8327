import { domainToASCII } from 'node:url';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { Db, MigrationStep } from './step';

/**
 * Earlier releases kept a phone's trunk prefix (`+4402079460958` for `+44 (0)20 7946 0958`), took
 * any `+` and digits as E.164, and compared emails as typed (`bücher.de` apart from its xn-- form):
 * such keys never matched what the rules gave at this version. Every stored key is derived again
 * from what was typed (the email and phone columns), and phone answers to phone questions are put
 * in E.164. An answer the phone rule refuses stays as it was: it is the only copy of what the
 * customer gave, and a key that is no longer derived from it would be a guess. updated_at is left
 * alone: nothing the customer or an integrator sees has changed.
 *
 * The email and phone rules below are copies of lib/contact.ts as it was at this version, kept
 * here so that a later change of the program's rules never changes what this step does to a
 * database that is still at version 3 (a later change of the rules that should reach stored keys
 * is a step of its own).
 */
function renormaliseContacts(db: Db): void {
  const phoneKeys = new Map<string, string[]>();
  for (const card of db.prepare('SELECT id, questions FROM cards').all() as { id: string; questions: string }[]) {
    const questions = JSON.parse(card.questions) as { key: string; type: string }[];
    phoneKeys.set(card.id, questions.filter((q) => q.type === 'phone').map((q) => q.key));
  }
  const update = db.prepare('UPDATE customers SET email_norm = @emailNorm, phone_norm = @phoneNorm, custom_fields = @customFields WHERE id = @id');
  const rows = db.prepare('SELECT id, card_id, email, phone, custom_fields FROM customers').all() as { id: string; card_id: string; email: string | null; phone: string | null; custom_fields: string }[];
  for (const row of rows) {
    const answers = JSON.parse(row.custom_fields) as Record<string, unknown>;
    for (const key of phoneKeys.get(row.card_id) ?? []) {
      const normal = typeof answers[key] === 'string' ? normalizePhone(answers[key] as string) : null;
      if (normal) answers[key] = normal;
    }
    update.run({ id: row.id, emailNorm: normalizeEmail(row.email), phoneNorm: normalizePhone(row.phone), customFields: JSON.stringify(answers) });
  }
}

// The email rule at this version: `local@domain`, the local part dot-separated runs of RFC 5322
// atext or non-ASCII letters, marks and digits (at most 64 octets); the domain converted to its
// ASCII (xn--) form, at least two LDH labels, the last not all digits; at most 254 octets in all.
// The normal form is the local part lower-cased (NFC) and the ASCII domain.
const ATOM = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`, 'u');
const DOMAIN_TEXT = /^[\p{L}\p{M}\p{N}.-]+$/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function normalizeEmail(raw: string | null): string | null {
  if (!raw) return null;
  const text = raw.trim();
  const at = text.lastIndexOf('@');
  if (at < 1) return null;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!LOCAL_PART.test(local) || Buffer.byteLength(local) > 64 || !DOMAIN_TEXT.test(domain)) return null;
  const ascii = domainToASCII(domain);
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LDH_LABEL.test(label)) || /^\d+$/.test(labels[labels.length - 1]!)) return null;
  if (Buffer.byteLength(local) + 1 + ascii.length > 254) return null;
  return `${local.toLowerCase().normalize('NFC')}@${ascii}`;
}

// The phone rule at this version: spaces, dashes, dots and brackets stripped; then `+` and at most
// 15 digits, which libphonenumber-js reads into E.164 when the number is possible in its country.
const PHONE_SEPARATORS = /[\s\-.()]/g;

function normalizePhone(raw: string | null): string | null {
  if (!raw) return null;
  const compact = raw.replace(PHONE_SEPARATORS, '');
  if (!/^\+\d{1,15}$/.test(compact)) return null;
  const phone = parsePhoneNumberFromString(compact, { extract: false });
  return phone?.isPossible() ? phone.number : null;
}

export default {
  version: 4,
  name: 'email and phone keys re-normalised by the one email rule and libphonenumber',
  run: renormaliseContacts,
} satisfies MigrationStep;
