import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config';
import { createFakeClock } from '../support/fakes';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/lib/log';
import { startServer } from '../../src/main';
import { loadWalletServices, missingWalletSettings, publicUrlWarning } from '../../src/wallet/services';
import { appleEnv } from '../support/wallet-app';
import { createAppleTestChain, type AppleTestChain } from '../support/wallet-fixtures';

let chain: AppleTestChain;
before(() => {
  chain = createAppleTestChain();
});
after(() => chain.cleanup());

const load = (env: Record<string, string>) => loadWalletServices(loadConfig({ DATA_DIR: '/tmp/unused', ...env }), createFakeClock());

test('no wallet settings: both wallets off, nothing thrown', () => {
  assert.deepEqual(load({}), { apple: null, google: null });
});

test('a full Apple setup is loaded', () => {
  const wallet = load(appleEnv(chain));
  assert.equal(wallet.apple?.passTypeId, chain.passTypeId);
  assert.equal(wallet.google, null);
});

test('partial or broken setups stop the start with one line naming the setting', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ APPLE_PASS_TYPE_ID: chain.passTypeId }, /^Apple Wallet is partly configured: also set APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT/],
    [{ ...appleEnv(chain), APPLE_PASS_KEY: chain.otherRsaKeyPath }, /^Invalid setting APPLE_PASS_KEY: the key in .* does not belong to the certificate/],
    [{ ...appleEnv(chain), APPLE_WWDR_CERT: chain.otherWwdrCertPath }, /^Invalid setting APPLE_WWDR_CERT: .*did not issue the pass certificate/],
    [{ GOOGLE_ISSUER_ID: '3388000000022222222' }, /^Google Wallet is partly configured: set both GOOGLE_ISSUER_ID and GOOGLE_SERVICE_ACCOUNT_FILE/],
    [{ GOOGLE_ISSUER_ID: 'issuer', GOOGLE_SERVICE_ACCOUNT_FILE: chain.passKeyPath }, /^Invalid setting GOOGLE_ISSUER_ID: expected the digits/],
    [{ GOOGLE_ISSUER_ID: '3388000000022222222', GOOGLE_SERVICE_ACCOUNT_FILE: chain.passKeyPath }, /^Invalid setting GOOGLE_SERVICE_ACCOUNT_FILE: .*not JSON/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => load(env), (err: unknown) => err instanceof ConfigError && message.test(err.message) && !err.message.includes('\n'));
  }
});

test('Apple Wallet with a PUBLIC_URL phones cannot use for updates is named at start', () => {
  const warning = (env: Record<string, string>) => {
    const config = loadConfig({ DATA_DIR: '/tmp/unused', ...env });
    return publicUrlWarning(config, loadWalletServices(config, createFakeClock()));
  };
  // The default PUBLIC_URL (http://localhost:<port>) is baked into every pass as webServiceURL.
  assert.match(warning(appleEnv(chain)) ?? '', /PUBLIC_URL http:\/\/localhost:3000 .*HTTPS/);
  assert.match(warning({ ...appleEnv(chain), PUBLIC_URL: 'http://loyalty.example.com' }) ?? '', /HTTPS/);
  assert.match(warning({ ...appleEnv(chain), PUBLIC_URL: 'https://127.0.0.1:8443' }) ?? '', /cannot reach/);
  assert.match(warning({ ...appleEnv(chain), PUBLIC_URL: 'https://[::1]:8443' }) ?? '', /cannot reach/);
  assert.equal(warning({ ...appleEnv(chain), PUBLIC_URL: 'https://loyalty.example.com' }), undefined);
  assert.equal(warning({}), undefined, 'no Apple Wallet, nothing to say');
});

test('the settings a wallet still needs: every one of a wallet that is off, none of one that is on', () => {
  const apple = ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT', 'APPLE_PASS_KEY', 'APPLE_WWDR_CERT'];
  const google = ['GOOGLE_ISSUER_ID', 'GOOGLE_SERVICE_ACCOUNT_FILE'];
  assert.deepEqual(missingWalletSettings(load({})), { apple, google });
  assert.deepEqual(missingWalletSettings(load(appleEnv(chain))), { apple: [], google });
});

test('the start-up log tells the operator, once, which settings turn the wallets on', async () => {
  for (const [env, expected] of [[{}, { apple: 5, google: 2 }], [appleEnv(chain), { apple: 0, google: 2 }]] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), 'wl-wallet-log-'));
    const lines: string[] = [];
    const server = await startServer(loadConfig({ DATA_DIR: dir, PORT: '0', ...env }), { log: createLogger('info', (line) => lines.push(line)) });
    try {
      const hints = lines.map((l) => JSON.parse(l)).filter((e) => e.missingSettings);
      assert.equal(hints.length, 1, lines.join('\n'));
      assert.equal(hints[0].missingSettings.apple.length, expected.apple);
      assert.equal(hints[0].missingSettings.google.length, expected.google);
      assert.match(hints[0].msg, /web pass.*README/);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
