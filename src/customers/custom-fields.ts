import { findQuestion, RESERVED_KEYS, type Card, type Question } from '../cards/model';
import { ApiError, validationFailed } from '../lib/errors';
import { isEmail, normalizePhone } from '../lib/contact';
import type { CustomFieldValue } from './model';

// Answers to a card's questions (`customFields`). Every writer of custom fields (enroll,
// PATCH, the sign-up form, the console) goes through validateCustomFields, so "values are written
// as the card's sign-up form writes them" holds by construction.
//
// Precedence, when a request has several kinds of bad entry: one 400 names every bad key of the
// FIRST failing category, in this order (from the key to its value, as
// docs/api.md#where-the-contract-left-a-choice lists it):
//   1. RESERVED_CUSTOM_FIELDS            key is name, email, phone, status or custom (any case)
//   2. UNKNOWN_CUSTOM_FIELDS             key is not a question of the card
//   3. VALIDATION_FAILED                 two keys name the same question (`size` and `SIZE`)
//   4. INVALID_CUSTOM_FIELD_VALUES       value is not a string, number or boolean (null included)
//   5. CUSTOM_FIELD_VALUE_TYPE_MISMATCH  value does not fit the question's type
// Key problems come first because a value cannot be judged without its question.

export type CustomFields = Record<string, CustomFieldValue>;

const RESERVED = new Set<string>(RESERVED_KEYS);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A number question also takes the digits a form field sends as text ("42", "-1.5"), never letters.
const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;

function isRealDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The canonical stored form of one scalar answer, or undefined when it does not fit the question:
 * numbers as numbers, checkboxes as booleans, select as the option's own `value`, the rest as strings.
 */
export function canonicalAnswer(question: Question, value: CustomFieldValue): CustomFieldValue | undefined {
  switch (question.type) {
    case 'number': {
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      if (typeof value !== 'string' || !NUMERIC_TEXT.test(value.trim())) return undefined;
      // Digits can still lie past the largest number: Infinity would be stored as JSON null.
      const number = Number(value.trim());
      return Number.isFinite(number) ? number : undefined;
    }
    case 'checkbox':
      return typeof value === 'boolean' ? value : undefined;
    case 'select': {
      // The value must equal an option's `value` (a number equals its digits, so
      // 1 picks option "1"); another case or spacing is a value outside the options.
      if (typeof value === 'boolean') return undefined;
      return (question.options ?? []).find((o) => o.value === String(value))?.value;
    }
    case 'email': {
      if (typeof value !== 'string') return undefined;
      // Kept as typed (trimmed), like the customer's own email; the rule is lib/contact's.
      const email = value.trim();
      return isEmail(email) ? email : undefined;
    }
    case 'phone':
      return typeof value === 'string' ? (normalizePhone(value) ?? undefined) : undefined;
    case 'date': {
      if (typeof value !== 'string') return undefined;
      const date = value.trim();
      return isRealDate(date) ? date : undefined;
    }
    case 'text':
      // A number typed into a text question is still text; a boolean is not.
      return typeof value === 'boolean' ? undefined : String(value);
  }
}

function isScalar(value: unknown): value is CustomFieldValue {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function refuse(code: string, keys: string[], suffix = ''): ApiError {
  return new ApiError(400, code, { detail: `${keys.join(', ')}${suffix}`, extra: { keys } });
}

/**
 * Checks answers against the card's questions and returns them canonical, keyed by each
 * question's own key (`MEMBERNO` → `memberNo`). Throws one 400 (see the precedence above);
 * on success every sent entry is in the result: nothing is silently dropped.
 */
export function validateCustomFields(card: Card, input: Record<string, unknown>): CustomFields {
  const entries = Object.entries(input);

  const reserved = entries.filter(([key]) => RESERVED.has(key.toLowerCase())).map(([key]) => key);
  if (reserved.length) throw refuse('RESERVED_CUSTOM_FIELDS', reserved);

  const matched = entries.map(([key, value]) => ({ key, value, question: findQuestion(card, key) }));
  const unknown = matched.filter((m) => !m.question).map((m) => m.key);
  if (unknown.length) throw refuse('UNKNOWN_CUSTOM_FIELDS', unknown);

  const firstKeyFor = new Map<string, string>();
  const duplicates: { path: string; message: string }[] = [];
  for (const m of matched) {
    const first = firstKeyFor.get(m.question!.key);
    if (first === undefined) firstKeyFor.set(m.question!.key, m.key);
    else duplicates.push({ path: `customFields.${m.key}`, message: `names the same question as ${first}` });
  }
  if (duplicates.length) throw validationFailed(duplicates);

  const invalid = matched.filter((m) => !isScalar(m.value)).map((m) => m.key);
  if (invalid.length) throw refuse('INVALID_CUSTOM_FIELD_VALUES', invalid, ' (expected a string, number or boolean)');

  const out: CustomFields = {};
  const mismatched: string[] = [];
  for (const m of matched) {
    const canonical = canonicalAnswer(m.question!, m.value as CustomFieldValue);
    if (canonical === undefined) mismatched.push(m.key);
    else out[m.question!.key] = canonical;
  }
  if (mismatched.length) throw refuse('CUSTOM_FIELD_VALUE_TYPE_MISMATCH', mismatched, " (value does not match the field's declared type)");
  return out;
}

/** The stored answers with the new ones laid over them; `changed` is false when nothing differs. */
export function mergeCustomFields(current: CustomFields, updates: CustomFields): { merged: CustomFields; changed: boolean } {
  const changed = Object.entries(updates).some(([key, value]) => !Object.hasOwn(current, key) || current[key] !== value);
  return { merged: { ...current, ...updates }, changed };
}
