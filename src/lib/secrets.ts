import { createHash, timingSafeEqual } from 'node:crypto';

// Comparing secrets (API keys, install codes, ApplePass tokens) with what a client sent: by their
// SHA-256 digests, in constant time. Digests have one length, so neither the content nor the length
// of what a client sent shows in the response time. A secret held in memory (a session's CSRF
// token, web/csrf.ts) is compared as text, also in constant time.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** SHA-256 of the UTF-8 text as 64 hex characters: what we store instead of a secret. */
export function sha256Hex(text: string): string {
  return sha256(text).toString('hex');
}

/**
 * Whether two texts of one length are equal, in time that depends only on that length: every
 * character is compared, with no early exit. For a secret held in memory and compared with what a
 * client sends; stored secrets are compared by digest (sameSecret).
 */
export function sameLengthTextEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** Whether two secrets (or two stored digests) are equal, in time that depends on neither. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}
