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

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(20)}`;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
