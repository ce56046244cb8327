// Wallet test helpers on top of the HTTP harness: settings for the offline Apple chain and the
// fake Google servers, customers written straight into the database (enrolment is another
// feature), a balance change through the ledger, and .pkpass inspection.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import AdmZip from 'adm-zip';
import type { Customer } from '../../src/customers/model';
import { customersRepo } from '../../src/customers/repo';
import { cardsRepo } from '../../src/cards/repo';
import { changeBalance as changeLedgerBalance } from '../../src/loyalty/ledger';
import type { TestApp } from './app';
import { insertCustomer } from './customers';
import type { AppleTestChain, FakeGoogle, ServiceAccountFixture } from './wallet-fixtures';

export const ISSUER_ID = '3388000000022222222';

export const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
export const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
export const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

export function appleEnv(chain: AppleTestChain, apnsUrl?: string): Record<string, string> {
  return { ...chain.settings(), ...(apnsUrl ? { APNS_URL: apnsUrl } : {}) };
}

/** Writes the service-account key file and points every Google URL at the fake. */
export function googleEnv(google: FakeGoogle, account: ServiceAccountFixture): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'wallet-sa-')), 'service-account.json');
  writeFileSync(file, JSON.stringify(account.json));
  return {
    GOOGLE_ISSUER_ID: ISSUER_ID,
    GOOGLE_SERVICE_ACCOUNT_FILE: file,
    // The documented base, suffix included, as an operator would copy it.
    GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
    GOOGLE_ROOT_KEYS_URL: google.rootKeysUrl,
  };
}

/** A customer as enrolment would leave it: random codes, opening balance (hundredths) with its ledger row. */
export function createCustomer(
  app: TestApp,
  input: { orgId: string; cardId: string; livemode?: boolean; name?: string | null; balance?: number },
): Customer {
  return insertCustomer(app, { ...input, name: input.name === undefined ? 'Ana Pereira' : input.name });
}

/**
 * A balance change through the ledger's one balance-change function, as the console would make it
 * (an absolute balance in hundredths): balance, ledger row and pass-update row in one transaction,
 * and the worker woken once it commits (through `app.deps.afterCommit`).
 */
export function changeBalance(app: Pick<TestApp, 'db' | 'deps'>, customerId: string, newBalance: number): void {
  const customer = customersRepo(app.db).findByPassUserId(customerId)!;
  const card = cardsRepo(app.db).findById(customer.cardId)!;
  changeLedgerBalance(app.deps, { customer, card, kind: 'adjust', change: { to: newBalance }, isAward: false, source: 'console', field: 'balance' });
}

export const reload = (app: TestApp, customerId: string) => customersRepo(app.db).findByPassUserId(customerId);

export async function getBytes(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export interface UnzippedPass {
  dir: string;
  files: Map<string, Buffer>;
  pass: Record<string, any>;
}

let unzipped = 0;
const work = mkdtempSync(join(tmpdir(), 'wallet-unzip-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/**
 * Opens a .pkpass as a wallet app would: every entry read and checked against its CRC-32 (a
 * truncated or corrupted archive throws), then written out so openssl can check the signature.
 */
export function unzipPass(pkpass: Buffer): UnzippedPass {
  const dir = join(work, `p${++unzipped}`);
  const files = new Map<string, Buffer>();
  for (const entry of new AdmZip(pkpass).getEntries()) {
    if (entry.isDirectory) continue;
    const target = resolve(dir, entry.entryName);
    if (!target.startsWith(dir + sep)) throw new Error(`.pkpass entry outside the pass: ${entry.entryName}`);
    const data = entry.getData();
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
    files.set(entry.entryName, data);
  }
  const passJson = files.get('pass.json');
  if (!passJson) throw new Error(`.pkpass without pass.json: ${[...files.keys()].join(', ')}`);
  return { dir, files, pass: JSON.parse(passJson.toString('utf8')) };
}

export const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

/** Every file but manifest and signature, with its SHA-1: what manifest.json must say. */
export function expectedManifest(files: Map<string, Buffer>): Record<string, string> {
  return Object.fromEntries([...files].filter(([n]) => n !== 'manifest.json' && n !== 'signature').map(([n, d]) => [n, sha1(d)]));
}

export function opensslVerify(dir: string, rootCertPath: string, manifest = 'manifest.json') {
  return spawnSync('openssl', ['smime', '-verify', '-inform', 'DER', '-binary', '-content', join(dir, manifest),
    '-CAfile', rootCertPath, '-purpose', 'any', '-in', join(dir, 'signature'), '-out', '/dev/null'], { encoding: 'utf8' });
}

/** Writes a manifest claiming another pass.json, for the tamper check. */
export function writeTamperedManifest(pass: UnzippedPass): string {
  const manifest = JSON.parse(pass.files.get('manifest.json')!.toString('utf8'));
  manifest['pass.json'] = sha1(Buffer.from('{"tampered":true}'));
  writeFileSync(join(pass.dir, 'manifest.tampered.json'), JSON.stringify(manifest));
  return 'manifest.tampered.json';
}

/** The HTML without its per-response CSP nonce, so two pages can be compared whole. */
export const withoutNonce = (html: string) => html.replace(/nonce-[A-Za-z0-9+/=]+|nonce="[A-Za-z0-9+/=]+"/g, 'NONCE');
