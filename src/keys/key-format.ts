import { randomHex, randomToken } from '../lib/ids';
import { sha256Hex } from '../lib/secrets';
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

/** What the database keeps of a key: its SHA-256, never the key. */
export function hashKey(raw: string): string {
  return sha256Hex(raw);
}

/** Enough of the key to tell keys apart in a listing, never enough to use it. */
export function keyHint(raw: string): string {
  return `${raw.slice(0, raw.startsWith('psk_live_') || raw.startsWith('psk_test_') ? 13 : 8)}…`;
}
