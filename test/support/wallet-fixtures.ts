// Offline stand-ins for everything the wallet protocol layer talks to: an Apple-like certificate
// chain (made with the openssl CLI, as an operator would), a fake APNs server speaking HTTP/2 over
// TLS with client certificates, a Google service account, a signer of Google-style callbacks, and
// a fake Google token/objects/root-keys server. Everything listens on 127.0.0.1 only.
import { execFileSync } from 'node:child_process';
import { createVerify, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

// ---------------------------------------------------------------------------------------------
// Apple: test Root -> "WWDR" intermediate -> Pass Type ID certificate (+ a TLS server cert)
// ---------------------------------------------------------------------------------------------

export interface AppleTestChain {
  dir: string;
  passTypeId: string;
  teamId: string;
  passphrase: string;
  rootCertPath: string;
  wwdrCertPath: string;
  /** DER copy of the WWDR certificate: Apple's portal hands out .cer files in DER. */
  wwdrCertDerPath: string;
  /** A second intermediate that did not issue the pass certificate (think "G1 instead of G4"). */
  otherWwdrCertPath: string;
  passCertPath: string;
  /** Unencrypted PKCS#8 PEM. */
  passKeyPath: string;
  /** PKCS#8 PEM encrypted with `passphrase` (what OpenSSL 3 writes by default). */
  encryptedPassKeyPath: string;
  /** Traditional PKCS#1 PEM with a DEK-Info header, encrypted with `passphrase`. */
  legacyEncryptedPassKeyPath: string;
  /** The pass certificate followed by its key in one file, as `openssl pkcs12 -nodes` writes. */
  combinedCertAndKeyPath: string;
  /** An RSA key that does not belong to the pass certificate. */
  otherRsaKeyPath: string;
  /** An EC key: valid PEM, but passkit-generator (node-forge) signs with RSA only. */
  ecKeyPath: string;
  /** TLS certificate and key for 127.0.0.1, issued by the test root (for the fake APNs). */
  serverCertPath: string;
  serverKeyPath: string;
  /** The settings object `loadAppleCredentials` takes, with the plain key. */
  settings(): Record<string, string>;
  cleanup(): void;
}

export function createAppleTestChain(opts: { passTypeId?: string; teamId?: string; passphrase?: string } = {}): AppleTestChain {
  const passTypeId = opts.passTypeId ?? 'pass.com.example.loyalty';
  const teamId = opts.teamId ?? 'ABCDE12345';
  const passphrase = opts.passphrase ?? 'correct horse battery';
  const dir = mkdtempSync(join(tmpdir(), 'wallet-apple-'));
  const p = (name: string) => join(dir, name);

  writeFileSync(
    p('openssl.cnf'),
    [
      '[req]',
      'distinguished_name = dn',
      'prompt = no',
      '[dn]',
      'CN = unused',
      '[root]',
      'basicConstraints = critical,CA:TRUE',
      'keyUsage = critical,keyCertSign,cRLSign',
      'subjectKeyIdentifier = hash',
      '[wwdr]',
      'basicConstraints = critical,CA:TRUE,pathlen:0',
      'keyUsage = critical,keyCertSign,cRLSign',
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      '[pass]',
      'basicConstraints = critical,CA:FALSE',
      'keyUsage = critical,digitalSignature',
      'extendedKeyUsage = 1.2.840.113635.100.4.14',
      `1.2.840.113635.100.6.1.16 = ASN1:UTF8String:${passTypeId}`,
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      '[server]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage = serverAuth',
      'subjectAltName = IP:127.0.0.1,DNS:localhost',
      '',
    ].join('\n'),
  );

  const newRsaKey = (name: string): KeyObject => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(p(name), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    return privateKey;
  };
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const selfSigned = (key: string, subj: string, out: string, profile: string) =>
    openssl('req', '-x509', '-new', '-key', key, '-subj', subj, '-days', '3650', '-sha256',
      '-config', 'openssl.cnf', '-extensions', profile, '-out', out);
  const issue = (key: string, subj: string, out: string, profile: string, caCert: string, caKey: string, serial: string) => {
    openssl('req', '-new', '-key', key, '-subj', subj, '-config', 'openssl.cnf', '-out', `${out}.csr`);
    openssl('x509', '-req', '-in', `${out}.csr`, '-CA', caCert, '-CAkey', caKey, '-set_serial', serial,
      '-days', '365', '-sha256', '-extfile', 'openssl.cnf', '-extensions', profile, '-out', out);
  };

  newRsaKey('root.key');
  selfSigned('root.key', '/CN=Wallet Loyalty Test Root CA/O=Test/C=US', 'root.pem', 'root');
  newRsaKey('wwdr.key');
  issue('wwdr.key', '/CN=Test Worldwide Developer Relations Certification Authority/OU=G4/O=Test/C=US',
    'wwdr.pem', 'wwdr', 'root.pem', 'root.key', '2');
  openssl('x509', '-in', 'wwdr.pem', '-outform', 'DER', '-out', 'wwdr.cer');
  newRsaKey('other-wwdr.key');
  selfSigned('other-wwdr.key', '/CN=Test Worldwide Developer Relations Certification Authority/OU=G1/O=Test/C=US',
    'other-wwdr.pem', 'wwdr');

  const passKey = newRsaKey('pass.key');
  issue('pass.key', `/UID=${passTypeId}/CN=Pass Type ID: ${passTypeId}/OU=${teamId}/O=Example Shop/C=US`,
    'pass.pem', 'pass', 'wwdr.pem', 'wwdr.key', '3');
  writeFileSync(p('pass.enc.key'), passKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }));
  writeFileSync(p('pass.legacy.key'), passKey.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase }));
  writeFileSync(p('pass-combined.pem'), readFileSync(p('pass.pem'), 'utf8') + readFileSync(p('pass.key'), 'utf8'));
  newRsaKey('other.key');
  const { privateKey: ecKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(p('ec.key'), ecKey.export({ type: 'pkcs8', format: 'pem' }));

  newRsaKey('server.key');
  issue('server.key', '/CN=127.0.0.1', 'server.pem', 'server', 'root.pem', 'root.key', '4');

  const chain: AppleTestChain = {
    dir,
    passTypeId,
    teamId,
    passphrase,
    rootCertPath: p('root.pem'),
    wwdrCertPath: p('wwdr.pem'),
    wwdrCertDerPath: p('wwdr.cer'),
    otherWwdrCertPath: p('other-wwdr.pem'),
    passCertPath: p('pass.pem'),
    passKeyPath: p('pass.key'),
    encryptedPassKeyPath: p('pass.enc.key'),
    legacyEncryptedPassKeyPath: p('pass.legacy.key'),
    combinedCertAndKeyPath: p('pass-combined.pem'),
    otherRsaKeyPath: p('other.key'),
    ecKeyPath: p('ec.key'),
    serverCertPath: p('server.pem'),
    serverKeyPath: p('server.key'),
    settings: () => ({
      APPLE_PASS_TYPE_ID: passTypeId,
      APPLE_TEAM_ID: teamId,
      APPLE_PASS_CERT: chain.passCertPath,
      APPLE_PASS_KEY: chain.passKeyPath,
      APPLE_WWDR_CERT: chain.wwdrCertPath,
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  return chain;
}

// ---------------------------------------------------------------------------------------------
// Fake APNs: HTTP/2 over TLS, asks for the client certificate and records what arrived
// ---------------------------------------------------------------------------------------------

export interface ApnsRecord {
  method: string;
  path: string;
  headers: http2.IncomingHttpHeaders;
  body: string;
  /** Subject of the TLS client certificate, e.g. { UID, CN, OU, O, C }. */
  clientSubject: Record<string, string> | undefined;
  /** SHA-256 fingerprint of the TLS client certificate ("AB:CD:..."), to compare with the pass certificate. */
  clientFingerprint256: string | undefined;
}

export interface FakeApns {
  url: string;
  requests: ApnsRecord[];
  /** Status and reason for the following requests (reason goes into the JSON body). */
  answer(status: number, reason?: string): void;
  /** Leave requests unanswered (to exercise the client's timeout). */
  hang(): void;
  /** Ends every open HTTP/2 session, as APNs does when it drops idle connections. */
  dropSessions(): void;
  sessionCount(): number;
  close(): Promise<void>;
}

export async function startFakeApns(chain: AppleTestChain): Promise<FakeApns> {
  const requests: ApnsRecord[] = [];
  const sessions = new Set<http2.ServerHttp2Session>();
  let status = 200;
  let reason: string | undefined;
  let hanging = false;
  let sessionsSeen = 0;

  const server = http2.createSecureServer({
    key: readFileSync(chain.serverKeyPath),
    cert: readFileSync(chain.serverCertPath),
    // Ask for a client certificate but accept it whatever its EKU: the test compares it with the
    // pass certificate itself, which is stronger than a chain check.
    requestCert: true,
    rejectUnauthorized: false,
  });
  server.on('session', (session) => {
    sessionsSeen += 1;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const socket = stream.session?.socket as TLSSocket | undefined;
    const peer = socket?.getPeerCertificate();
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => {
      requests.push({
        method: String(headers[':method']),
        path: String(headers[':path']),
        headers,
        body,
        clientSubject: peer && peer.subject ? { ...(peer.subject as unknown as Record<string, string>) } : undefined,
        clientFingerprint256: peer?.fingerprint256 || undefined,
      });
      if (hanging) return;
      stream.respond({ ':status': status, 'apns-id': `fake-${requests.length}`, 'content-type': 'application/json' });
      stream.end(reason === undefined ? '' : JSON.stringify({ reason }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    answer(nextStatus, nextReason) {
      status = nextStatus;
      reason = nextReason;
      hanging = false;
    },
    hang() {
      hanging = true;
    },
    dropSessions() {
      for (const session of sessions) session.close();
    },
    sessionCount: () => sessionsSeen,
    close() {
      for (const session of sessions) session.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A 127.0.0.1 port that nothing listens on (bound, then released). */
export async function unusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// Google: service account, callback signer, fake token / objects / root-keys server
// ---------------------------------------------------------------------------------------------

export interface ServiceAccountFixture {
  /** The key file's JSON, with token_uri set to the given URL. */
  json: Record<string, string>;
  publicKey: KeyObject;
}

export function createServiceAccount(tokenUri = 'https://oauth2.googleapis.com/token'): ServiceAccountFixture {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    json: {
      type: 'service_account',
      project_id: 'wallet-loyalty-test',
      private_key_id: 'test-key-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'wallet@wallet-loyalty-test.iam.gserviceaccount.com',
      client_id: '1234567890',
      token_uri: tokenUri,
    },
    publicKey,
  };
}

/** Decodes a compact JWT and checks its RS256 signature with `publicKey` (independently of src/). */
export function verifyRs256Jwt(jwt: string, publicKey: KeyObject): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [h, c, s] = jwt.split('.');
  if (!h || !c || !s) throw new Error('not a compact JWT');
  const verifier = createVerify('RSA-SHA256');
  verifier.update(`${h}.${c}`);
  if (!verifier.verify(publicKey, Buffer.from(s, 'base64url'))) throw new Error('bad JWT signature');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')),
    claims: JSON.parse(Buffer.from(c, 'base64url').toString('utf8')),
  };
}

export interface CallbackBody {
  signature: string;
  intermediateSigningKey: { signedKey: string; signatures: string[] };
  protocolVersion: string;
  signedMessage: string;
}

export interface GoogleCallbackSigner {
  /** The document Google serves at its root-keys URL. */
  rootKeys: { keys: Array<{ keyValue: string; protocolVersion: string; keyExpiration?: string }> };
  /** Builds a callback body signed the ECv2SigningOnly way. */
  sign(message: Record<string, unknown>, opts: { keyExpirationMs: number; issuerId?: string; senderId?: string }): CallbackBody;
}

// 4-byte little-endian length before each part, as Tink's PaymentMethodTokenUtil.toLengthValue.
function lengthValue(...parts: string[]): Buffer {
  return Buffer.concat(
    parts.flatMap((part) => {
      const bytes = Buffer.from(part, 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32LE(bytes.length);
      return [len, bytes];
    }),
  );
}

export function createGoogleCallbackSigner(defaults: { issuerId: string; senderId?: string; rootKeyExpirationMs?: number }): GoogleCallbackSigner {
  const root = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    rootKeys: {
      keys: [
        {
          keyValue: spki(root.publicKey),
          protocolVersion: 'ECv2SigningOnly',
          ...(defaults.rootKeyExpirationMs !== undefined ? { keyExpiration: String(defaults.rootKeyExpirationMs) } : {}),
        },
      ],
    },
    sign(message, opts) {
      const senderId = opts.senderId ?? defaults.senderId ?? 'GooglePayPasses';
      const issuerId = opts.issuerId ?? defaults.issuerId;
      const intermediate = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const signedKey = JSON.stringify({ keyValue: spki(intermediate.publicKey), keyExpiration: String(opts.keyExpirationMs) });
      const keySignature = sign('sha256', lengthValue(senderId, 'ECv2SigningOnly', signedKey), root.privateKey);
      const signedMessage = JSON.stringify(message);
      const signature = sign('sha256', lengthValue(senderId, issuerId, 'ECv2SigningOnly', signedMessage), intermediate.privateKey);
      return {
        signature: signature.toString('base64'),
        intermediateSigningKey: { signedKey, signatures: [keySignature.toString('base64')] },
        protocolVersion: 'ECv2SigningOnly',
        signedMessage,
      };
    },
  };
}

export interface FakeGoogleRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeGoogle {
  baseUrl: string;
  tokenUri: string;
  rootKeysUrl: string;
  requests: FakeGoogleRequest[];
  tokenRequests(): FakeGoogleRequest[];
  objectRequests(): FakeGoogleRequest[];
  /** PATCHes of loyalty classes (a card change). */
  classRequests(): FakeGoogleRequest[];
  /** Tokens handed out, in order: "token-1", "token-2", ... */
  tokensIssued(): number;
  setTokenAnswer(answer: { status: number; expiresIn?: number }): void;
  setObjectStatus(status: number): void;
  setClassStatus(status: number): void;
  setRootKeys(doc: unknown): void;
  /** addMessage requests, in order. */
  messageRequests(): FakeGoogleRequest[];
  /** The messages each object holds, as Google keeps them, and whether each notified. */
  messagesOf(objectId: string): { header: string; body: string; messageType: string; notified: boolean }[];
  /** Notifying updates Google counted for the object in the last 24 hours (of the fake's clock). */
  notifyingUpdates(objectId: string): number;
  /** Answers addMessage of this type with `status` instead (null: as Google would). */
  failMessages(messageType: 'TEXT' | 'TEXT_AND_NOTIFY', status: number | null): void;
  close(): Promise<void>;
}

/** Google's budget: this many notifying updates per pass in 24 hours; the next is refused with 429. */
export const GOOGLE_NOTIFY_BUDGET = 3;

/**
 * The fake Google APIs on 127.0.0.1: the token endpoint, loyalty objects and classes, the root keys.
 * It keeps Google's notification budget as Google does: a message added with TEXT_AND_NOTIFY, or a
 * PATCH with notifyPreference "notifyOnUpdate", is a notifying update; the fourth within 24 hours
 * (by `now`, the test's clock) is refused with 429 QuotaExceeded and not added.
 */
export async function startFakeGoogle(options: { now?: () => number } = {}): Promise<FakeGoogle> {
  const now = options.now ?? Date.now;
  const requests: FakeGoogleRequest[] = [];
  let tokens = 0;
  let tokenAnswer: { status: number; expiresIn?: number } = { status: 200, expiresIn: 3600 };
  let objectStatus = 200;
  let classStatus = 200;
  let rootKeys: unknown = { keys: [] };
  const messages = new Map<string, { header: string; body: string; messageType: string; notified: boolean }[]>();
  const notified = new Map<string, number[]>();
  const failing: Record<string, number | null> = { TEXT: null, TEXT_AND_NOTIFY: null };
  const recentNotifications = (objectId: string) => (notified.get(objectId) ?? []).filter((at) => at > now() - 24 * 3_600_000);
  /** Spends one of the object's notifications; false when its budget is spent. */
  const spend = (objectId: string): boolean => {
    const recent = recentNotifications(objectId);
    if (recent.length >= GOOGLE_NOTIFY_BUDGET) return false;
    notified.set(objectId, [...recent, now()]);
    return true;
  };
  const quotaExceeded = {
    error: {
      code: 429,
      message: 'Quota exceeded: a pass can receive at most 3 notifications in 24 hours.',
      errors: [{ message: 'Quota exceeded', domain: 'global', reason: 'QuotaExceeded' }],
      status: 'RESOURCE_EXHAUSTED',
    },
  };

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && path === '/token') {
        if (tokenAnswer.status !== 200) return json(tokenAnswer.status, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        tokens += 1;
        return json(200, { access_token: `token-${tokens}`, expires_in: tokenAnswer.expiresIn, token_type: 'Bearer' });
      }
      const addMessage = /^\/walletobjects\/v1\/loyaltyObject\/([^/]+)\/addMessage$/.exec(path);
      if (req.method === 'POST' && addMessage) {
        const objectId = decodeURIComponent(addMessage[1]!);
        const message = (JSON.parse(body) as { message: { header: string; body: string; messageType: 'TEXT' | 'TEXT_AND_NOTIFY' } }).message;
        const forced = failing[message.messageType];
        if (forced) return json(forced, { error: { code: forced, message: `fake status ${forced}` } });
        if (objectStatus !== 200) return json(objectStatus, { error: { code: objectStatus, message: `fake status ${objectStatus}` } });
        const notifies = message.messageType === 'TEXT_AND_NOTIFY';
        if (notifies && !spend(objectId)) return json(429, quotaExceeded);
        messages.set(objectId, [...(messages.get(objectId) ?? []), { header: message.header, body: message.body, messageType: message.messageType, notified: notifies }]);
        return json(200, { resource: { id: objectId, messages: messages.get(objectId) } });
      }
      if (req.method === 'PATCH' && path.startsWith('/walletobjects/v1/loyaltyObject/')) {
        const objectId = decodeURIComponent(path.split('/').pop() ?? '');
        const patch = JSON.parse(body) as { notifyPreference?: string };
        if (objectStatus !== 200) return json(objectStatus, { error: { code: objectStatus, message: `fake status ${objectStatus}` } });
        if (patch.notifyPreference === 'notifyOnUpdate' && !spend(objectId)) return json(429, quotaExceeded);
        return json(200, { id: objectId, ...patch });
      }
      if (req.method === 'PATCH' && path.startsWith('/walletobjects/v1/loyaltyClass/')) {
        if (classStatus === 200) return json(200, { id: decodeURIComponent(path.split('/').pop() ?? ''), ...JSON.parse(body) });
        return json(classStatus, { error: { code: classStatus, message: `fake status ${classStatus}` } });
      }
      if (req.method === 'GET' && path === '/keys') return json(200, rootKeys);
      json(404, { error: { code: 404, message: 'no such fake route' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  return {
    baseUrl,
    tokenUri: `${baseUrl}/token`,
    rootKeysUrl: `${baseUrl}/keys`,
    requests,
    tokenRequests: () => requests.filter((r) => r.path === '/token'),
    objectRequests: () => requests.filter((r) => r.path.startsWith('/walletobjects/v1/loyaltyObject/') && !r.path.endsWith('/addMessage')),
    messageRequests: () => requests.filter((r) => r.path.endsWith('/addMessage')),
    messagesOf: (objectId) => messages.get(objectId) ?? [],
    notifyingUpdates: (objectId) => recentNotifications(objectId).length,
    failMessages: (messageType, status) => (failing[messageType] = status),
    classRequests: () => requests.filter((r) => r.path.startsWith('/walletobjects/v1/loyaltyClass/')),
    tokensIssued: () => tokens,
    setTokenAnswer: (answer) => (tokenAnswer = answer),
    setObjectStatus: (status) => (objectStatus = status),
    setClassStatus: (status) => (classStatus = status),
    setRootKeys: (doc) => (rootKeys = doc),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

