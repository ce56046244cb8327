// Time comes from here so tests can move it instead of sleeping.
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from there toISOString writes the year with a sign and six digits. */
const YEAR_10000_MS = 253_402_300_800_000;
let prefixDay = Number.NaN;
let prefix = '';

/**
 * The instant as toISOString writes it (`2026-11-26T17:45:03.120Z`). Every API answer and event
 * holds a few of these: the date part is made once per UTC day and the time of day from whole
 * numbers, 0.7 µs a call against 1.9 µs for a Date and its toISOString (issue 13, measured with
 * JSON.stringify of the result). Instants before 1970 or after 9999 and non-numbers go to Date,
 * which words them (or throws for them) as before.
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < YEAR_10000_MS && Number.isInteger(ms))) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== prefixDay) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    prefixDay = day;
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${prefix}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** A whole number from 0 to 99 in two digits (`7` → `07`). */
export const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
