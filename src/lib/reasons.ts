// What a refusal says, as values: beside the English message every refusal has (the API's words,
// which integrators and the CLI read), a service states the reason by name and the values in it,
// so a page in another language words it from the values and never reads them back out of the
// English. A reason never reaches the API's JSON body (lib/errors.ts). Each name is the console's
// message of that name (console.refusal.<name>), whose {arguments} are the params below.

type None = Record<never, never>;

/** Each reason's values: numbers in the card's units (not hundredths), words as the catalogues select them. */
export interface ReasonParams {
  // Balances and the card's earning limits.
  balanceLow: { balance: number; needed: number };
  limitWait: { wait: number; retry: number };
  limitMax: { max: number; amount: number };
  limitPeriod: { max: number; period: 'day' | 'week' | 'month'; awarded: number; amount: number };
  otherMode: { mode: 'live' | 'test' };
  // A field's value.
  tooLong: { max: number };
  tooMuch: { max: number };
  wholeOnly: None;
  balanceCap: { max: number; balance: number };
  privateAddress: None;
  // The import's mapping.
  'map.pick': None;
  'map.twice': { column: string };
  'map.nameOrParts': None;
  'map.someColumns': None;
  'map.noIdentity': None;
  // The import's file.
  'file.empty': None;
  'file.tooLarge': { max: number; size: string };
  'file.workbook': None;
  'file.notText': None;
  'file.blank': None;
  'file.columns': { row: number | 'header'; count: number; max: number };
  'file.emptyRows': { max: number };
  'file.tooManyRows': { max: number };
  'file.notCsv': None;
  'file.noHeader': None;
  'file.noRows': None;
  // The import's rows.
  'row.tooLong': { max: number };
  'row.notEmail': None;
  'row.notPhone': { national: string; international: string };
  'row.notPhoneIntl': { international: string };
  'row.prefix': { prefixes: string };
  'row.ambiguous': { mark: string };
  'row.notBalance': { kind: 'stamps' | 'points' | 'money'; example: string };
  'row.belowZero': None;
  'row.decimals': None;
  'row.tooMuch': { max: number };
  'row.notNumber': None;
  'row.notYesNo': None;
  'row.notChoice': { choices: string };
  'row.notDate': None;
  'row.unusable': None;
  'row.nobody': None;
  'row.same': { what: 'email' | 'phone' | 'externalId'; row: number };
  'row.testFull': { max: number };
  'row.otherCard': None;
  'row.matched': { what: 'email' | 'phone' | 'externalId' };
  'row.sameFile': None;
}

export type ReasonId = keyof ReasonParams;

/** A refusal's reason: its name and its values. */
export type Reason = { [K in ReasonId]: { readonly id: K; readonly params: Readonly<ReasonParams[K]> } }[ReasonId];

/** `reason('balanceLow', { balance: 3, needed: 50 })`; a reason without values: `reason('wholeOnly')`. */
export function reason<K extends ReasonId>(id: K, ...params: None extends ReasonParams[K] ? [ReasonParams[K]?] : [ReasonParams[K]]): Reason {
  return { id, params: params[0] ?? {} } as Reason;
}

const IDS: Readonly<Record<ReasonId, true>> = {
  balanceLow: true, limitWait: true, limitMax: true, limitPeriod: true, otherMode: true,
  tooLong: true, tooMuch: true, wholeOnly: true, balanceCap: true, privateAddress: true,
  'map.pick': true, 'map.twice': true, 'map.nameOrParts': true, 'map.someColumns': true, 'map.noIdentity': true,
  'file.empty': true, 'file.tooLarge': true, 'file.workbook': true, 'file.notText': true, 'file.blank': true, 'file.columns': true,
  'file.emptyRows': true, 'file.tooManyRows': true, 'file.notCsv': true, 'file.noHeader': true, 'file.noRows': true,
  'row.tooLong': true, 'row.notEmail': true, 'row.notPhone': true, 'row.notPhoneIntl': true, 'row.prefix': true, 'row.ambiguous': true,
  'row.notBalance': true, 'row.belowZero': true, 'row.decimals': true, 'row.tooMuch': true, 'row.notNumber': true, 'row.notYesNo': true,
  'row.notChoice': true, 'row.notDate': true, 'row.unusable': true, 'row.nobody': true, 'row.same': true, 'row.testFull': true,
  'row.otherCard': true, 'row.matched': true, 'row.sameFile': true,
};

/**
 * A reason as stored (JSON, by an import's report) read back: undefined when there is none, or it
 * is not one this version knows (a newer version's), or its values are not text and numbers.
 */
export function readReason(json: string | null | undefined): Reason | undefined {
  if (!json) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { id, params } = value as { id?: unknown; params?: unknown };
  if (typeof id !== 'string' || !Object.hasOwn(IDS, id)) return undefined;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  if (!Object.values(params).every((p) => typeof p === 'string' || typeof p === 'number')) return undefined;
  return { id, params } as Reason;
}
