import { isConsoleLang, type ConsoleLang } from '../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../i18n/translate';
import { ApiError, isInWords } from '../lib/errors';
import { MAX_FILE_BYTES } from '../import/csv-file';
import { REFUSED_VALUES_DAYS } from '../import/service';
import { formErrorsFrom, humanMessage, type FormErrors } from '../web/forms';
import type { PageWording } from '../web/errors';

// The services below the console (customers, cards, webhooks, the import) refuse in the API's
// English, which integrators and the CLI read. The console shows their refusals in the admin's
// language from here, in one place: an error by its code, and an English message (a validation
// issue, an import row's refusal) by its wording, values and all. English admins read the API's
// own words; a German admin never reads English: a code nobody worded yet names itself.

type Wording = readonly [ConsoleKey, MessageParams?];

/** Refusals by code, as a German admin reads them. */
const BY_CODE: Readonly<Record<string, (err: ApiError) => Wording>> = {
  CUSTOMER_NOT_FOUND: () => ['console.refusal.gone'],
  CARD_NOT_FOUND: () => ['console.refusal.gone'],
  CARD_NOT_IN_ORG: () => ['console.refusal.gone'],
  IMPORT_NOT_FOUND: () => ['console.refusal.gone'],
  WEBHOOK_NOT_FOUND: () => ['console.refusal.gone'],
  DELIVERY_NOT_FOUND: () => ['console.refusal.gone'],
  KEY_NOT_FOUND: () => ['console.refusal.gone'],
  STAFF_NOT_FOUND: () => ['console.refusal.gone'],
  PROMOTION_NOT_FOUND: () => ['console.refusal.gone'],
  MESSAGE_NOT_FOUND: () => ['console.refusal.gone'],
  BACKUP_NOT_FOUND: () => ['console.refusal.gone'],
  TRANSACTION_NOT_FOUND: () => ['console.refusal.gone'],
  CUSTOMER_IN_OTHER_MODE: (err) => ['console.refusal.otherMode', { mode: /your live data/.test(err.message) ? 'live' : 'test' }],
  INVALID_CURSOR: () => ['console.refusal.staleLink'],
  IMPORT_NOT_DONE: () => ['console.refusal.importNotDone'],
  IMPORT_NOT_CHECKED: () => ['console.refusal.importNotChecked'],
  REFUSED_ROWS_GONE: () => ['console.refusal.refusedRowsGone', { days: REFUSED_VALUES_DAYS }],
  MAIL_OFF: () => ['console.refusal.mailOff'],
  UPLOAD_UNREADABLE: () => ['console.refusal.uploadUnreadable'],
  FILE_TOO_LARGE: () => ['console.refusal.fileTooLarge', { mb: MAX_FILE_BYTES / 1024 / 1024 }],
  INSUFFICIENT_BALANCE: (err) => valuesOf(err, /the balance is ([\d.]+); this needs ([\d.]+)$/, (m) => ['console.refusal.balanceLow', { balance: Number(m[1]), needed: Number(m[2]) }]),
  AWARD_WAIT_ACTIVE: (err) => valuesOf(err, /once every (\d+) s; retry after (\d+) s$/, (m) => ['console.refusal.limitWait', { wait: Number(m[1]), retry: Number(m[2]) }]),
  AWARD_MAX_PER_AWARD: (err) => valuesOf(err, /at most ([\d.]+) at a time; this award is ([\d.]+)$/, (m) => ['console.refusal.limitMax', { max: Number(m[1]), amount: Number(m[2]) }]),
  AWARD_PERIOD_LIMIT: (err) =>
    valuesOf(err, /at most ([\d.]+) per (day|week|month) \(rolling\); ([\d.]+) awarded in that window, this award is ([\d.]+)$/, (m) => [
      'console.refusal.limitPeriod',
      { max: Number(m[1]), period: m[2]!, awarded: Number(m[3]), amount: Number(m[4]) },
    ]),
  UNSUPPORTED_FOR_CARD_TYPE: () => ['console.refusal.notOnCard'],
  INVALID_EMAIL: () => ['console.refusal.invalidEmail'],
  NOT_AVAILABLE_IN_TEST_MODE: () => ['console.refusal.liveOnly'],
  EXTERNAL_ID_TAKEN: () => ['console.refusal.taken', { field: 'externalId' }],
  CONTACT_TAKEN: (err) => ['console.refusal.taken', { field: err.extra.field === 'phone' ? 'phone' : 'email' }],
};

