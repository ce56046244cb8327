import { decimalsFor, type Card, type Question } from '../cards/model';
import { canonicalAnswer } from '../customers/custom-fields';
import type { CustomFieldValue } from '../customers/model';
import { RESERVED_REF_PREFIXES } from '../customers/refs';
import { isEmail, normalizeTypedPhone, phoneExample, typedPhoneToStore } from '../lib/contact';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { numberMarksOf, readNumberText, type NumberMarks, type NumberReading } from '../lib/number-text';
import type { Mapping, Target } from './mapping';

// One row of the file read into what enroll takes, with the sign-up form's and the API's rules:
// every value is judged before anything is written, and a refusal names the column and says what
// is wrong without repeating the value (the report is kept; the file's contents are not). Phone
// numbers and numbers are read as the shop's country writes them, as the sign-up form reads them.

/** How the shop's people write: national phone numbers of its country, and its decimal mark. */
export interface ShopWriting {
  /** ISO 3166 alpha-2, or null: phone numbers then need their country code. */
  country: string | null;
  marks: NumberMarks | null;
}

export const shopWriting = (country: string | null): ShopWriting => ({ country, marks: numberMarksOf(country) });

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

/** Why a number cell cannot be read, in the report's words. */
function numberProblem(reading: Exclude<NumberReading, { ok: true }>, what: string): string {
  if (reading.problem === 'ambiguous') return `is ambiguous: the “${reading.mark}” could separate thousands or decimals. Write it without a thousands separator, such as 1000`;
  return `is not ${what}`;
}

/** "12", "12.50", "12,50", "1.000", "€ 12.50", "12.50 EUR": the card's units, or an error message. */
function readBalance(card: Card, text: string, marks: NumberMarks | null): number | string {
  // A currency sign or ISO code before or after the number is how spreadsheets often write money.
  const bare = text.replace(/^(?:\p{Sc}|[A-Z]{3}(?=[\s\d]))\s*/u, '').replace(/\s*(?:\p{Sc}|[A-Z]{3})$/u, '');
  const words = unitWords(card);
  const reading = readNumberText(bare, marks);
  if (!reading.ok) return numberProblem(reading, `${words.whole} (such as ${words.example})`);
  const units = reading.value;
  if (units < 0) return 'is below zero: a balance is 0 or more';
  if (!hasAtMostDecimals(units, decimalsFor(card.passType))) return card.passType === 'prepaid_card' ? 'has more than 2 decimals' : `is not ${words.whole} (such as ${words.example})`;
  if (units > MAX_UNITS) return `is more than ${MAX_UNITS.toLocaleString('en-GB')}`;
  return units;
}

/** The refusal of a phone number: the shop's own example when it has a country. */
function phoneMessage(writing: ShopWriting): string {
  const example = phoneExample(writing.country);
  return example ? `is not a phone number (such as ${example.national} or ${example.international})` : 'is not a phone number with its country code (such as +49 170 1234567)';
}

function answerMessage(question: Question, writing: ShopWriting): string {
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
      return phoneMessage(writing);
    case 'date':
      return 'is not a date written as YYYY-MM-DD';
    default:
      return 'cannot be used';
  }
}

/**
 * A cell as the question's answer: a select by its value or its label, a checkbox by yes/no words,
 * a number and a phone number as the shop writes them. A string: why it cannot be read.
 */
function readAnswer(question: Question, text: string, writing: ShopWriting): CustomFieldValue | undefined | { problem: string } {
  if (question.type === 'number') {
    const reading = readNumberText(text, writing.marks);
    return reading.ok ? canonicalAnswer(question, reading.value) : reading.problem === 'ambiguous' ? { problem: numberProblem(reading, 'a number') } : undefined;
  }
  if (question.type === 'phone') return normalizeTypedPhone(text, writing.country) ?? undefined;
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
export function readRow(card: Card, mapping: Mapping, cells: readonly string[], columnName: (i: number) => string, writing: ShopWriting): RowReading {
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
  const phoneToStore = phone.text && phone.text.length <= LIMITS.phone ? typedPhoneToStore(phone.text, writing.country) : null;
  if (phone.text && !phoneToStore) return refuse(phone.i, phoneMessage(writing));

  const external = cell('externalId');
  if (external.text && codePoints(external.text) > 255) return refuse(external.i, 'is longer than 255 characters');
  if (RESERVED_REF_PREFIXES.some((p) => external.text.startsWith(p))) return refuse(external.i, `must not start with ${RESERVED_REF_PREFIXES.join(', ')}`);

  const balance = cell('balance');
  let initialPoints = 0;
  if (balance.text) {
    const read = readBalance(card, balance.text, writing.marks);
    if (typeof read === 'string') return refuse(balance.i, read);
    initialPoints = read;
  }

  const customFields: Record<string, CustomFieldValue> = {};
  for (const question of card.questions) {
    const answer = cell(`q:${question.key}`);
    if (!answer.text) continue;
    const value = readAnswer(question, answer.text, writing);
    if (value === undefined) return refuse(answer.i, answerMessage(question, writing));
    if (typeof value === 'object') return refuse(answer.i, value.problem);
    customFields[question.key] = value;
  }

  if (!name && !email.text && !phone.text && !external.text) return refuse(-1, 'has no name, email, phone or external id: nothing tells this customer apart');
  return {
    ok: true,
    request: { externalCustomerId: external.text || null, name: name || null, email: email.text || null, phone: phoneToStore, initialPoints, customFields },
  };
}
