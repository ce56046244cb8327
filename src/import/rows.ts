import { decimalsFor, type Card, type Question } from '../cards/model';
import { canonicalAnswer } from '../customers/custom-fields';
import type { CustomFieldValue } from '../customers/model';
import { RESERVED_REF_PREFIXES } from '../customers/refs';
import { isEmail, normalizePhone } from '../lib/contact';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import type { Mapping, Target } from './mapping';

// One row of the file read into what enroll takes, with the sign-up form's and the API's rules:
// every value is judged before anything is written, and a refusal names the column and says what
// is wrong without repeating the value (the report is kept; the file's contents are not).

/** What a row asks for: enroll's request, less the card. */
export interface RowRequest {
  externalCustomerId: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  /** Units of the card (whole, or cents on store credit); 0 when the row gives none. */
  initialPoints: number;
  customFields: Record<string, CustomFieldValue>;
}

export type RowReading = { ok: true; request: RowRequest } | { ok: false; column: string | null; message: string };

const LIMITS = { name: 200, email: 254, phone: 50 } as const;
const TRUE_WORDS = new Set(['yes', 'y', 'true', '1', 'x', 'ja', 'oui', 'si', 'sí']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0', 'nein', 'non']);

const codePoints = (text: string) => [...text].length;

function unitWords(card: Card): { whole: string; example: string } {
  if (card.passType === 'stamp_card') return { whole: 'a whole number of stamps', example: '7' };
  if (card.passType === 'prepaid_card') return { whole: 'an amount of money', example: '12.50' };
  return { whole: 'a whole number of points', example: '120' };
}

/** "12", "12.50", "12,50", "€ 12.50", "12.50 EUR": the card's units, or an error message. */
function readBalance(card: Card, text: string): number | string {
  // A currency sign or ISO code before or after the number is how spreadsheets often write money.
  const bare = text.replace(/^(?:\p{Sc}|[A-Z]{3}(?=[\s\d]))\s*/u, '').replace(/\s*(?:\p{Sc}|[A-Z]{3})$/u, '');
  const words = unitWords(card);
  if (!/^-?\d+(?:[.,]\d+)?$/.test(bare)) return `is not ${words.whole} (such as ${words.example})`;
  const units = Number(bare.replace(',', '.'));
  if (units < 0) return 'is below zero: a balance is 0 or more';
  if (!hasAtMostDecimals(units, decimalsFor(card.passType))) return card.passType === 'prepaid_card' ? 'has more than 2 decimals' : `is not ${words.whole} (such as ${words.example})`;
  if (units > MAX_UNITS) return `is more than ${MAX_UNITS.toLocaleString('en-GB')}`;
  return units;
}

function answerMessage(question: Question): string {
  switch (question.type) {
    case 'number':
      return 'is not a number';
    case 'checkbox':
      return 'is not yes or no';
    case 'select':
      return `is not one of the choices (${(question.options ?? []).map((o) => o.label).join(', ')})`;
    case 'email':
      return 'is not an email address';
    case 'phone':
      return 'is not a phone number with its country code (such as +49 170 1234567)';
    case 'date':
      return 'is not a date written as YYYY-MM-DD';
    default:
      return 'cannot be used';
  }
}

/** A cell as the question's answer: a select by its value or its label, a checkbox by yes/no words. */
function readAnswer(question: Question, text: string): CustomFieldValue | undefined {
  if (question.type === 'checkbox') {
    const word = text.toLowerCase();
    return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : undefined;
  }
  if (question.type === 'select') {
    const byLabel = (question.options ?? []).find((o) => o.label.toLowerCase() === text.toLowerCase());
    return canonicalAnswer(question, text) ?? byLabel?.value;
  }
  return canonicalAnswer(question, text);
}

/**
 * Reads one data row by the mapping. `columnName(i)` names column i in messages (its header).
 * A row needs a name, email, phone or external id: without one, nobody could ever tell the
 * customer apart.
 */
export function readRow(card: Card, mapping: Mapping, cells: readonly string[], columnName: (i: number) => string): RowReading {
  const cell = (target: Target) => {
    const i = mapping.indexOf(target);
    return i === -1 ? { i, text: '' } : { i, text: (cells[i] ?? '').trim() };
  };
  // A line break or a run of spaces inside a name is what a spreadsheet cell let through, not part of it.
  const nameCell = (target: Target) => {
    const c = cell(target);
    return { ...c, text: c.text.replace(/\s+/g, ' ') };
  };
  const refuse = (i: number, message: string): RowReading => ({ ok: false, column: i === -1 ? null : columnName(i), message });

  const full = nameCell('name');
  const first = nameCell('firstName');
  const last = nameCell('lastName');
  const nameColumn = full.i !== -1 ? full.i : first.i !== -1 ? first.i : last.i;
  const name = full.i !== -1 ? full.text : [first.text, last.text].filter(Boolean).join(' ');
  if (codePoints(name) > LIMITS.name) return refuse(nameColumn, `is longer than ${LIMITS.name} characters`);

  const email = cell('email');
  if (email.text && (email.text.length > LIMITS.email || !isEmail(email.text))) return refuse(email.i, 'is not an email address (such as name@example.com)');

  const phone = cell('phone');
  if (phone.text && (phone.text.length > LIMITS.phone || !normalizePhone(phone.text))) {
    return refuse(phone.i, 'is not a phone number with its country code (such as +49 170 1234567)');
  }

  const external = cell('externalId');
  if (external.text && codePoints(external.text) > 255) return refuse(external.i, 'is longer than 255 characters');
  if (RESERVED_REF_PREFIXES.some((p) => external.text.startsWith(p))) return refuse(external.i, `must not start with ${RESERVED_REF_PREFIXES.join(', ')}`);

  const balance = cell('balance');
  let initialPoints = 0;
  if (balance.text) {
    const read = readBalance(card, balance.text);
    if (typeof read === 'string') return refuse(balance.i, read);
    initialPoints = read;
  }

  const customFields: Record<string, CustomFieldValue> = {};
  for (const question of card.questions) {
    const answer = cell(`q:${question.key}`);
    if (!answer.text) continue;
    const value = readAnswer(question, answer.text);
    if (value === undefined) return refuse(answer.i, answerMessage(question));
    customFields[question.key] = value;
  }

  if (!name && !email.text && !phone.text && !external.text) return refuse(-1, 'has no name, email, phone or external id: nothing tells this customer apart');
  return {
    ok: true,
    request: { externalCustomerId: external.text || null, name: name || null, email: email.text || null, phone: phone.text || null, initialPoints, customFields },
  };
}
