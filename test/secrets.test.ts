import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sameLengthTextEqual, sameSecret, sha256Hex } from '../src/lib/secrets';

// The secret comparisons behind API keys, install codes, ApplePass tokens and CSRF tokens: by
// digest, and a secret held in memory as text, both in constant time.

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

describe('sameLengthTextEqual', () => {
  const key = 'psk_live_Fj3kQ9xZ0pLm2Wq8Fj3kQ9xZ0pLm2Wq8';
  const cases: { name: string; a: string; b: string; equal: boolean }[] = [
    { name: 'equal texts', a: key, b: `${key}`, equal: true },
    { name: 'the first character differs', a: key, b: `q${key.slice(1)}`, equal: false },
    { name: 'the last character differs', a: key, b: `${key.slice(0, -1)}9`, equal: false },
    { name: 'a prefix', a: key, b: key.slice(0, -1), equal: false },
    { name: 'longer by one', a: key, b: `${key}x`, equal: false },
    { name: 'both empty', a: '', b: '', equal: true },
    { name: 'case differs', a: key, b: key.toUpperCase(), equal: false },
    { name: 'non-ASCII, equal', a: 'café☕', b: 'café☕', equal: true },
    { name: 'non-ASCII, one character differs', a: 'café☕', b: 'cafe☕', equal: false },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(sameLengthTextEqual(c.a, c.b), c.equal));
  }
});
