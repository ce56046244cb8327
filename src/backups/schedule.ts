import type { Db } from '../db/connection';
import { localDate, startOfLocalDate, addDays } from '../lib/days';
import { readOrgSettings } from '../orgs/settings';
import { backupRunsRepo } from './repo';

/**
 * The shop's time zone: the first org's. A server normally runs one shop; one hosting several
 * merchants backs up once, on its first org's clock.
 */
export function shopTimeZone(db: Db): string {
  const first = db.prepare<[], { id: string }>('SELECT id FROM orgs ORDER BY created_at, id LIMIT 1').get();
  return readOrgSettings(db, first?.id ?? '').timeZone;
}

/** The first instant of `hour` o'clock on a local date (on a daylight-saving day, the first instant at or after it). */
function hourOf(date: string, hour: number, timeZone: string): number {
  const start = startOfLocalDate(date, timeZone);
  const end = startOfLocalDate(addDays(date, 1), timeZone);
  // Quarter hours from midnight: every zone's hours begin on one (offsets are whole quarter hours).
  for (let t = start; t < end; t += 15 * 60_000) if (localHour(t, timeZone) >= hour) return t;
  return end;
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();
function localHour(ms: number, timeZone: string): number {
  let f = hourFormats.get(timeZone);
  if (!f) hourFormats.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit' })));
  return Number(f.format(ms));
}

/** The latest instant at or before `now` at which the daily backup fell due. */
export function lastDueAt(now: number, hour: number, timeZone: string): number {
  const today = localDate(now, timeZone);
  const due = hourOf(today, hour, timeZone);
  return due <= now ? due : hourOf(addDays(today, -1), hour, timeZone);
}

/**
 * Whether the daily backup is due: no backup was started since it last fell due. A server that was
 * off at that hour makes it when it next runs; a failed attempt counts (it is shown and logged),
 * so a broken folder is not retried every minute.
 */
export function backupDue(db: Db, now: number, hour: number | null): boolean {
  if (hour === null) return false;
  const last = backupRunsRepo(db).lastStartedAt();
  return last === null || last < lastDueAt(now, hour, shopTimeZone(db));
}
