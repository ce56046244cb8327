// Loads the operator's Apple Wallet signing material once, at start-up, and checks it the way
// Apple's devices and passkit-generator will later use it. Every mistake we can see now (wrong
// file given as key, wrong passphrase, G1 instead of G4 WWDR, certificate of another pass type)
// becomes one line naming the setting, instead of a broken pass on a customer's phone.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';

/** Settings that must all be set for Apple Wallet to be on. */
export const REQUIRED_APPLE_SETTINGS = [
  'APPLE_PASS_TYPE_ID',
  'APPLE_TEAM_ID',
  'APPLE_PASS_CERT',
  'APPLE_PASS_KEY',
  'APPLE_WWDR_CERT',
] as const;

export type AppleSettingName = (typeof REQUIRED_APPLE_SETTINGS)[number] | 'APPLE_PASS_KEY_PASSPHRASE';

/** Keyed by the setting names, so `process.env` or a config section can be passed as is. */
export type AppleSettings = { readonly [K in AppleSettingName]?: string | undefined };

export interface AppleCredentials {
  configured: true;
  passTypeId: string;
  teamId: string;
  /** PEM, normalised (a DER .cer from Apple's portal is converted). */
  signerCert: string;
  /** PEM of the private key block alone, as found in the file (still encrypted if it was). */
  signerKey: string;
  signerKeyPassphrase?: string;
  /** PEM of the WWDR intermediate. */
  wwdr: string;
  /** When the pass certificate stops working; the service may warn ahead of it. */
  certificateNotAfter: Date;
}

export type AppleCredentialsResult = AppleCredentials | { configured: false; missing: AppleSettingName[] };

export type ReadFile = (path: string) => Buffer;

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/**
 * Returns `{ configured: false, missing }` when any required setting is unset or empty (all five
 * missing means the operator did not turn Apple Wallet on; fewer is a partial setup the caller
 * can report). Throws an Error whose message names the setting when a file is set but unusable.
 */
export function loadAppleCredentials(settings: AppleSettings, readFile: ReadFile = readFileSync): AppleCredentialsResult {
  const missing = REQUIRED_APPLE_SETTINGS.filter((name) => !settings[name]?.trim());
  if (missing.length > 0) return { configured: false, missing };

  const passTypeId = settings.APPLE_PASS_TYPE_ID!.trim();
  const teamId = settings.APPLE_TEAM_ID!.trim();
  const passphrase = settings.APPLE_PASS_KEY_PASSPHRASE || undefined;

  const cert = readCertificate('APPLE_PASS_CERT', settings.APPLE_PASS_CERT!, readFile);
  const wwdr = readCertificate('APPLE_WWDR_CERT', settings.APPLE_WWDR_CERT!, readFile);

  // pass.json's passTypeIdentifier/teamIdentifier must equal the certificate's UID/OU, or
  // devices reject the signature. Checking here turns a silent failure into a start-up error.
  const subject = parseSubject(cert.subject);
  const uid = subject.get('UID');
  if (!uid) {
    throw new Error(`APPLE_PASS_CERT: ${settings.APPLE_PASS_CERT} has no UID in its subject; is it a Pass Type ID certificate?`);
  }
  if (uid !== passTypeId) {
    throw new Error(`APPLE_PASS_TYPE_ID: "${passTypeId}" differs from the certificate's pass type id "${uid}"`);
  }
  const ou = subject.get('OU');
  if (ou !== undefined && ou !== teamId) {
    throw new Error(`APPLE_TEAM_ID: "${teamId}" differs from the certificate's team id "${ou}"`);
  }

  const keyPath = settings.APPLE_PASS_KEY!;
  const keyPem = readKeyPem(keyPath, readFile);
  const key = decryptKey(keyPath, keyPem, passphrase);

  const certRsa = forgeRsaPublicKey(cert);
  if (!certRsa.n.equals(key.n) || !certRsa.e.equals(key.e)) {
    throw new Error(`APPLE_PASS_KEY: the key in ${keyPath} does not belong to the certificate in APPLE_PASS_CERT`);
  }

  // Devices build the chain from the WWDR certificate carried in the signature, so it must be
  // the one that issued the pass certificate (G4 for certificates issued since January 2022).
  if (!cert.checkIssued(wwdr) || !cert.verify(wwdr.publicKey)) {
    throw new Error(
      `APPLE_WWDR_CERT: ${settings.APPLE_WWDR_CERT} ("${oneLine(wwdr.subject)}") did not issue the pass certificate; ` +
        `it was issued by "${oneLine(cert.issuer)}" (current pass certificates need WWDR G4)`,
    );
  }

  return {
    configured: true,
    passTypeId,
    teamId,
    signerCert: cert.toString(),
    signerKey: keyPem,
    ...(passphrase !== undefined ? { signerKeyPassphrase: passphrase } : {}),
    wwdr: wwdr.toString(),
    certificateNotAfter: new Date(cert.validTo),
  };
}

