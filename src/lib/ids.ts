import { randomBytes, randomInt } from 'node:crypto';

// All random parts come from the CSPRNG. Base62 keeps ids URL- and copy-safe.
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` base62 symbols, each drawn uniformly from the CSPRNG (~5.95 bits each). */
export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(62)];
  return out;
}

export type IdPrefix = 'org' | 'card' | 'we' | 'wd' | 'evt' | 'tx' | 'key' | 'adm' | 'stf' | 'ml' | 'rw' | 'pr' | 'msg';

/**
 * `<prefix>_` and 20 base62 characters: 8 of the time in milliseconds (until the year 8888), then
 * 12 random ones (71 bits). Ids of one moment sort together, so new rows land at the end of their
 * primary-key index instead of on a random page of it. These ids are not secrets: nobody is let in
 * by one. The time is the wall clock, not the injected one: it only decides where the id sorts,
 * never what it means. Secrets (install and scan codes, the passUserId) are wholly random.
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${timePart(Date.now())}${randomToken(12)}`;
}

/** A whole number of milliseconds as 8 base62 digits, most significant first (sorts as it counts). */
export function timePart(ms: number): string {
  let out = '';
  let rest = Math.floor(ms);
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
