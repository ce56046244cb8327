// Compact RS256 JWTs with node:crypto: all Google needs here, so no JWT library.
import { sign, type KeyObject } from 'node:crypto';

export function signRs256Jwt(claims: Record<string, unknown>, privateKey: KeyObject, keyId?: string): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(keyId ? { kid: keyId } : {}) };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const input = `${encode(header)}.${encode(claims)}`;
  const signature = sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url');
  return `${input}.${signature}`;
}
