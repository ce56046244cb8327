import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sameSecret, sha256Hex } from '../src/lib/secrets';

// The one secret comparison behind API keys, install codes and ApplePass tokens.

describe('sameSecret', () => {
  const cases: { name: string; given: string; expected: string; same: boolean }[] = [
    { name: 'equal secrets', given: 'Fj3kQ9xZ0pLm2Wq8', expected: 'Fj3kQ9xZ0pLm2Wq8', same: true },
    { name: 'one character differs', given: 'Fj3kQ9xZ0pLm2Wq9', expected: 'Fj3kQ9xZ0pLm2Wq8', same: false },
    // timingSafeEqual throws on buffers of different lengths; the digests never differ in length.
    { name: 'a prefix of the secret', given: 'Fj3kQ9xZ', expected: 'Fj3kQ9xZ0pLm2Wq8', same: false },
    { name: 'empty against a secret', given: '', expected: 'Fj3kQ9xZ0pLm2Wq8', same: false },
    { name: 'case differs', given: 'fj3kq9xz0plm2wq8', expected: 'Fj3kQ9xZ0pLm2Wq8', same: false },
    { name: 'non-ASCII, equal', given: 'café☕', expected: 'café☕', same: true },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(sameSecret(c.given, c.expected), c.same));
  }
});

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 text', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
