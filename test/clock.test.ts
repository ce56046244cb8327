import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoTime } from '../src/lib/clock';

// isoTime builds the text itself for the instants it is asked for every day; Date words the rest.
// Each must come out exactly as toISOString writes it.
const EDGES: [string, number][] = [
  ['the epoch', 0],
  ['the first millisecond', 1],
  ['a second less a millisecond', 999],
  ['the end of the first day', 86_399_999],
  ['the start of the second day', 86_400_000],
  ['a leap day, last millisecond', Date.UTC(2024, 1, 29, 23, 59, 59, 999)],
  ['the day after a leap day', Date.UTC(2024, 2, 1)],
  ['the turn of a year', Date.UTC(2026, 11, 31, 23, 59, 59, 999)],
  ['a time with every field two digits', Date.UTC(2026, 10, 26, 17, 45, 3, 120)],
  ['milliseconds under ten', Date.UTC(2026, 10, 26, 9, 5, 7, 8)],
  ['milliseconds under a hundred', Date.UTC(2026, 10, 26, 9, 5, 7, 42)],
  ['the last instant before 10000', 253_402_300_799_999],
  ['the year 10000 (signed year)', 253_402_300_800_000],
  ['before 1970', -1],
  ['long before 1970', Date.UTC(1900, 0, 1, 12)],
  ['a fraction of a millisecond (Date drops it)', 1_700_000_000_000.75],
];

for (const [name, ms] of EDGES) {
  test(`isoTime writes ${name} as toISOString does`, () => {
    assert.equal(isoTime(ms), new Date(ms).toISOString());
  });
}

test('isoTime agrees with toISOString on instants spread over the years and within one day', () => {
  // Consecutive calls in one day reuse the date part; a call on another day must replace it.
  const from = Date.UTC(1970, 0, 1);
  const to = Date.UTC(2200, 0, 1);
  for (let i = 0; i < 20_000; i++) {
    const ms = Math.floor(from + ((to - from) * i) / 20_000) + (i % 1000);
    assert.equal(isoTime(ms), new Date(ms).toISOString(), `at ${ms}`);
    assert.equal(isoTime(ms + 3_599_999), new Date(ms + 3_599_999).toISOString(), `at ${ms + 3_599_999}`);
  }
});

test('isoTime refuses what is not an instant, as toISOString does', () => {
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
    assert.throws(() => isoTime(bad), RangeError, String(bad));
  }
});
