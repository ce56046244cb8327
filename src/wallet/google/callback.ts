// Verifies Google Wallet save/delete callbacks (protocol ECv2SigningOnly), what Tink's
// PaymentMethodTokenRecipient does, in node:crypto: a Google root key signs a short-lived
// intermediate key, which signs the message for our issuer id.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

export const GOOGLE_ROOT_KEYS_URL = 'https://pay.google.com/gp/m/issuer/keys';
/** Google's pages disagree on the sender id; this is the one Wallet callbacks use in practice. */
export const DEFAULT_SENDER_ID = 'GooglePayPasses';
const PROTOCOL = 'ECv2SigningOnly';

export interface GoogleRootKey {
  keyValue: string;
  protocolVersion: string;
  keyExpiration?: string;
}

export interface GoogleCallbackMessage {
  classId: string;
  objectId: string;
  /** "save" or "del". */
  eventType: string;
  /** Deduplicate on this: Google retries and may deliver twice. */
  nonce: string;
  expTimeMillis: number;
  count?: number;
}

export type GoogleCallbackErrorCode =
  | 'malformed'
  | 'no_root_keys'
  | 'bad_key_signature'
  | 'key_expired'
  | 'bad_message_signature'
  | 'message_expired'
  | 'wrong_issuer';

export class GoogleCallbackError extends Error {
  constructor(
    readonly code: GoogleCallbackErrorCode,
    message: string,
  ) {
    super(`Google callback refused (${code}): ${message}`);
    this.name = 'GoogleCallbackError';
  }
}

export interface VerifyCallbackOptions {
  issuerId: string;
  senderId?: string;
  /** Root keys as served by Google (`{ keys: [...] }`), or a function returning them (cache). */
  rootKeys?: { keys: GoogleRootKey[] } | (() => Promise<{ keys: GoogleRootKey[] }>);
  /** Fetched on every call when `rootKeys` is not given. */
  rootKeysUrl?: string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/** Returns the verified message, or throws GoogleCallbackError saying why. `body` may be the raw JSON text. */
export async function verifyGoogleCallback(body: unknown, options: VerifyCallbackOptions): Promise<GoogleCallbackMessage> {
  const envelope = parseEnvelope(body);
  const senderId = options.senderId ?? DEFAULT_SENDER_ID;
  const now = options.now();

  const roots = (await loadRootKeys(options)).filter(
    (key) => key.protocolVersion === PROTOCOL && (key.keyExpiration === undefined || Number(key.keyExpiration) > now),
  );
  if (roots.length === 0) throw new GoogleCallbackError('no_root_keys', 'no unexpired ECv2SigningOnly root key');

  // 1. The intermediate key must be signed by one of Google's root keys.
  const signedKeyBytes = lengthValue(senderId, PROTOCOL, envelope.signedKey);
  const keySigned = roots.some((root) => {
    const rootKey = spkiKey(root.keyValue);
    return rootKey !== undefined && envelope.keySignatures.some((sig) => ecdsaVerify(signedKeyBytes, rootKey, sig));
  });
  if (!keySigned) throw new GoogleCallbackError('bad_key_signature', 'intermediate signing key is not signed by a Google root key');

  // 2. ...and still be valid.
  const intermediate = parseJson(envelope.signedKey, 'signedKey') as { keyValue?: unknown; keyExpiration?: unknown };
  const keyExpiration = Number(intermediate.keyExpiration);
  if (typeof intermediate.keyValue !== 'string' || !Number.isFinite(keyExpiration)) {
    throw new GoogleCallbackError('malformed', 'signedKey lacks keyValue or keyExpiration');
  }
  if (keyExpiration <= now) throw new GoogleCallbackError('key_expired', 'intermediate signing key has expired');
  const intermediateKey = spkiKey(intermediate.keyValue);
  if (!intermediateKey) throw new GoogleCallbackError('malformed', 'intermediate keyValue is not an EC public key');

  // 3. The message must be signed by it, for us (our issuer id is part of what was signed).
  const messageBytes = lengthValue(senderId, options.issuerId, PROTOCOL, envelope.signedMessage);
  if (!ecdsaVerify(messageBytes, intermediateKey, envelope.signature)) {
    throw new GoogleCallbackError('bad_message_signature', 'message signature does not verify for this issuer and sender');
  }

  // 4. Signed, so now its content can be trusted — but not if it has expired (replay).
  const message = parseJson(envelope.signedMessage, 'signedMessage') as Record<string, unknown>;
  const expTimeMillis = Number(message.expTimeMillis);
  if (!Number.isFinite(expTimeMillis)) throw new GoogleCallbackError('malformed', 'signedMessage lacks expTimeMillis');
  if (expTimeMillis <= now) throw new GoogleCallbackError('message_expired', 'message has expired');
  const { classId, objectId, eventType, nonce, count } = message;
  if (typeof classId !== 'string' || typeof objectId !== 'string' || typeof eventType !== 'string' || typeof nonce !== 'string') {
    throw new GoogleCallbackError('malformed', 'signedMessage lacks classId, objectId, eventType or nonce');
  }
  const prefix = `${options.issuerId}.`;
  if (!classId.startsWith(prefix) || !objectId.startsWith(prefix)) {
    throw new GoogleCallbackError('wrong_issuer', `class or object id outside issuer ${options.issuerId}`);
  }
  return { classId, objectId, eventType, nonce, expTimeMillis, ...(typeof count === 'number' ? { count } : {}) };
}

/** Fetches Google's root keys document (for a cache of the caller's choosing). */
export async function fetchGoogleRootKeys(url = GOOGLE_ROOT_KEYS_URL, timeoutMs = 10_000): Promise<{ keys: GoogleRootKey[] }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`Google root keys: ${url} answered ${response.status}`);
  const doc = (await response.json()) as { keys?: unknown };
  if (!Array.isArray(doc.keys)) throw new Error(`Google root keys: ${url} has no keys array`);
  return { keys: doc.keys.filter((k): k is GoogleRootKey => typeof k?.keyValue === 'string' && typeof k?.protocolVersion === 'string') };
}

