import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { loadAppleCredentials } from '../../src/wallet/apple/credentials';
import { createAppleTestChain, type AppleTestChain } from '../support/wallet-fixtures';

let chain: AppleTestChain;
before(() => {
  chain = createAppleTestChain();
});
after(() => chain.cleanup());

describe('loadAppleCredentials', () => {
  test('nothing set: not configured, every required setting named', () => {
    assert.deepEqual(loadAppleCredentials({}), {
      configured: false,
      missing: ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT', 'APPLE_PASS_KEY', 'APPLE_WWDR_CERT'],
    });
  });

  test('partly set (empty strings count as unset): names exactly the missing ones', () => {
    const { APPLE_WWDR_CERT: _w, ...rest } = chain.settings();
    assert.deepEqual(loadAppleCredentials({ ...rest, APPLE_TEAM_ID: '  ' }), {
      configured: false,
      missing: ['APPLE_TEAM_ID', 'APPLE_WWDR_CERT'],
    });
  });

  test('a complete plain setup loads the files once, as PEM', () => {
    const reads: string[] = [];
    const creds = loadAppleCredentials(chain.settings(), (path) => {
      reads.push(path);
      return readFileSync(path);
    });
    assert.equal(creds.configured, true);
    if (!creds.configured) return;
    assert.deepEqual(reads.sort(), [chain.passCertPath, chain.passKeyPath, chain.wwdrCertPath].sort());
    assert.equal(creds.passTypeId, chain.passTypeId);
    assert.equal(creds.teamId, chain.teamId);
    assert.match(creds.signerCert, /^-----BEGIN CERTIFICATE-----/);
    assert.match(creds.wwdr, /^-----BEGIN CERTIFICATE-----/);
    assert.match(creds.signerKey, /^-----BEGIN PRIVATE KEY-----/);
    assert.equal(creds.signerKeyPassphrase, undefined);
    assert.ok(creds.certificateNotAfter.getTime() > Date.now());
  });

  const goodVariants: Array<[string, (c: AppleTestChain) => Record<string, string>]> = [
    ['PKCS#8 key encrypted with the passphrase', (c) => ({ APPLE_PASS_KEY: c.encryptedPassKeyPath, APPLE_PASS_KEY_PASSPHRASE: c.passphrase })],
    ['legacy PKCS#1 key with DEK-Info encryption', (c) => ({ APPLE_PASS_KEY: c.legacyEncryptedPassKeyPath, APPLE_PASS_KEY_PASSPHRASE: c.passphrase })],
    ['certificate and key in one file (openssl pkcs12 -nodes)', (c) => ({ APPLE_PASS_KEY: c.combinedCertAndKeyPath })],
    ['WWDR certificate in DER, as downloaded from Apple', (c) => ({ APPLE_WWDR_CERT: c.wwdrCertDerPath })],
  ];
  for (const [name, change] of goodVariants) {
    test(`accepts ${name}`, () => {
      const creds = loadAppleCredentials({ ...chain.settings(), ...change(chain) });
      assert.equal(creds.configured, true);
      if (creds.configured) assert.match(creds.signerKey, /PRIVATE KEY-----\s*$/);
    });
  }

  const badVariants: Array<[string, (c: AppleTestChain) => Record<string, string>, RegExp]> = [
    ['unreadable certificate file', () => ({ APPLE_PASS_CERT: '/nonexistent/pass.pem' }), /^APPLE_PASS_CERT: cannot read \/nonexistent\/pass\.pem \(ENOENT\)$/],
    ['a key given as the certificate', (c) => ({ APPLE_PASS_CERT: c.passKeyPath }), /^APPLE_PASS_CERT: .* is not an X\.509 certificate/],
    ['unreadable WWDR file', () => ({ APPLE_WWDR_CERT: '/nonexistent/wwdr.pem' }), /^APPLE_WWDR_CERT: cannot read/],
    ['WWDR that did not issue the pass certificate', (c) => ({ APPLE_WWDR_CERT: c.otherWwdrCertPath }), /^APPLE_WWDR_CERT: .*did not issue the pass certificate.*G4/],
    ['unreadable key file', () => ({ APPLE_PASS_KEY: '/nonexistent/pass.key' }), /^APPLE_PASS_KEY: cannot read/],
    ['the certificate given as key', (c) => ({ APPLE_PASS_KEY: c.passCertPath }), /^APPLE_PASS_KEY: .* is not a PEM private key; it holds no PRIVATE KEY block$/],
    ['a binary file given as key', (c) => ({ APPLE_PASS_KEY: c.wwdrCertDerPath }), /^APPLE_PASS_KEY: .* is not PEM/],
    ['encrypted key without passphrase', (c) => ({ APPLE_PASS_KEY: c.encryptedPassKeyPath }), /^APPLE_PASS_KEY: .* is encrypted; set APPLE_PASS_KEY_PASSPHRASE$/],
    ['encrypted key with a wrong passphrase', (c) => ({ APPLE_PASS_KEY: c.encryptedPassKeyPath, APPLE_PASS_KEY_PASSPHRASE: 'wrong' }), /^APPLE_PASS_KEY: cannot decrypt .*APPLE_PASS_KEY_PASSPHRASE/],
    ['legacy encrypted key with a wrong passphrase', (c) => ({ APPLE_PASS_KEY: c.legacyEncryptedPassKeyPath, APPLE_PASS_KEY_PASSPHRASE: 'wrong' }), /^APPLE_PASS_KEY: cannot decrypt .*APPLE_PASS_KEY_PASSPHRASE/],
    ['an EC key (node-forge signs with RSA only)', (c) => ({ APPLE_PASS_KEY: c.ecKeyPath }), /^APPLE_PASS_KEY: .* is not an RSA private key/],
    ['a key of another certificate', (c) => ({ APPLE_PASS_KEY: c.otherRsaKeyPath }), /^APPLE_PASS_KEY: the key in .* does not belong to the certificate in APPLE_PASS_CERT$/],
    ['a pass type id other than the certificate UID', () => ({ APPLE_PASS_TYPE_ID: 'pass.com.example.other' }), /^APPLE_PASS_TYPE_ID: "pass\.com\.example\.other" differs from the certificate's pass type id "pass\.com\.example\.loyalty"$/],
    ['a team id other than the certificate OU', () => ({ APPLE_TEAM_ID: 'ZZZZZ99999' }), /^APPLE_TEAM_ID: "ZZZZZ99999" differs/],
    ['a CA certificate without UID as pass certificate', (c) => ({ APPLE_PASS_CERT: c.wwdrCertPath }), /^APPLE_PASS_CERT: .* has no UID in its subject; is it a Pass Type ID certificate\?$/],
  ];
  for (const [name, change, message] of badVariants) {
    test(`refuses ${name}, naming the setting on one line`, () => {
      assert.throws(() => loadAppleCredentials({ ...chain.settings(), ...change(chain) }), (err: Error) => {
        assert.match(err.message, message);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      });
    });
  }
});
