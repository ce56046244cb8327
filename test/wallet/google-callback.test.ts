import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verifyGoogleCallback, type VerifyCallbackOptions } from '../../src/wallet/google/callback';
import { createGoogleCallbackSigner, startFakeGoogle, type CallbackBody, type FakeGoogle } from '../support/wallet-fixtures';

const ISSUER = '3388000000012345678';
const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;

const signer = createGoogleCallbackSigner({ issuerId: ISSUER });
const message = {
  classId: `${ISSUER}.card_coffee`,
  objectId: `${ISSUER}.cus_01HZX4`,
  expTimeMillis: NOW + HOUR,
  count: 1,
  eventType: 'save',
  nonce: '2f6e1b1e-3b0c-4a4e-9a57-0d7f2c1e5a11',
};
const options: VerifyCallbackOptions = { issuerId: ISSUER, rootKeys: signer.rootKeys, now: () => NOW };
const valid = () => signer.sign(message, { keyExpirationMs: NOW + 24 * HOUR });

/** Flips one character of a base64 or JSON string while keeping it well-formed where possible. */
function tamper(text: string, at = Math.floor(text.length / 2)): string {
  const ch = text[at]!;
  return text.slice(0, at) + (ch === 'A' ? 'B' : 'A') + text.slice(at + 1);
}

describe('verifyGoogleCallback', () => {
  test('a valid callback verifies and yields the message', async () => {
    assert.deepEqual(await verifyGoogleCallback(valid(), options), {
      classId: message.classId,
      objectId: message.objectId,
      eventType: 'save',
      nonce: message.nonce,
      expTimeMillis: NOW + HOUR,
      count: 1,
    });
  });

  test('the raw request body (JSON text) is accepted as well', async () => {
    const result = await verifyGoogleCallback(JSON.stringify(valid()), options);
    assert.equal(result.nonce, message.nonce);
  });

  test('root keys are fetched from the configured URL', async () => {
    const google: FakeGoogle = await startFakeGoogle();
    try {
      google.setRootKeys(signer.rootKeys);
      const result = await verifyGoogleCallback(valid(), { issuerId: ISSUER, rootKeysUrl: google.rootKeysUrl, now: () => NOW });
      assert.equal(result.objectId, message.objectId);
      assert.equal(google.requests.filter((r) => r.path === '/keys').length, 1);
    } finally {
      await google.close();
    }
  });

  const refusals: Array<[string, () => CallbackBody | unknown, Partial<VerifyCallbackOptions>, string]> = [
    [
      'a tampered signedMessage (other object id)',
      () => ({ ...valid(), signedMessage: JSON.stringify({ ...message, objectId: `${ISSUER}.someone_else` }) }),
      {},
      'bad_message_signature',
    ],
    ['a tampered message signature', () => ({ ...valid(), signature: tamper(valid().signature, 20) }), {}, 'bad_message_signature'],
    [
      'a tampered signedKey (key expiry moved)',
      () => {
        const body = valid();
        const signedKey = body.intermediateSigningKey.signedKey.replace(/"keyExpiration":"\d+"/, `"keyExpiration":"${NOW + 99 * HOUR}"`);
        return { ...body, intermediateSigningKey: { ...body.intermediateSigningKey, signedKey } };
      },
      {},
      'bad_key_signature',
    ],
    [
      'an intermediate key signed by a foreign root',
      () => createGoogleCallbackSigner({ issuerId: ISSUER }).sign(message, { keyExpirationMs: NOW + HOUR }),
      {},
      'bad_key_signature',
    ],
    ['an expired intermediate key', () => signer.sign(message, { keyExpirationMs: NOW - 1 }), {}, 'key_expired'],
    ['an expired message', () => signer.sign({ ...message, expTimeMillis: NOW }, { keyExpirationMs: NOW + HOUR }), {}, 'message_expired'],
    ['a message signed for another issuer', () => signer.sign(message, { keyExpirationMs: NOW + HOUR, issuerId: '1111' }), {}, 'bad_message_signature'],
    ['a different sender id than configured', () => valid(), { senderId: 'Google' }, 'bad_key_signature'],
    [
      'ids outside our issuer in a message signed for us',
      () => signer.sign({ ...message, classId: '1111.card', objectId: '1111.cus' }, { keyExpirationMs: NOW + HOUR }),
      {},
      'wrong_issuer',
    ],
    ['another protocol version', () => ({ ...valid(), protocolVersion: 'ECv2' }), {}, 'malformed'],
    ['a body without signatures', () => ({ protocolVersion: 'ECv2SigningOnly', signedMessage: '{}' }), {}, 'malformed'],
    ['a body that is not JSON', () => 'not json', {}, 'malformed'],
    ['expired root keys only', () => valid(), { rootKeys: { keys: signer.rootKeys.keys.map((k) => ({ ...k, keyExpiration: String(NOW - 1) })) } }, 'no_root_keys'],
  ];
  for (const [name, body, extra, code] of refusals) {
    test(`refuses ${name} (${code})`, async () => {
      await assert.rejects(verifyGoogleCallback(body(), { ...options, ...extra }), (err: Error & { code?: string }) => {
        assert.equal(err.name, 'GoogleCallbackError');
        assert.equal(err.code, code);
        assert.match(err.message, new RegExp(`^Google callback refused \\(${code}\\): `));
        return true;
      });
    });
  }

  test('a configured sender id is used for both signatures', async () => {
    const body = signer.sign(message, { keyExpirationMs: NOW + HOUR, senderId: 'Google' });
    assert.equal((await verifyGoogleCallback(body, { ...options, senderId: 'Google' })).nonce, message.nonce);
    await assert.rejects(verifyGoogleCallback(body, options), { code: 'bad_key_signature' });
  });
});