async function loadRootKeys(options: VerifyCallbackOptions): Promise<GoogleRootKey[]> {
  if (typeof options.rootKeys === 'function') return (await options.rootKeys()).keys;
  if (options.rootKeys) return options.rootKeys.keys;
  return (await fetchGoogleRootKeys(options.rootKeysUrl ?? GOOGLE_ROOT_KEYS_URL)).keys;
}

interface Envelope {
  signature: string;
  signedKey: string;
  keySignatures: string[];
  signedMessage: string;
}

function parseEnvelope(body: unknown): Envelope {
  const data = (typeof body === 'string' || Buffer.isBuffer(body) ? parseJson(body.toString(), 'body') : body) as Record<string, any> | null;
  if (typeof data !== 'object' || data === null) throw new GoogleCallbackError('malformed', 'body is not a JSON object');
  if (data.protocolVersion !== PROTOCOL) {
    throw new GoogleCallbackError('malformed', `protocolVersion is ${JSON.stringify(data.protocolVersion)}, expected ${PROTOCOL}`);
  }
  const isk = data.intermediateSigningKey;
  if (
    typeof data.signature !== 'string' ||
    typeof data.signedMessage !== 'string' ||
    typeof isk?.signedKey !== 'string' ||
    !Array.isArray(isk.signatures) ||
    !isk.signatures.every((s: unknown) => typeof s === 'string')
  ) {
    throw new GoogleCallbackError('malformed', 'signature, signedMessage or intermediateSigningKey missing');
  }
  return { signature: data.signature, signedKey: isk.signedKey, keySignatures: isk.signatures, signedMessage: data.signedMessage };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new GoogleCallbackError('malformed', `${what} is not JSON`);
  }
}

/** Each part preceded by its byte length, 4 bytes little-endian (Tink's toLengthValue). */
function lengthValue(...parts: string[]): Buffer {
  return Buffer.concat(
    parts.flatMap((part) => {
      const bytes = Buffer.from(part, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      return [length, bytes];
    }),
  );
}

function spkiKey(base64: string): KeyObject | undefined {
  try {
    const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    // ECv2SigningOnly is fixed to NIST P-256.
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** ECDSA P-256 / SHA-256, DER-encoded signature in base64. */
function ecdsaVerify(data: Buffer, key: KeyObject, signatureBase64: string): boolean {
  try {
    return verify('sha256', data, key, Buffer.from(signatureBase64, 'base64'));
  } catch {
    return false;
  }
}
