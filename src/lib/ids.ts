import { randomBytes } from 'node:crypto';

// All random parts come from the CSPRNG. Base62 keeps ids URL- and copy-safe.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomToken(length: number): string {
  let out = '';
  // Rejection sampling: 248 is the largest multiple of 62 below 256, so every symbol is equally likely.
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix = 'org' | 'card' | 'we' | 'wd' | 'evt' | 'tx' | 'key' | 'adm' | 'stf';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(20)}`;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