/** The values an English reason carries, read back out; a reason of another shape names its code. */
function valuesOf(err: ApiError, pattern: RegExp, wording: (m: RegExpExecArray) => Wording): Wording {
  const m = pattern.exec(err.message);
  return m ? wording(m) : ['console.refusal.other', { code: err.code }];
}

const SAME: Readonly<Record<string, string>> = { email: 'email', phone: 'phone', 'external id': 'externalId' };
const KINDS: Readonly<Record<string, string>> = { 'a whole number of stamps': 'stamps', 'a whole number of points': 'points', 'an amount of money': 'money' };
const digits = (text: string) => Number(text.replace(/[^\d]/g, ''));

/** English messages of the services (validation issues, import rows) by their wording, values read back out. */
const BY_WORDING: readonly (readonly [RegExp, (m: RegExpExecArray) => Wording])[] = [
  [/^invalid length: Expected <=(\d+) but received \d+\.?$/, (m) => ['console.refusal.tooLong', { max: Number(m[1]) }]],
  [/^points to a private, loopback or otherwise internal address/, () => ['console.refusal.privateAddress']],
  [/^must be at most (\d+)$/, (m) => ['console.refusal.tooMuch', { max: Number(m[1]) }]],
  [/^must be a whole number on a \w+$/, () => ['console.refusal.wholeOnly']],
  [/^the balance would pass (\d+) \(it is ([\d.]+)\)$/, (m) => ['console.refusal.balanceCap', { max: Number(m[1]), balance: Number(m[2]) }]],
  // The import's mapping form.
  [/^choose a field from the list\.$/, () => ['console.refusal.map.pick']],
  [/^“(.*)” already goes there: choose one column for each field\.$/, (m) => ['console.refusal.map.twice', { column: m[1]! }]],
  [/^choose either Name, or First name and Last name\.$/, () => ['console.refusal.map.nameOrParts']],
  [/^some columns need another choice\.$/, () => ['console.refusal.map.someColumns']],
  [/^choose a column for at least one of name, email, phone or external id/, () => ['console.refusal.map.noIdentity']],
  // The import's file.
  [/^the file is empty\.$/, () => ['console.refusal.file.empty']],
  [/^the file is larger than (\d+) MB \(([\d.]+) MB\)/, (m) => ['console.refusal.file.tooLarge', { max: Number(m[1]), size: m[2]! }]],
  [/^this is (a spreadsheet workbook|an old Excel workbook)/, () => ['console.refusal.file.workbook']],
  [/^this is not a CSV file \(it is not plain text\)/, () => ['console.refusal.file.notText']],
  [/^the file holds only blank lines/, () => ['console.refusal.file.blank']],
  [/^(?:row (\d+)|the header) has ([\d,]+) columns; a customer file has at most (\d+)\./, (m) => ['console.refusal.file.columns', { row: m[1] ?? 'header', count: m[2]!, max: Number(m[3]) }]],
  [/^the file has more than ([\d,]+) empty rows/, (m) => ['console.refusal.file.emptyRows', { max: m[1]! }]],
  [/^the file has more than ([\d,]+) customer rows/, (m) => ['console.refusal.file.tooManyRows', { max: m[1]! }]],
  [/^the file could not be read as CSV/, () => ['console.refusal.file.notCsv']],
  [/^the file has no header row/, () => ['console.refusal.file.noHeader']],
  [/^the file has a header but no customer rows\.$/, () => ['console.refusal.file.noRows']],
  // The import's rows.
  [/^is longer than (\d+) characters$/, (m) => ['console.refusal.row.tooLong', { max: Number(m[1]) }]],
  [/^is not an email address/, () => ['console.refusal.row.notEmail']],
  [/^is not a phone number \(such as (.+) or (\+.+)\)$/, (m) => ['console.refusal.row.notPhone', { national: m[1]!, international: m[2]! }]],
  [/^is not a phone number with its country code \(such as (.+)\)$/, (m) => ['console.refusal.row.notPhoneIntl', { international: m[1]! }]],
  [/^must not start with (.+)$/, (m) => ['console.refusal.row.prefix', { prefixes: m[1]! }]],
  [/^is ambiguous: the “(.+?)” could separate/, (m) => ['console.refusal.row.ambiguous', { mark: m[1]! }]],
  [/^is not (a whole number of stamps|a whole number of points|an amount of money) \(such as (.+)\)$/, (m) => ['console.refusal.row.notBalance', { kind: KINDS[m[1]!]!, example: m[2]! }]],
  [/^is below zero: a balance is 0 or more$/, () => ['console.refusal.row.belowZero']],
  [/^has more than 2 decimals$/, () => ['console.refusal.row.decimals']],
  [/^is more than ([\d,]+)$/, (m) => ['console.refusal.row.tooMuch', { max: digits(m[1]!) }]],
  [/^is not a number$/, () => ['console.refusal.row.notNumber']],
  [/^is not yes or no$/, () => ['console.refusal.row.notYesNo']],
  [/^is not one of the choices \((.*)\)$/, (m) => ['console.refusal.row.notChoice', { choices: m[1]! }]],
  [/^is not a date written as YYYY-MM-DD$/, () => ['console.refusal.row.notDate']],
  [/^cannot be used$/, () => ['console.refusal.row.unusable']],
  [/^has no name, email, phone or external id/, () => ['console.refusal.row.nobody']],
  [/^same (email|phone|external id) as row (\d+)$/, (m) => ['console.refusal.row.same', { what: SAME[m[1]!]!, row: Number(m[2]) }]],
  [/^not imported: test data holds at most ([\d,]+) customers/, (m) => ['console.refusal.row.testFull', { max: digits(m[1]!) }]],
  [/^is the external id of a customer of another card$/, () => ['console.refusal.row.otherCard']],
  [/^already a customer \(same (email|phone|external id)\)$/, (m) => ['console.refusal.row.matched', { what: SAME[m[1]!]! }]],
  [/^imported before from this same file$/, () => ['console.refusal.row.sameFile']],
];

