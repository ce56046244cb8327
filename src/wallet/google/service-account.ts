// The Google Cloud service-account key file (JSON) that signs save links and obtains API tokens.
// Read and checked once at start-up, so a wrong file fails with the setting's name, not later
// as an opaque 401 from Google.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface GoogleServiceAccount {
  clientEmail: string;
  /** RSA private key (RS256 for save JWTs and the token grant). */
  privateKey: KeyObject;
  /** Sent as the JWT "kid" so Google picks the right public key at once. */
  privateKeyId?: string;
  /** Where the JWT-bearer grant is posted (from the key file; tests point it at a fake). */
  tokenUri: string;
}

/** Parses key-file JSON (text or already parsed). `source` names it in errors. */
export function parseServiceAccount(json: string | Buffer | unknown, source = 'service account key'): GoogleServiceAccount {
  let data: unknown = json;
  if (typeof json === 'string' || Buffer.isBuffer(json)) {
    try {
      data = JSON.parse(json.toString());
    } catch {
      throw new Error(`${source}: not JSON (expected a service account key file)`);
    }
  }
  if (typeof data !== 'object' || data === null) throw new Error(`${source}: not a JSON object`);
  const record = data as Record<string, unknown>;
  if (record.type !== undefined && record.type !== 'service_account') {
    throw new Error(`${source}: type is "${String(record.type)}", expected "service_account"`);
  }
  const text = (name: string): string => {
    const value = record[name];
    if (typeof value !== 'string' || value.trim() === '') throw new Error(`${source}: ${name} is missing`);
    return value;
  };
  const clientEmail = text('client_email');
  if (!clientEmail.includes('@')) throw new Error(`${source}: client_email "${clientEmail}" is not an email address`);
  const tokenUri = text('token_uri');
  if (!/^https?:\/\/[^\s]+$/.test(tokenUri)) throw new Error(`${source}: token_uri "${tokenUri}" is not an http(s) URL`);
  const pem = text('private_key');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(`${source}: private_key is not a PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error(`${source}: private_key is not an RSA key`);
  const privateKeyId = typeof record.private_key_id === 'string' && record.private_key_id ? record.private_key_id : undefined;
  return { clientEmail, privateKey, tokenUri, ...(privateKeyId ? { privateKeyId } : {}) };
}

/** Reads and parses the key file; errors start with `settingName`. */
export function loadServiceAccount(path: string, settingName = 'GOOGLE_SERVICE_ACCOUNT_FILE'): GoogleServiceAccount {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${settingName}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseServiceAccount(text, `${settingName}: ${path}`);
}
