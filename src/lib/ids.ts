import { randomBytes, randomFillSync } from 'node:crypto';

// All random parts come from the CSPRNG. Base62 keeps ids URL- and copy-safe.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// A request takes several tokens (its request id, the ledger row's, the event's, each delivery's);
// one call into the CSPRNG per token cost more than the token itself. Bytes are drawn from it 4 KiB
// at a time and each byte is used once, so the tokens are exactly as random as before.
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let next = POOL_BYTES;

function randomByte(): number {
  if (next === POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

export function randomToken(length: number): string {
  let out = '';
  // Rejection sampling: 248 is the largest multiple of 62 below 256, so every symbol is equally likely.
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export type IdPrefix = 'org' | 'card' | 'we' | 'wd' | 'evt' | 'tx' | 'key' | 'adm' | 'stf';

/**
 * `<prefix>_` and 20 base62 characters: 8 of the time in milliseconds (until the year 8888), then
 * 12 random ones (71 bits). Ids of one moment sort together, so a row's id lands at the end of
 * its primary-key index: a commit of many ledger rows, events and deliveries appends to a few
 * pages instead of touching a random page of each index per row (issue 13). The time is the
 * wall clock, not the injected one: it only decides where the id sorts, never what it means.
 * The passUserId is not made here: it stays wholly random (decisions §1).
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${timePart(Date.now())}${randomToken(12)}`;
}

/** How many leading characters of a secretCode() are its second rather than secret. */
export const CODE_TIME_CHARS = 6;

/**
 * A customer's secret code (install link, pass barcode): 6 base62 digits of the second it was made
 * (until the year 3769), then `length - 6` random symbols, which alone are the secret (26 of a
 * 32-symbol code: 154 bits). Codes of one second sort together, so a new customer's codes land at
 * the end of their UNIQUE indexes instead of on a random page of each: at a million customers
 * that page was read and written again per code and enrolment (issue 13). Wall clock, as newId.
 */
export function secretCode(length: number): string {
  return base62(Date.now() / 1000, CODE_TIME_CHARS) + randomToken(length - CODE_TIME_CHARS);
}

/** A whole number of milliseconds as 8 base62 digits, most significant first (sorts as it counts). */
export function timePart(ms: number): string {
  return base62(ms, 8);
}

/** The whole part of a number as `digits` base62 digits, most significant first. */
function base62(n: number, digits: number): string {
  let out = '';
  let rest = Math.floor(n);
  for (let i = 0; i < digits; i++) {
    out = ALPHABET[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
