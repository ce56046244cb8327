import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId, randomToken, timePart } from '../src/lib/ids';

// Tokens are base62 symbols drawn from the CSPRNG: of the asked length, unique, and every symbol
// equally likely.

describe('random tokens', () => {
  it('are base62 of the asked length, unique, and uniform over 200,000 symbols', () => {
    const tokens = Array.from({ length: 10_000 }, () => randomToken(20));
    assert.equal(new Set(tokens).size, tokens.length);
    const counts = new Map<string, number>();
    for (const token of tokens) {
      assert.match(token, /^[0-9A-Za-z]{20}$/);
      for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    assert.equal(counts.size, 62);
    const expected = 200_000 / 62;
    // ±10 % is more than 5 standard deviations: a biased or repeating source fails, chance does not.
    for (const [ch, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.1, `${ch} appeared ${n} times, expected about ${Math.round(expected)}`);
  });

  it('lead with the time, so ids sort in the order they were made (one page of an index takes the next row)', () => {
    assert.equal(timePart(0), '00000000');
    assert.equal(timePart(61), '0000000z');
    assert.equal(timePart(62), '00000010');
    const times = [0, 1, 61, 62, 3843, Date.UTC(2026, 10, 25), Date.UTC(2026, 10, 25) + 1, 62 ** 8 - 1];
    const parts = times.map(timePart);
    assert.deepEqual([...parts].sort(), parts, 'base62 in ASCII order sorts like the numbers');
    const made = Array.from({ length: 50 }, () => newId('tx'));
    for (let i = 1; i < made.length; i++) assert.ok(made[i - 1]!.slice(0, 11) <= made[i]!.slice(0, 11), `${made[i - 1]} then ${made[i]}`);
    // The random part stays: two ids of the same millisecond differ.
    assert.equal(new Set(made).size, made.length);
  });

  it('keep their prefix and lengths (newId, odd and long lengths)', () => {
    assert.match(newId('evt'), /^evt_[0-9A-Za-z]{20}$/);
    assert.equal(randomToken(1).length, 1);
    assert.equal(randomToken(5000).length, 5000);
  });
});
