import { reason, type Reason } from '../../lib/reasons';

// Import reports written before report rows kept their reason as values (schema version 35) hold
// only the English message. Their text is frozen in the database, so it is read back here by the
// wording those versions wrote, once, into the reason a row gets today; the console then words
// both alike (refusals.ts). Rows written since carry their reason and never come here, so a change
// of the import's English today changes nothing below: these patterns are the old wording, kept.

const SAME = { email: 'email', phone: 'phone', 'external id': 'externalId' } as const;
const KINDS = { 'a whole number of stamps': 'stamps', 'a whole number of points': 'points', 'an amount of money': 'money' } as const;
const digits = (text: string) => Number(text.replace(/[^\d]/g, ''));

const STORED: readonly (readonly [RegExp, (m: RegExpExecArray) => Reason])[] = [
  [/^is longer than (\d+) characters$/, (m) => reason('row.tooLong', { max: Number(m[1]) })],
  [/^is not an email address/, () => reason('row.notEmail')],
  [/^is not a phone number \(such as (.+) or (\+.+)\)$/, (m) => reason('row.notPhone', { national: m[1]!, international: m[2]! })],
  [/^is not a phone number with its country code \(such as (.+)\)$/, (m) => reason('row.notPhoneIntl', { international: m[1]! })],
  [/^must not start with (.+)$/, (m) => reason('row.prefix', { prefixes: m[1]! })],
  [/^is ambiguous: the “(.+?)” could separate/, (m) => reason('row.ambiguous', { mark: m[1]! })],
  [/^is not (a whole number of stamps|a whole number of points|an amount of money) \(such as (.+)\)$/, (m) => reason('row.notBalance', { kind: KINDS[m[1] as keyof typeof KINDS], example: m[2]! })],
  [/^is below zero: a balance is 0 or more$/, () => reason('row.belowZero')],
  [/^has more than 2 decimals$/, () => reason('row.decimals')],
  [/^is more than ([\d,]+)$/, (m) => reason('row.tooMuch', { max: digits(m[1]!) })],
  [/^is not a number$/, () => reason('row.notNumber')],
  [/^is not yes or no$/, () => reason('row.notYesNo')],
  [/^is not one of the choices \((.*)\)$/, (m) => reason('row.notChoice', { choices: m[1]! })],
  [/^is not a date written as YYYY-MM-DD$/, () => reason('row.notDate')],
  [/^cannot be used$/, () => reason('row.unusable')],
  [/^has no name, email, phone or external id/, () => reason('row.nobody')],
  [/^same (email|phone|external id) as row (\d+)$/, (m) => reason('row.same', { what: SAME[m[1] as keyof typeof SAME], row: Number(m[2]) })],
  [/^not imported: test data holds at most ([\d,]+) customers/, (m) => reason('row.testFull', { max: digits(m[1]!) })],
  [/^is the external id of a customer of another card$/, () => reason('row.otherCard')],
  [/^already a customer \(same (email|phone|external id)\)$/, (m) => reason('row.matched', { what: SAME[m[1] as keyof typeof SAME] })],
  [/^imported before from this same file$/, () => reason('row.sameFile')],
];

/** The reason of a report row written before reasons were kept, from its English message; undefined for a message of another kind (enroll's "CODE: …"). */
export function reasonOfStoredText(message: string): Reason | undefined {
  for (const [pattern, toReason] of STORED) {
    const m = pattern.exec(message);
    if (m) return toReason(m);
  }
  return undefined;
}