const say = (lang: ConsoleLang, [key, params]: Wording) => tConsole(lang, key, params);

/**
 * A service's English message in the admin's language; undefined when it is none the services
 * write (it may be the console's own words already).
 */
export function serviceWords(lang: ConsoleLang, message: string): string | undefined {
  if (lang === 'en') return undefined;
  // A form may have put a capital at the start ("Points to a private …").
  const plain = message.charAt(0).toLowerCase() + message.slice(1);
  for (const [pattern, wording] of BY_WORDING) {
    const m = pattern.exec(plain);
    if (m) return say(lang, wording(m));
  }
  return undefined;
}

/** An import report's message (a refused or matched row) as the admin reads it; enroll's refusals are kept as "CODE: English reason". */
export function rowMessage(lang: ConsoleLang, message: string | null): string {
  if (message === null) return '';
  const words = serviceWords(lang, message);
  if (words !== undefined || lang === 'en') return words ?? message;
  const code = /^([A-Z][A-Z0-9_]+)(: |$)/.exec(message)?.[1];
  return code ? refusalText(lang, new ApiError(400, code, { exactMessage: message })) : message;
}

/** A whole refusal (not a form field's) as the admin reads it. */
export function refusalText(lang: ConsoleLang, err: ApiError): string {
  if (lang === 'en' || isInWords(err)) return humanMessage(err);
  const issues = err.extra.issues as { path: string; message: string }[] | undefined;
  if (err.code === 'VALIDATION_FAILED' && issues?.length) {
    const known = issues.map((i) => serviceWords(lang, i.message));
    if (known.every((k) => k !== undefined)) return [...new Set(known)].join(' ');
  }
  const wording = BY_CODE[err.code];
  return wording ? say(lang, wording(err)) : tConsole(lang, 'console.refusal.other', { code: err.code });
}

/** Refusals every page words alike (web/errors.ts), in the page's language already. */
const SHARED = new Set(['CSRF_CHECK_FAILED', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED']);

/** The console's error pages: a service's refusal in the admin's language. */
export const consolePageWording: PageWording = (lang, err) => (isConsoleLang(lang) && lang !== 'en' && !SHARED.has(err.code) ? refusalText(lang, err) : undefined);

/**
 * A service's refusal as a console form shows it (formErrorsFrom), in the admin's language: a
 * validation issue's message by its wording, any other refusal by its code, where it lands.
 */
export function consoleFormErrors(lang: ConsoleLang, err: ApiError, fieldNames?: readonly string[]): FormErrors {
  const errors = formErrorsFrom(err, fieldNames);
  if (lang === 'en' || isInWords(err)) return errors;
  if (err.code !== 'VALIDATION_FAILED') {
    const text = refusalText(lang, err);
    return typeof err.extra.field === 'string' ? { fields: { [err.extra.field]: text } } : { fields: {}, form: text };
  }
  const fields = Object.fromEntries(Object.entries(errors.fields).map(([name, message]) => [name, serviceWords(lang, message) ?? message]));
  // A field the form does not show: "path: message".
  const form = errors.form === undefined ? undefined : (serviceWords(lang, errors.form.replace(/^[\w.[\]-]+: /, '')) ?? errors.form);
  return { ...errors, fields, ...(form === undefined ? {} : { form }) };
}
