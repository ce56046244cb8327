import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';

// Admin passwords: scrypt at OWASP's minimum, N=2^17, r=8, p=1, with a per-password
// salt. The parameters are stored with the hash, so older hashes still verify and can be upgraded.
// scrypt runs on libuv's thread pool (async crypto.scrypt), never on the event loop: one hash takes
// about half a second and 128 MiB, which would stall every other request.
export interface HashCost {
  N: number;
  r: number;
  p: number;
}
export const PRODUCTION_HASH_COST: Readonly<HashCost> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
let PARAMS: Readonly<HashCost> = PRODUCTION_HASH_COST;
const KEY_LENGTH = 32;

/**
 * For test processes only: the cost of the hashes made from now on in this process (and what
 * needsRehash measures against). The program never calls it, so every hash it makes has the
 * production cost. Tests sign in hundreds of times, and each hash at that cost takes half a second
 * of a core; test/support/app.ts lowers it, and the tests of the cost itself, or of sign-ins
 * racing their hashes, set it back.
 */
export function setHashCostForTests(cost: Readonly<HashCost>): void {
  PARAMS = Object.freeze({ ...cost });
  decoy = undefined;
}

/** scrypt needs 128·N·r bytes; Node's default maxmem (32 MiB) is below what N=2^17 needs. */
const maxmemFor = (N: number, r: number) => 128 * N * r + 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { ...options, maxmem: maxmemFor(options.N!, options.r!) }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, { ...PARAMS });
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parseStored(stored: string): StoredHash | null {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !n || !r || !p || !salt || !hash) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((x) => Number.isSafeInteger(x) && x > 0) || params.N > 2 ** 20) return null;
  return { ...params, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/**
 * Each password check announces its start and its end here ({ phase: 'start' | 'end' }), for
 * whoever watches the server's work (the tests count the checks a flood of sign-ins causes).
 * Publishing to a channel nobody subscribes to costs nothing.
 */
export const PASSWORD_CHECK_CHANNEL = 'wallet-loyalty:password-check';
const checks = diagnosticsChannel.channel(PASSWORD_CHECK_CHANNEL);

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  checks.publish({ phase: 'start' });
  try {
    const actual = await scryptAsync(password, parsed.salt, parsed.hash.length, { N: parsed.N, r: parsed.r, p: parsed.p });
    return timingSafeEqual(actual, parsed.hash);
  } finally {
    checks.publish({ phase: 'end' });
  }
}

/** A hash made with weaker parameters than today's: rehash it at the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  return !parsed || parsed.N < PARAMS.N || parsed.r < PARAMS.r || parsed.p < PARAMS.p;
}

/**
 * Verifies against a throwaway hash, so an unknown email costs the same time as a wrong password
 * and a sign-in's timing never tells whether the account exists.
 */
let decoy: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
  return false;
}

/** Passwords an owner chooses: long enough to resist guessing, short enough to hash. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
