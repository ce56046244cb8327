import type { Card } from '../../cards/model';
import { listCards } from '../../cards/service';
import type { Namespace } from '../../customers/model';
import type { Db } from '../../db/connection';
import { addDays, localDate, startOfLocalDate } from '../../lib/days';
import type { Channel } from '../../lib/changes';
import { readOrgSettings, UNUSUAL_CUSTOMER_AWARDS_PER_DAY } from '../../orgs/settings';
import { listStaff } from '../../staff/service';
import { CHANNELS, channelLabel, currencyOf, formatMoney, unitOf, type Unit } from '../format';
import { dashboardRepo } from './repo';
import { fromHundredths } from '../../lib/money';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';

// What the dashboard shows, worked out from the repo's per-day sums: today and the last 30 days
// on the shop's calendar, by channel and by staff member, and the unusual days of the counter.
// Stamps, points and store credit are different units, so each is summed on its own.

export const DAYS = 30;

/** The local days to count, oldest first: [start, end) in ms. */
export type DayRanges = readonly (readonly [number, number])[];

export interface Totals {
  /** Hundredths of stamps, of points and of store credit awarded. */
  stamps: number;
  points: number;
  credit: number;
  /** Award actions (ledger rows that awarded). */
  awards: number;
  rewards: number;
  newCustomers: number;
  /** Hundredths of opening balances a CSV import brought in: never counted as awarded. */
  importedStamps: number;
  importedPoints: number;
  importedCredit: number;
}

export const zero = (): Totals => ({ stamps: 0, points: 0, credit: 0, awards: 0, rewards: 0, newCustomers: 0, importedStamps: 0, importedPoints: 0, importedCredit: 0 });

const IMPORTED: Record<Unit, 'importedStamps' | 'importedPoints' | 'importedCredit'> = { stamps: 'importedStamps', points: 'importedPoints', credit: 'importedCredit' };

function add(into: Totals, from: Partial<Totals>): void {
  for (const key of Object.keys(from) as (keyof Totals)[]) into[key] += from[key] ?? 0;
}

export interface Breakdown<K> {
  key: K;
  label: string;
  totals: Totals;
}

export interface UnusualDay {
  kind: 'staff' | 'customer' | 'large';
  date: string;
  /** The staff member or the customer (for a large award: the customer). */
  id: string;
  name: string;
  /** Counter awards that day (a large award: 1). */
  awards: number;
  /** What it reached: the owner's cap, or (customers without a cap) the unusual mark. */
  limit: number;
  limitKind: 'cap' | 'unusual' | 'size';
  /** A large award: what it added, e.g. "500 stamps", who gave it, and the size it passed. */
  large?: { amount: string; above: string; staffName: string | null };
}

export interface DashboardData {
  timeZone: string;
  /** The last 30 local dates, oldest first; the last is today. */
  dates: string[];
  daily: Totals[];
  today: Totals;
  month: Totals;
  byChannel: { today: Breakdown<Channel>[]; month: Breakdown<Channel>[] };
  byStaff: { today: Breakdown<string>[]; month: Breakdown<string>[] };
  /** The units the org's cards count in (a metric no card uses is not shown). */
  units: Unit[];
  creditCurrency: string | null;
  unusual: UnusualDay[];
  /** The owner's daily caps, and the mark that flags a customer (the cap, or the unusual mark without one). */
  caps: { staff: number | null; customer: number | null; customerMark: number };
}

/** The last `DAYS` local days up to and including today's, as [start, end) instants. */
export function lastDays(now: number, timeZone: string): { dates: string[]; ranges: DayRanges } {
  const today = localDate(now, timeZone);
  const dates = Array.from({ length: DAYS }, (_, i) => addDays(today, i - DAYS + 1));
  const starts = [...dates, addDays(today, 1)].map((d) => startOfLocalDate(d, timeZone));
  return { dates, ranges: dates.map((_, i) => [starts[i]!, starts[i + 1]!] as const) };
}

function creditCurrencyOf(cards: Card[]): string | null {
  const currencies = new Set(cards.filter((c) => c.passType === 'prepaid_card').map(currencyOf));
  return currencies.size === 1 ? [...currencies][0]! : null;
}

