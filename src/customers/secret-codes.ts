// A customer's two secrets: the install code (in the link that opens the pass) and the scan code
// (the pass's barcode). Both are wholly random. A code is found without letting the response time
// depend on the secret: the index is searched by its first characters only (the selector), and
// the whole code is then compared in constant time with each candidate.
import type { Db } from '../db/connection';
import { randomToken } from '../lib/ids';
import { sameSecret, sha256Hex } from '../lib/secrets';
import type { Customer } from './model';
import { customersRepo } from './repo';

/** Base62 symbols of a new code: 32 × 5.95 bits, of which the 24 after the selector are 142 bits. */
export const SECRET_CODE_LENGTH = 32;
/** Leading characters used to find candidates in the index. */
export const CODE_SELECTOR_LENGTH = 8;
/** Shorter codes leave too little secret after the selector; they never match. */
export const MIN_CODE_LENGTH = 16;
const MAX_CODE_LENGTH = 200;

export const newSecretCode = (): string => randomToken(SECRET_CODE_LENGTH);

/** The index range of codes sharing `code`'s selector: [from, below). Null for a code that can never match. */
export function selectorRange(code: string): { from: string; below: string } | null {
  if (code.length < MIN_CODE_LENGTH || code.length > MAX_CODE_LENGTH) return null;
  const from = code.slice(0, CODE_SELECTOR_LENGTH);
  return { from, below: from.slice(0, -1) + String.fromCharCode(from.charCodeAt(from.length - 1) + 1) };
}

/** The candidate whose code is `code`, every candidate compared in constant time. */
export function matchingCode<T extends { code: string }>(code: string, candidates: readonly T[]): T | undefined {
  let match: T | undefined;
  for (const candidate of candidates) if (sameSecret(code, candidate.code)) match = candidate;
  return match;
}

/** The customer (any org and mode: the caller tells them apart) whose pass carries this scan code. */
export function findCustomerByScanCode(db: Db, code: string): Customer | undefined {
  const range = selectorRange(code);
  const customers = customersRepo(db);
  const match = range && matchingCode(code, customers.withScanSelector(range));
  const customer = match ? customers.findByPassUserId(match.id) : undefined;
  return customer?.erasedAt === null ? customer : undefined;
}

/**
 * What an erased customer's codes become: a marker derived from the old code, which no lookup
 * accepts (they leave erased customers out) and nobody can present (it is not the code), yet tells
 * a page that the card behind the old code was removed.
 */
export const erasedCodeMarker = (code: string): string => `erased-${sha256Hex(code)}`;
