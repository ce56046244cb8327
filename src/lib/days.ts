// Calendar days in a shop's time zone (orgs/settings.ts timeZone): "today" on the dashboard and the
// counter's daily caps are the shop's days, not UTC's. Intl gives the wall-clock parts of an instant
// in a zone; the start of a local day is found from its UTC offset, checked again once because a
// daylight-saving change can move the offset between the guess and the answer.

import { twoDigits } from './clock';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

// The last minute read per zone. Asking Intl costs ~8 µs, and an earn asks twice (its promotions'
// time of day, its lot's expiry date) for instants seconds apart. Within a minute the wall clock
// only moves its seconds, as long as the zone's offset is a whole number of minutes, which holds
// for every zone since the 1970s (only some local mean times of the 19th century had seconds): a
// minute is kept only when it does.
const lastMinute = new Map<string, { minute: number; wall: WallClock }>();

function wallClock(ms: number, timeZone: string): WallClock {
  const minute = Math.floor(ms / 60_000);
  const kept = lastMinute.get(timeZone);
  if (kept && kept.minute === minute) return { ...kept.wall, second: Math.floor((ms - minute * 60_000) / 1000) };
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(ms).map((p) => [p.type, p.value]));
  const wall = { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
  // The same seconds as UTC's: the offset is whole minutes.
  if (wall.second === Math.floor((ms - minute * 60_000) / 1000)) lastMinute.set(timeZone, { minute, wall });
  return wall;
}

/** How far the zone's wall clock is ahead of UTC at this instant, in ms (whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const dateOf = (w: { year: number; month: number; day: number }) => `${String(w.year).padStart(4, '0')}-${twoDigits(w.month)}-${twoDigits(w.day)}`;

/** The local calendar date of an instant, `YYYY-MM-DD`. */
export function localDate(ms: number, timeZone: string): string {
  return dateOf(wallClock(ms, timeZone));
}

// startOfLocalDate asks Intl for a zone's wall clock four or more times (~40 µs), and every award
// of a card with expiry asks it for the day its lot expires: the answer for a date and zone never
// changes while the process runs, so the recent ones are kept.
const starts = new Map<string, number>();
const STARTS_KEPT = 2000;

/** The instant a local date begins (its first instant: a day that starts in a DST gap begins at the gap's end). */
export function startOfLocalDate(date: string, timeZone: string): number {
  const key = `${timeZone} ${date}`;
  let start = starts.get(key);
  if (start === undefined) {
    if (starts.size >= STARTS_KEPT) starts.clear();
    start = findStartOfLocalDate(date, timeZone);
    starts.set(key, start);
  }
  return start;
}

function findStartOfLocalDate(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const midnightAsUtc = Date.UTC(y, m - 1, d);
  let guess = midnightAsUtc - offsetAt(midnightAsUtc, timeZone);
  // The offset at the guess may differ (a change near midnight): correct once, then make sure we
  // did not land on the previous day (a gap at midnight).
  guess = midnightAsUtc - offsetAt(guess, timeZone);
  while (localDate(guess, timeZone) !== date) guess += localDate(guess, timeZone) < date ? 3_600_000 : -3_600_000;
  while (localDate(guess - 60_000, timeZone) === date) guess -= 60_000;
  return guess;
}

/** The local date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** [start, end) of the local day holding `ms`. */
export function localDayRange(ms: number, timeZone: string): { date: string; start: number; end: number } {
  const date = localDate(ms, timeZone);
  return { date, start: startOfLocalDate(date, timeZone), end: startOfLocalDate(addDays(date, 1), timeZone) };
}

/** An instant as the shop's wall clock shows it: `YYYY-MM-DD HH:MM` (with `:SS` when `seconds`). */
export function localDateTime(ms: number, timeZone: string, options: { seconds?: boolean } = {}): string {
  const w = wallClock(ms, timeZone);
  return `${dateOf(w)} ${twoDigits(w.hour)}:${twoDigits(w.minute)}${options.seconds ? `:${twoDigits(w.second)}` : ''}`;
}
