import { decimalsFor, type Card, type Question } from '../cards/model';
import { canonicalAnswer } from '../customers/custom-fields';
import type { CustomFieldValue } from '../customers/model';
import { RESERVED_REF_PREFIXES } from '../customers/refs';
import { isEmail, normalizeTypedPhone, phoneExample, typedPhoneToStore } from '../lib/contact';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { numberMarksOf, readNumberText, type NumberMarks, type NumberReading } from '../lib/number-text';
import { reason, type Reason } from '../lib/reasons';
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

/** Why a cell or a row is refused: the report's English, and the same as values (lib/reasons.ts). */
export interface RowRefusal {
  message: string;
  reason: Reason;
}

const refusal = (message: string, why: Reason): RowRefusal => ({ message, reason: why });

export type RowReading = { ok: true; request: RowRequest } | ({ ok: false; column: string | null } & RowRefusal);

const LIMITS = { name: 200, email: 254, phone: 50 } as const;
const TRUE_WORDS = new Set(['yes', 'y', 'true', '1', 'x', 'ja', 'oui', 'si', 'sí']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0', 'nein', 'non']);

const codePoints = (text: string) => [...text].length;

function unitWords(card: Card): { whole: string; example: string; kind: 'stamps' | 'points' | 'money' } {
  if (card.passType === 'stamp_card') return { whole: 'a whole number of stamps', example: '7', kind: 'stamps' };
  if (card.passType === 'prepaid_card') return { whole: 'an amount of money', example: '12.50', kind: 'money' };
  return { whole: 'a whole number of points', example: '120', kind: 'points' };
}

/** Why a number cell cannot be read, in the report's words: ambiguous, else `otherwise`. */
function numberProblem(reading: Exclude<NumberReading, { ok: true }>, otherwise: RowRefusal): RowRefusal {
  if (reading.problem === 'ambiguous') {
    return refusal(`is ambiguous: the “${reading.mark}” could separate thousands or decimals. Write it without a thousands separator, such as 1000`, reason('row.ambiguous', { mark: reading.mark }));
  }
  return otherwise;
}

/** "12", "12.50", "12,50", "1.000", "€ 12.50", "12.50 EUR": the card's units, or why not. */
function readBalance(card: Card, text: string, marks: NumberMarks | null): number | RowRefusal {
  // A currency sign or ISO code before or after the number is how spreadsheets often write money.
  const bare = text.replace(/^(?:\p{Sc}|[A-Z]{3}(?=[\s\d]))\s*/u, '').replace(/\s*(?:\p{Sc}|[A-Z]{3})$/u, '');
  const words = unitWords(card);
  const notUnits = refusal(`is not ${words.whole} (such as ${words.example})`, reason('row.notBalance', { kind: words.kind, example: words.example }));
  const reading = readNumberText(bare, marks);
  if (!reading.ok) return numberProblem(reading, notUnits);
  const units = reading.value;
  if (units < 0) return refusal('is below zero: a balance is 0 or more', reason('row.belowZero'));
  if (!hasAtMostDecimals(units, decimalsFor(card.passType))) return card.passType === 'prepaid_card' ? refusal('has more than 2 decimals', reason('row.decimals')) : notUnits;
  if (units > MAX_UNITS) return refusal(`is more than ${MAX_UNITS.toLocaleString('en-GB')}`, reason('row.tooMuch', { max: MAX_UNITS }));
  return units;
}

/** The refusal of a phone number: the shop's own example when it has a country. */
function phoneRefusal(writing: ShopWriting): RowRefusal {
  const example = phoneExample(writing.country);
  if (example) return refusal(`is not a phone number (such as ${example.national} or ${example.international})`, reason('row.notPhone', example));
  const international = '+49 170 1234567';
  return refusal(`is not a phone number with its country code (such as ${international})`, reason('row.notPhoneIntl', { international }));
}

function answerRefusal(question: Question, writing: ShopWriting): RowRefusal {
  switch (question.type) {
    case 'number':
      return refusal('is not a number', reason('row.notNumber'));
    case 'checkbox':
      return refusal('is not yes or no', reason('row.notYesNo'));
    case 'select': {
      const choices = (question.options ?? []).map((o) => o.label).join(', ');
      return refusal(`is not one of the choices (${choices})`, reason('row.notChoice', { choices }));
    }
    case 'email':
      return refusal('is not an email address', reason('row.notEmail'));
    case 'phone':
      return phoneRefusal(writing);
    case 'date':
      return refusal('is not a date written as YYYY-MM-DD', reason('row.notDate'));
    default:
      return refusal('cannot be used', reason('row.unusable'));
  }
}

/**
 * A cell as the question's answer: a select by its value or its label, a checkbox by yes/no words,
 * a number and a phone number as the shop writes them. A string: why it cannot be read.
 */
function readAnswer(question: Question, text: string, writing: ShopWriting): CustomFieldValue | undefined | { problem: RowRefusal } {
  if (question.type === 'number') {
    const reading = readNumberText(text, writing.marks);
    return reading.ok ? canonicalAnswer(question, reading.value) : reading.problem === 'ambiguous' ? { problem: numberProblem(reading, answerRefusal(question, writing)) } : undefined;
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
  const refuse = (i: number, why: RowRefusal): RowReading => ({ ok: false, column: i === -1 ? null : columnName(i), ...why });
  const tooLong = (max: number) => refusal(`is longer than ${max} characters`, reason('row.tooLong', { max }));

  const full = nameCell('name');
  const first = nameCell('firstName');
  const last = nameCell('lastName');
  const nameColumn = full.i !== -1 ? full.i : first.i !== -1 ? first.i : last.i;
  const name = full.i !== -1 ? full.text : [first.text, last.text].filter(Boolean).join(' ');
  if (codePoints(name) > LIMITS.name) return refuse(nameColumn, tooLong(LIMITS.name));

  const email = cell('email');
  if (email.text && (email.text.length > LIMITS.email || !isEmail(email.text))) return refuse(email.i, refusal('is not an email address (such as name@example.com)', reason('row.notEmail')));

  const phone = cell('phone');
  const phoneToStore = phone.text && phone.text.length <= LIMITS.phone ? typedPhoneToStore(phone.text, writing.country) : null;
  if (phone.text && !phoneToStore) return refuse(phone.i, phoneRefusal(writing));

  const external = cell('externalId');
  if (external.text && codePoints(external.text) > 255) return refuse(external.i, tooLong(255));
  if (RESERVED_REF_PREFIXES.some((p) => external.text.startsWith(p))) {
    const prefixes = RESERVED_REF_PREFIXES.join(', ');
    return refuse(external.i, refusal(`must not start with ${prefixes}`, reason('row.prefix', { prefixes })));
  }

  const balance = cell('balance');
  let initialPoints = 0;
  if (balance.text) {
    const read = readBalance(card, balance.text, writing.marks);
    if (typeof read !== 'number') return refuse(balance.i, read);
    initialPoints = read;
  }

  const customFields: Record<string, CustomFieldValue> = {};
  for (const question of card.questions) {
    const answer = cell(`q:${question.key}`);
    if (!answer.text) continue;
    const value = readAnswer(question, answer.text, writing);
    if (value === undefined) return refuse(answer.i, answerRefusal(question, writing));
    if (typeof value === 'object') return refuse(answer.i, value.problem);
    customFields[question.key] = value;
  }

  if (!name && !email.text && !phone.text && !external.text) {
    return refuse(-1, refusal('has no name, email, phone or external id: nothing tells this customer apart', reason('row.nobody')));
  }
  return {
    ok: true,
    request: { externalCustomerId: external.text || null, name: name || null, email: email.text || null, phone: phoneToStore, initialPoints, customFields },
  };
}
