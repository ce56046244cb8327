import { createHash, timingSafeEqual } from 'node:crypto';
import { randomHex, randomToken } from '../lib/ids';
import type { Mode } from './scopes';

// Raw keys: psk_live_<random>, psk_test_<random>; keys made before test mode: psk_<hex> (live).
const MODERN = /^psk_(live|test)_[0-9A-Za-z]{32}$/;
const LEGACY = /^psk_[0-9a-f]{40}$/;

export function generateRawKey(mode: Mode, legacy = false): string {
  if (legacy) return `psk_${randomHex(20)}`;
  return `psk_${mode}_${randomToken(32)}`;
}

/** The mode a raw key claims by its shape, or null when it cannot be a key at all. */
export function modeOfRawKey(raw: string): Mode | null {
  const modern = MODERN.exec(raw);
  if (modern) return modern[1] as Mode;
  return LEGACY.test(raw) ? 'live' : null;
}

export function hashKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Enough of the key to tell keys apart in a listing, never enough to use it. */
export function keyHint(raw: string): string {
  return `${raw.slice(0, raw.startsWith('psk_live_') || raw.startsWith('psk_test_') ? 13 : 8)}…`;
}