/** The dashboard's figures; names and amounts in them (a channel, a large award) are in `lang`. */
export function dashboardData(db: Db, n: Namespace, now: number, lang: ConsoleLang = 'en'): DashboardData {
  const settings = readOrgSettings(db, n.orgId);
  const { timeZone } = settings;
  const { dates, ranges } = lastDays(now, timeZone);
  const todayIndex = DAYS - 1;
  const repo = dashboardRepo(db);
  const cards = new Map(listCards({ db }, n.orgId).map((c) => [c.id, c]));
  const staffNames = new Map(listStaff({ db }, n.orgId).map((s) => [s.id, s.name]));
  const staffName = (id: string) => staffNames.get(id) ?? tConsole(lang, 'console.dashboard.formerStaff');

  const daily = dates.map(zero);
  const channel = { today: new Map<Channel, Totals>(), month: new Map<Channel, Totals>() };
  const staff = { today: new Map<string, Totals>(), month: new Map<string, Totals>() };
  const into = <K>(map: Map<K, Totals>, key: K, values: Partial<Totals>) => {
    if (!map.has(key)) map.set(key, zero());
    add(map.get(key)!, values);
  };
  const record = (day: number, source: Channel, staffId: string | null, values: Partial<Totals>) => {
    add(daily[day]!, values);
    into(channel.month, source, values);
    if (staffId) into(staff.month, staffId, values);
    if (day === todayIndex) {
      into(channel.today, source, values);
      if (staffId) into(staff.today, staffId, values);
    }
  };

  const counterAwards = new Map<string, number>();
  for (const row of repo.ledgerDays(n, ranges)) {
    const { day } = row;
    const card = cards.get(row.cardId);
    const unit = card ? unitOf(card.passType) : 'points';
    // An import's slots hold the opening balances it brought in (the ledger_slots triggers in schema.sql): shown as imported, never as awarded.
    if (row.source === 'import') record(day, row.source, null, { [IMPORTED[unit]]: row.awarded });
    else record(day, row.source, row.staffId || null, { [unit]: row.awarded, awards: row.awards, rewards: row.rewards });
    if (row.source === 'scan' && row.staffId) counterAwards.set(`${day} ${row.staffId}`, (counterAwards.get(`${day} ${row.staffId}`) ?? 0) + row.awards);
  }
  for (const row of repo.customerDays(n, ranges)) record(row.day, row.source, null, { newCustomers: row.customers });

  const month = zero();
  for (const d of daily) add(month, d);
  // Imports are occasional: their row shows only in a period that had one.
  const byChannel = (map: Map<Channel, Totals>) => CHANNELS.filter((key) => key !== 'import' || map.has(key)).map((key) => ({ key, label: channelLabel(key, lang), totals: map.get(key) ?? zero() }));
  const byStaff = (map: Map<string, Totals>) => [...map].map(([key, totals]) => ({ key, label: staffName(key), totals })).sort((a, b) => b.totals.awards - a.totals.awards || a.label.localeCompare(b.label, lang));
  const cardList = [...cards.values()];
  const units = (['stamps', 'points', 'credit'] as Unit[]).filter((u) => cardList.some((c) => unitOf(c.passType) === u));

  return {
    timeZone,
    dates,
    daily,
    today: daily[todayIndex]!,
    month,
    byChannel: { today: byChannel(channel.today), month: byChannel(channel.month) },
    byStaff: { today: byStaff(staff.today), month: byStaff(staff.month) },
    units,
    creditCurrency: creditCurrencyOf(cardList),
    unusual: unusualDays(db, n, { ranges, dates, staffName, staffCounterAwards: counterAwards }, settings.counter, lang),
    caps: { staff: settings.counter.staffDailyAwardCap, customer: settings.counter.customerDailyAwardCap, customerMark: settings.counter.customerDailyAwardCap ?? UNUSUAL_CUSTOMER_AWARDS_PER_DAY },
  };
}

