import { isConsoleLang, type ConsoleLang } from '../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../i18n/translate';
import { ApiError, isInWords, type Reason } from '../lib/errors';
import type { ReasonId } from '../lib/reasons';
import { MAX_FILE_BYTES } from '../import/csv-file';
import type { ReportRow } from '../import/jobs';
import { REFUSED_VALUES_DAYS } from '../import/service';
import { reasonOfStoredText } from './customers/report-before-reasons';
import { formErrorsFrom, humanMessage, type FormErrors } from '../web/forms';
import type { PageWording } from '../web/errors';

// The services below the console (customers, cards, webhooks, the import) refuse in the API's
// English, which integrators and the CLI read, and state the reason beside it as values
// (lib/reasons.ts), which never reach the API's body. The console shows their refusals in the
// admin's language from here, in one place: an error by its reason's values, else by its code.
// English admins read the API's own words; a German admin never reads English: a refusal nobody
// worded yet names its code.

type Wording = readonly [ConsoleKey, MessageParams?];

/** Refusals by code (those whose reason is the code alone), as a German admin reads them. */
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
  INVALID_CURSOR: () => ['console.refusal.staleLink'],
  IMPORT_NOT_DONE: () => ['console.refusal.importNotDone'],
  IMPORT_NOT_CHECKED: () => ['console.refusal.importNotChecked'],
  REFUSED_ROWS_GONE: () => ['console.refusal.refusedRowsGone', { days: REFUSED_VALUES_DAYS }],
  MAIL_OFF: () => ['console.refusal.mailOff'],
  UPLOAD_UNREADABLE: () => ['console.refusal.uploadUnreadable'],
  FILE_TOO_LARGE: () => ['console.refusal.fileTooLarge', { mb: MAX_FILE_BYTES / 1024 / 1024 }],
  UNSUPPORTED_FOR_CARD_TYPE: () => ['console.refusal.notOnCard'],
  INVALID_EMAIL: () => ['console.refusal.invalidEmail'],
  NOT_AVAILABLE_IN_TEST_MODE: () => ['console.refusal.liveOnly'],
  EXTERNAL_ID_TAKEN: () => ['console.refusal.taken', { field: 'externalId' }],
  CONTACT_TAKEN: (err) => ['console.refusal.taken', { field: err.extra.field === 'phone' ? 'phone' : 'email' }],
};

/** Every reason is a console message of its name: a reason added to lib/reasons.ts without its message does not compile. */
const reasonKey = (id: ReasonId): ConsoleKey => `console.refusal.${id}` satisfies ConsoleKey;

/**
 * A reason in the admin's language; undefined in English (the services' own words are shown), for
 * no reason, and for one whose values do not fit its message (stored by another version).
 */
export function reasonWords(lang: ConsoleLang, reason: Reason | null | undefined): string | undefined {
  if (lang === 'en' || !reason) return undefined;
  try {
    return tConsole(lang, reasonKey(reason.id), reason.params);
  } catch {
    return undefined;
  }
}

/**
 * A report row's message in the admin's language: from its stored reason (a row reported before
 * reasons were kept: the one its frozen English states); an enroll refusal stored as "CODE: English
 * reason" by its code; else as it was stored.
 */
export function rowMessage(lang: ConsoleLang, row: Pick<ReportRow, 'message' | 'reason'>): string {
  if (row.message === null) return '';
  if (lang === 'en') return row.message;
  const words = reasonWords(lang, row.reason ?? reasonOfStoredText(row.message));
  if (words !== undefined) return words;
  // The code is the one part of an enroll refusal's message that is not English.
  const code = /^([A-Z][A-Z0-9_]+)(: |$)/.exec(row.message)?.[1];
  return code ? refusalText(lang, new ApiError(400, code, { exactMessage: row.message })) : row.message;
}

const say = (lang: ConsoleLang, [key, params]: Wording) => tConsole(lang, key, params);

/** A whole refusal (not a form field's) as the admin reads it. */
export function refusalText(lang: ConsoleLang, err: ApiError): string {
  if (lang === 'en' || isInWords(err)) return humanMessage(err);
  if (err.code === 'VALIDATION_FAILED' && err.issues.length) {
    const known = err.issues.map((i) => reasonWords(lang, i.reason));
    if (known.every((k) => k !== undefined)) return [...new Set(known)].join(' ');
  }
  const worded = reasonWords(lang, err.reason);
  if (worded !== undefined) return worded;
  const wording = BY_CODE[err.code];
  return wording ? say(lang, wording(err)) : tConsole(lang, 'console.refusal.other', { code: err.code });
}

/** Refusals every page words alike (web/errors.ts), in the page's language already. */
const SHARED = new Set(['CSRF_CHECK_FAILED', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED']);

/** The console's error pages: a service's refusal in the admin's language. */
export const consolePageWording: PageWording = (lang, err) => (isConsoleLang(lang) && lang !== 'en' && !SHARED.has(err.code) ? refusalText(lang, err) : undefined);

/**
 * A service's refusal as a console form shows it (formErrorsFrom), in the admin's language: a
 * validation issue by its reason, any other refusal by its reason or its code, where it lands.
 */
export function consoleFormErrors(lang: ConsoleLang, err: ApiError, fieldNames?: readonly string[]): FormErrors {
  const errors = formErrorsFrom(err, fieldNames);
  if (lang === 'en' || isInWords(err)) return errors;
  if (err.code !== 'VALIDATION_FAILED') {
    const text = refusalText(lang, err);
    return typeof err.extra.field === 'string' ? { fields: { [err.extra.field]: text } } : { fields: {}, form: text };
  }
  return formErrorsInLang(lang, errors);
}

/** Form errors whose messages have reasons (formErrorsFrom, parseForm), those in the admin's language; the others as they are. */
export function formErrorsInLang(lang: ConsoleLang, errors: FormErrors): FormErrors {
  if (lang === 'en' || !errors.reasons) return errors;
  const reasons = errors.reasons;
  const fields = Object.fromEntries(Object.entries(errors.fields).map(([name, message]) => [name, reasonWords(lang, reasons.fields[name]) ?? message]));
  const form = errors.form === undefined ? undefined : (reasonWords(lang, reasons.form) ?? errors.form);
  return { ...errors, fields, ...(form === undefined ? {} : { form }) };
}