function readSetting(name: AppleSettingName, path: string, readFile: ReadFile): Buffer {
  try {
    return readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(`${name}: cannot read ${path} (${code})`);
  }
}

function readCertificate(name: AppleSettingName, path: string, readFile: ReadFile): X509Certificate {
  const data = readSetting(name, path, readFile);
  try {
    // Accepts PEM and DER: Apple's portal hands out DER .cer files.
    return new X509Certificate(data);
  } catch {
    throw new Error(`${name}: ${path} is not an X.509 certificate (PEM or DER)`);
  }
}

function readKeyPem(path: string, readFile: ReadFile): string {
  const text = readSetting('APPLE_PASS_KEY', path, readFile).toString('utf8');
  // `openssl pkcs12 -nodes` writes certificate and key into one file; take the key block.
  for (const match of text.matchAll(PEM_BLOCK)) {
    if (match[1]!.endsWith('PRIVATE KEY')) return match[0];
  }
  const hint = text.includes('-----BEGIN') ? 'it holds no PRIVATE KEY block' : 'it is not PEM (a .p12? extract the key with openssl pkcs12 -nocerts)';
  throw new Error(`APPLE_PASS_KEY: ${path} is not a PEM private key; ${hint}`);
}

function decryptKey(path: string, pem: string, passphrase: string | undefined): forge.pki.rsa.PrivateKey {
  const encrypted = pem.includes('ENCRYPTED');
  if (encrypted && passphrase === undefined) {
    throw new Error(`APPLE_PASS_KEY: ${path} is encrypted; set APPLE_PASS_KEY_PASSPHRASE`);
  }
  let key: forge.pki.rsa.PrivateKey | null;
  try {
    // The very call passkit-generator makes when signing: what passes here signs later.
    key = forge.pki.decryptRsaPrivateKey(pem, passphrase) as forge.pki.rsa.PrivateKey | null;
  } catch (err) {
    const why = oneLine((err as Error).message);
    if (encrypted) throw new Error(`APPLE_PASS_KEY: cannot decrypt ${path} with APPLE_PASS_KEY_PASSPHRASE (${why})`);
    throw new Error(`APPLE_PASS_KEY: ${path} is not an RSA private key (${why})`);
  }
  if (!key) throw new Error(`APPLE_PASS_KEY: cannot decrypt ${path}; APPLE_PASS_KEY_PASSPHRASE is wrong`);
  if (!key.n || !key.e) throw new Error(`APPLE_PASS_KEY: ${path} is not an RSA private key`);
  return key;
}

function forgeRsaPublicKey(cert: X509Certificate): forge.pki.rsa.PublicKey {
  try {
    return forge.pki.certificateFromPem(cert.toString()).publicKey as forge.pki.rsa.PublicKey;
  } catch (err) {
    throw new Error(`APPLE_PASS_CERT: the certificate's key is not RSA (${oneLine((err as Error).message)})`);
  }
}

/** Node prints a subject as "UID=…\nCN=…\nOU=…"; first value wins for repeated names. */
function parseSubject(subject: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && !fields.has(line.slice(0, eq))) fields.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return fields;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ', ').trim();
}