/**
 * The counter's unusual days: a staff member whose counter awards on one day reached
 * the owner's daily cap for staff, and a customer whose counter awards on one day reached the
 * customer cap — or, with no customer cap set, UNUSUAL_CUSTOMER_AWARDS_PER_DAY. Newest first.
 */
function unusualDays(
  db: Db,
  n: Namespace,
  days: { ranges: DayRanges; dates: string[]; staffName: (id: string) => string; staffCounterAwards: Map<string, number> },
  caps: { staffDailyAwardCap: number | null; customerDailyAwardCap: number | null; confirmAbove: { stamps: number; points: number; credit: number } },
  lang: ConsoleLang,
): UnusualDay[] {
  const flags: UnusualDay[] = [];
  const staffCap = caps.staffDailyAwardCap;
  if (staffCap !== null) {
    for (const [key, awards] of days.staffCounterAwards) {
      const [day, id] = key.split(' ') as [string, string];
      if (awards >= staffCap) flags.push({ kind: 'staff', date: days.dates[Number(day)]!, id, name: days.staffName(id), awards, limit: staffCap, limitKind: 'cap' });
    }
  }
  const customerLimit = caps.customerDailyAwardCap ?? UNUSUAL_CUSTOMER_AWARDS_PER_DAY;
  const repo = dashboardRepo(db);
  const perDay = new Map<string, number>();
  const dayOf = dayFinder(days.ranges);
  for (const award of repo.counterAwardsOfBusyCustomers(n, days.ranges[0]![0], days.ranges[days.ranges.length - 1]![1], customerLimit)) {
    const day = dayOf(award.createdAt);
    if (day !== null) perDay.set(`${day} ${award.customerId}`, (perDay.get(`${day} ${award.customerId}`) ?? 0) + 1);
  }
  const flagged = [...perDay].filter(([, awards]) => awards >= customerLimit).map(([key, awards]) => {
    const [day, customerId] = key.split(' ') as [string, string];
    return { day: Number(day), customerId, awards };
  });
  const from = days.ranges[0]![0];
  const to = days.ranges[days.ranges.length - 1]![1];
  const large = repo.largeAwards(n, from, to, caps.confirmAbove);
  const names = new Map(
    repo.customerNames(n, [...new Set([...flagged.map((f) => f.customerId), ...large.map((l) => l.customerId)])]).map((c) => [c.id, c.name ?? c.externalId ?? c.email ?? tConsole(lang, 'console.format.noName')]),
  );
  for (const award of large) {
    const day = dayOf(award.createdAt);
    if (day === null) continue;
    const unit = unitOf(award.passType as Card['passType']);
    const text = (hundredths: number) =>
      unit === 'credit' ? tConsole(lang, 'console.dashboard.credit', { amount: formatMoney(hundredths, null, lang) }) : tConsole(lang, 'console.format.units', { unit, count: fromHundredths(hundredths) });
    flags.push({
      kind: 'large', date: days.dates[day]!, id: award.customerId, name: names.get(award.customerId) ?? tConsole(lang, 'console.dashboard.removedCustomer'), awards: 1, limit: 0, limitKind: 'size',
      large: { amount: text(award.change), above: text(caps.confirmAbove[unit]), staffName: award.staffId ? days.staffName(award.staffId) : null },
    });
  }
  for (const f of flagged) {
    flags.push({
      kind: 'customer', date: days.dates[f.day]!, id: f.customerId, name: names.get(f.customerId) ?? tConsole(lang, 'console.dashboard.removedCustomer'), awards: f.awards,
      limit: customerLimit, limitKind: caps.customerDailyAwardCap === null ? 'unusual' : 'cap',
    });
  }
  return flags.sort((a, b) => b.date.localeCompare(a.date) || b.awards - a.awards || a.name.localeCompare(b.name));
}

/** The index of the day range holding an instant (binary search), or null outside them all. */
function dayFinder(ranges: DayRanges): (ms: number) => number | null {
  return (ms) => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [start, end] = ranges[mid]!;
      if (ms < start) hi = mid - 1;
      else if (ms >= end) lo = mid + 1;
      else return mid;
    }
    return null;
  };
}
