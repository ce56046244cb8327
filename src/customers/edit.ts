import { inTransaction } from '../db/transaction';
import { cardsRepo } from '../cards/repo';
import type { Db } from '../db/connection';
import type { WriteDeps } from '../deps';
import { isEmail, normalizeEmail, normalizePhone, phoneAsk, typedPhoneToStore } from '../lib/contact';
import { readOrgSettings, shopCountry } from '../orgs/settings';
import { ApiError, validationFailed, type ValidationIssue } from '../lib/errors';
import { perConnection } from '../db/per-connection';
import { changesRepo, type ContactField, type CustomerChange, type FieldChange } from './changes-repo';
import type { Customer } from './model';
import { customersRepo } from './repo';

// Correcting a customer's name, email and phone (docs/customer-data.md#editing-a-customer): the
// console only; the API still cannot change them. The rules are the sign-up form's (the same
// limits, the email and phone rules of lib/contact), and the card's duplicate rule: an email or
// phone another customer of the card has is refused, since enroll and the counter find customers by
// them. A field the card requires cannot be emptied. A phone number without `+` is a national
// number of the shop's country and is stored as E.164. Each change is recorded with the admin who
// made it.

export type { CustomerChange } from './changes-repo';

/** The changes made to the customer's details (what, who, when), as their console page lists them. */
export function contactChanges(deps: { db: Db }, customerId: string): CustomerChange[] {
  return changesRepo(deps.db).list(customerId);
}

export interface ContactValues {
  name: string;
  email: string;
  phone: string;
}

/** The sign-up form's limits (customer-pages/signup/form.ts CONTACT_LIMITS). */
const LIMITS: Record<ContactField, number> = { name: 200, email: 254, phone: 50 };
const FIELDS: ContactField[] = ['name', 'email', 'phone'];

function createEditRepo(db: Db) {
  const update = db.prepare(
    `UPDATE customers SET name = @name, email = @email, email_norm = @emailNorm, phone = @phone, phone_norm = @phoneNorm, updated_at = @now
     WHERE id = @id AND erased_at IS NULL`,
  );
  // The holder's name is on the pass (Apple's back, Google's account name): a new name is a new pass version.
  const bumpPass = db.prepare('UPDATE customers SET pass_version = pass_version + 1, pass_updated_at = @now WHERE id = @id');
  return {
    update: (row: { id: string; name: string | null; email: string | null; emailNorm: string | null; phone: string | null; phoneNorm: string | null; now: number }) => update.run(row).changes === 1,
    bumpPass: (id: string, now: number) => bumpPass.run({ id, now }),
  };
}
const editRepo = perConnection(createEditRepo);

function check(customer: Customer, required: Record<ContactField, boolean>, typed: ContactValues, country: string | null): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const field of FIELDS) {
    const value = typed[field];
    if (value === '') {
      if (required[field] && customer[field] !== null) issues.push({ path: field, message: `This card asks every customer for their ${field === 'name' ? 'name' : field === 'email' ? 'email address' : 'phone number'}: it cannot be emptied.` });
    } else if (value.length > LIMITS[field]) {
      issues.push({ path: field, message: `At most ${LIMITS[field]} characters.` });
    } else if (field === 'email' && !isEmail(value)) {
      issues.push({ path: field, message: 'Enter an email address such as name@example.com.' });
    } else if (field === 'phone' && !typedPhoneToStore(value, country)) {
      issues.push({ path: field, message: `Enter a phone number ${phoneAsk(country)}.` });
    }
  }
  return issues;
}

/**
 * Writes the new contact values and records the change; returns what changed (nothing written
 * when nothing did). Refusals: 400 VALIDATION_FAILED (issues per field), 409 CONTACT_TAKEN.
 */
export function editCustomerContact(deps: WriteDeps, customer: Customer, values: ContactValues, admin: { id: string; email: string }): FieldChange[] {
  const typed: ContactValues = { name: values.name.trim(), email: values.email.trim(), phone: values.phone.trim() };
  return inTransaction(deps.db, (): FieldChange[] => {
    const current = customersRepo(deps.db).findById(customer, customer.id);
    if (!current) throw new ApiError(404, 'CUSTOMER_NOT_FOUND', { detail: 'there is no such customer; find them in the customer list' });
    const card = cardsRepo(deps.db).findById(current.cardId)!;
    const required = { name: card.signupFields.name === 'required', email: card.signupFields.email === 'required', phone: card.signupFields.phone === 'required' };
    const country = shopCountry(readOrgSettings(deps.db, current.orgId));
    const issues = check(current, required, typed, country);
    if (issues.length) throw validationFailed(issues);

    const next = { name: typed.name || null, email: typed.email || null, phone: typed.phone ? typedPhoneToStore(typed.phone, country) : null };
    const changes: FieldChange[] = FIELDS.filter((f) => next[f] !== current[f]).map((f) => ({ field: f, from: current[f], to: next[f] }));
    if (changes.length === 0) return [];

    const emailNorm = normalizeEmail(next.email);
    const phoneNorm = normalizePhone(next.phone);
    const repo = customersRepo(deps.db);
    const holder = (others: Customer[]) => others.find((o) => o.id !== current.id);
    const emailHolder = emailNorm && emailNorm !== current.emailNorm ? holder(repo.findByEmail(current, emailNorm, current.cardId)) : undefined;
    const phoneHolder = phoneNorm && phoneNorm !== current.phoneNorm ? holder(repo.findByPhone(current, phoneNorm, current.cardId)) : undefined;
    const taken = emailHolder ? { field: 'email', who: emailHolder } : phoneHolder ? { field: 'phone', who: phoneHolder } : null;
    if (taken) {
      const word = taken.field === 'email' ? 'email address' : 'phone number';
      throw new ApiError(409, 'CONTACT_TAKEN', {
        detail: `another customer of this card (${taken.who.name ?? `pu_${taken.who.id}`}) has this ${word}; each ${word} belongs to one customer of a card`,
        extra: { field: taken.field },
      });
    }

    const now = deps.clock.now();
    editRepo(deps.db).update({ id: current.id, ...next, emailNorm, phoneNorm, now });
    if (changes.some((c) => c.field === 'name')) {
      editRepo(deps.db).bumpPass(current.id, now);
      deps.onChange.balanceChanged(deps, current.id);
    }
    changesRepo(deps.db).insert(current.id, { kind: 'edit', channel: 'console', adminId: admin.id, adminEmail: admin.email, changes, createdAt: now });
    return changes;
  });
}
