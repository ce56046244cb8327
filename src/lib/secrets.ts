import crypto, { createHash, timingSafeEqual } from 'node:crypto';

// Comparing secrets (API keys, install codes, ApplePass tokens) the one way: by their SHA-256
// digests, in constant time. Digests have one length, so neither the content nor the length of
// what a client sent shows in the response time.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

// Node's one-shot digest (20.12 and later) costs a fraction of a Hash object; every API request hashes its key.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : null;

/** SHA-256 of the UTF-8 text as 64 hex characters: what we store instead of a secret. */
export function sha256Hex(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : sha256(text).toString('hex');
}

/** Whether two secrets (or two stored digests) are equal, in time that depends on neither. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}
