import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  buildLoyaltyClass,
  buildLoyaltyObject,
  loyaltyObjectUpdate,
  walletResourceId,
} from '../../src/wallet/google/objects';
import { buildSaveJwt, buildSaveLink } from '../../src/wallet/google/save-link';
import { loadServiceAccount, parseServiceAccount } from '../../src/wallet/google/service-account';
import { createServiceAccount, verifyRs256Jwt } from '../support/wallet-fixtures';

const ISSUER = '3388000000012345678';
const fixture = createServiceAccount();
const serviceAccount = parseServiceAccount(JSON.stringify(fixture.json));
const dir = mkdtempSync(join(tmpdir(), 'wallet-google-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const classId = walletResourceId(ISSUER, 'card_coffee');
const loyaltyClass = buildLoyaltyClass({
  id: classId,
  issuerName: 'Café Uno',
  programName: 'Coffee Club',
  programLogoUrl: 'https://loyalty.example.com/cards/card_coffee/logo.png',
  testMode: true,
  backgroundColor: 'rgb(34, 40, 49)',
  callbackUrl: 'https://loyalty.example.com/wallet/google/callback',
});
const loyaltyObject = buildLoyaltyObject({
  id: walletResourceId(ISSUER, 'cus_01HZX4'),
  classId,
  accountId: 'cus_01HZX4',
  accountName: 'Ana Pereira',
  points: { label: 'Stamps', balance: { int: 3 } },
  barcodeValue: 'SCAN-7Q4K9',
  fields: [{ id: 'level', header: 'Level', body: 'Gold' }],
});

describe('Google ids and bodies', () => {
  test('ids are <issuerId>.<suffix> with only [A-Za-z0-9._-], injective for other characters', () => {
    assert.equal(walletResourceId(ISSUER, 'cus_01HZX4-a'), `${ISSUER}.cus_01HZX4-a`);
    const odd = walletResourceId(ISSUER, 'shop/ä b.c');
    assert.equal(odd, `${ISSUER}.shop.2F.C3.A4.20b.2Ec`);
    assert.match(odd, /^[A-Za-z0-9._-]+$/);
    assert.notEqual(walletResourceId(ISSUER, 'a.2E'), walletResourceId(ISSUER, 'a..'));
    assert.throws(() => walletResourceId('issuer', 'x'), /digits only/);
    assert.throws(() => walletResourceId(ISSUER, ''), /empty/);
  });

  test('class carries name (TEST prefix in test mode), logo, review status, colour, callback', () => {
    assert.deepEqual(loyaltyClass, {
      id: `${ISSUER}.card_coffee`,
      issuerName: 'Café Uno',
      programName: 'TEST · Coffee Club',
      programLogo: {
        sourceUri: { uri: 'https://loyalty.example.com/cards/card_coffee/logo.png' },
        contentDescription: { defaultValue: { language: 'en-US', value: 'TEST · Coffee Club' } },
      },
      reviewStatus: 'UNDER_REVIEW',
      hexBackgroundColor: '#222831',
      callbackOptions: { url: 'https://loyalty.example.com/wallet/google/callback' },
    });
  });

  test('object carries account, points, QR barcode, state ACTIVE', () => {
    assert.deepEqual(loyaltyObject, {
      id: `${ISSUER}.cus_01HZX4`,
      classId,
      state: 'ACTIVE',
      accountId: 'cus_01HZX4',
      accountName: 'Ana Pereira',
      loyaltyPoints: { label: 'Stamps', balance: { int: 3 } },
      barcode: { type: 'QR_CODE', value: 'SCAN-7Q4K9' },
      textModulesData: [{ id: 'level', header: 'Level', body: 'Gold' }],
    });
  });

  test('updates carry only what changed', () => {
    assert.deepEqual(loyaltyObjectUpdate({ points: { label: 'Credit', balance: { string: '9.90' } } }), {
      loyaltyPoints: { label: 'Credit', balance: { string: '9.90' } },
    });
  });
});

describe('service account key file', () => {
  test('loads client_email, RSA key, token_uri and key id', () => {
    const path = join(dir, 'key.json');
    writeFileSync(path, JSON.stringify(fixture.json));
    const loaded = loadServiceAccount(path);
    assert.equal(loaded.clientEmail, fixture.json.client_email);
    assert.equal(loaded.tokenUri, fixture.json.token_uri);
    assert.equal(loaded.privateKeyId, 'test-key-1');
    assert.equal(loaded.privateKey.asymmetricKeyType, 'rsa');
  });

  const broken: Array<[string, () => unknown, RegExp]> = [
    ['unreadable file', () => loadServiceAccount('/nonexistent/key.json', 'GOOGLE_KEY'), /^GOOGLE_KEY: cannot read \/nonexistent\/key\.json \(ENOENT\)$/],
    ['not JSON', () => parseServiceAccount('-----BEGIN PRIVATE KEY-----', 'GOOGLE_KEY'), /^GOOGLE_KEY: not JSON/],
    ['another credential type', () => parseServiceAccount({ ...fixture.json, type: 'authorized_user' }, 'K'), /^K: type is "authorized_user"/],
    ['no client_email', () => parseServiceAccount({ ...fixture.json, client_email: undefined }, 'K'), /^K: client_email is missing$/],
    ['no private_key', () => parseServiceAccount({ ...fixture.json, private_key: '' }, 'K'), /^K: private_key is missing$/],
    ['a broken private_key', () => parseServiceAccount({ ...fixture.json, private_key: 'nope' }, 'K'), /^K: private_key is not a PEM private key$/],
    ['no token_uri', () => parseServiceAccount({ ...fixture.json, token_uri: undefined }, 'K'), /^K: token_uri is missing$/],
  ];
  for (const [name, load, message] of broken) {
    test(`refuses ${name}`, () => assert.throws(load, { message }));
  }
});

describe('save link', () => {
  test('is pay.google.com/gp/v/save/<JWT> with an RS256 JWT the service account key verifies', () => {
    const link = buildSaveLink({ issuerId: ISSUER, serviceAccount, origins: ['https://loyalty.example.com'], loyaltyClass, loyaltyObject, now: () => 1_700_000_000_123 });
    assert.ok(link.startsWith('https://pay.google.com/gp/v/save/'));
    const { header, claims } = verifyRs256Jwt(link.slice('https://pay.google.com/gp/v/save/'.length), fixture.publicKey);
    assert.deepEqual(header, { alg: 'RS256', typ: 'JWT', kid: 'test-key-1' });
    assert.deepEqual(claims, {
      iss: fixture.json.client_email,
      aud: 'google',
      typ: 'savetowallet',
      iat: 1_700_000_000,
      origins: ['https://loyalty.example.com'],
      payload: { loyaltyClasses: [loyaltyClass], loyaltyObjects: [loyaltyObject] },
    });
  });

  test('the base URL is configurable; the class may be left out', () => {
    const link = buildSaveLink({ issuerId: ISSUER, serviceAccount, origins: [], loyaltyObject, saveUrlBase: 'http://127.0.0.1:9/save' });
    assert.ok(link.startsWith('http://127.0.0.1:9/save/'));
    const { claims } = verifyRs256Jwt(link.split('/save/')[1]!, fixture.publicKey);
    assert.deepEqual(claims.payload, { loyaltyObjects: [loyaltyObject] });
  });

  test('a JWT signed by another key does not verify', () => {
    const other = createServiceAccount();
    const jwt = buildSaveJwt({ issuerId: ISSUER, serviceAccount: parseServiceAccount(other.json), origins: [], loyaltyObject });
    assert.throws(() => verifyRs256Jwt(jwt, fixture.publicKey), /bad JWT signature/);
  });

  test('refuses ids of another issuer and a class that does not match the object', () => {
    assert.throws(() => buildSaveJwt({ issuerId: '999', serviceAccount, origins: [], loyaltyObject }), /must start with the issuer id "999\."/);
    const otherClass = { ...loyaltyClass, id: walletResourceId(ISSUER, 'card_tea') };
    assert.throws(() => buildSaveJwt({ issuerId: ISSUER, serviceAccount, origins: [], loyaltyClass: otherClass, loyaltyObject }), /classId does not match/);
  });
});
