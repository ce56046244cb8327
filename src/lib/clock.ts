// Time comes from here so tests can move it instead of sleeping.
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The instant as toISOString writes it (`2026-11-26T17:45:03.120Z`). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A whole number from 0 to 99 in two digits (`7` → `07`). */
export const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
