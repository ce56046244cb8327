import { DEFAULT_FLAG_AWARDS_PER_DAY, type Card } from '../cards/model';
import { listCards } from '../cards/service';
import type { Namespace } from '../customers/model';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { addDays, localDate, startOfLocalDate } from '../lib/days';
import { readOrgSettings } from '../orgs/settings';
import { clockFor } from '../test-clock/clock';
import { watchListRepo, type AwardRow, type WatchedCustomerRow } from './repo';

// The watch list: a customer awarded more often in one shop day (the org's time zone) than their
// card's flagAwardsPerDay (6 unless the owner set it) — through any channel: API, counter, console
// — is listed with each of that day's awards, its channel, staff member and time. It only lists:
// nothing is refused or held back, the owner looks and decides. An undone award does not count.

/** How far back the console's list looks, today included. */
export const WATCH_DAYS = 30;

export interface FlaggedDay {
  /** The shop's calendar date, `YYYY-MM-DD`. */
  date: string;
  customer: WatchedCustomerRow;
  card: Card;
  /** The card's number: more awards than this in a day put a customer here. */
  limit: number;
  /** That day's awards, oldest first. */
  awards: AwardRow[];
}

export interface WatchList {
  timeZone: string;
  /** Today on the shop's calendar (for test data: on the org's test clock). */
  today: string;
  /** The first day looked at. */
  since: string;
  /** Newest day first; on a day, the customer with the most awards first. */
  flagged: FlaggedDay[];
}

export interface WatchListDeps {
  db: Db;
  clock: Clock;
}

export const flagLimit = (card: Pick<Card, 'flagAwardsPerDay'>): number => card.flagAwardsPerDay ?? DEFAULT_FLAG_AWARDS_PER_DAY;

/** The flagged customer-days of the last `days` shop days up to today (default WATCH_DAYS). */
export function watchList(deps: WatchListDeps, n: Namespace, options: { days?: number } = {}): WatchList {
  const { timeZone } = readOrgSettings(deps.db, n.orgId);
  // Test data runs on the sandbox's own clock: its "today" is the test clock's.
  const today = localDate(clockFor(deps, n.orgId, n.livemode).now(), timeZone);
  const dates = Array.from({ length: options.days ?? WATCH_DAYS }, (_, i) => addDays(today, i - (options.days ?? WATCH_DAYS) + 1));
  const starts = [...dates, addDays(today, 1)].map((d) => startOfLocalDate(d, timeZone));
  const from = starts[0]!;
  const to = starts[starts.length - 1]!;
  const dayOf = (ms: number) => {
    // The last start at or before ms (starts ascend).
    let lo = 0;
    let hi = dates.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= ms) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const cards = new Map(listCards(deps, n.orgId).map((c) => [c.id, c]));
  const lowest = cards.size ? Math.min(...[...cards.values()].map(flagLimit)) : DEFAULT_FLAG_AWARDS_PER_DAY;
  const repo = watchListRepo(deps.db);

  // Who could be on it: more than the lowest card's number of award rows in one day.
  const perDay = new Map<string, number>();
  const candidates = new Set<string>();
  for (const [customerId, at] of repo.awardTimes(n, from, to)) {
    const key = `${dayOf(at)} ${customerId}`;
    const count = (perDay.get(key) ?? 0) + 1;
    perDay.set(key, count);
    if (count > lowest) candidates.add(customerId);
  }
  if (candidates.size === 0) return { timeZone, today, since: dates[0]!, flagged: [] };

  // Their awards that stand, by day, against their own card's number.
  const customers = new Map(repo.customers(n, [...candidates]).map((c) => [c.id, c]));
  const days = new Map<string, AwardRow[]>();
  for (const award of repo.awardsOf([...customers.keys()], from, to)) {
    const key = `${dayOf(award.createdAt)} ${award.customerId}`;
    if (!days.has(key)) days.set(key, []);
    days.get(key)!.push(award);
  }
  const flagged: FlaggedDay[] = [];
  for (const [key, awards] of days) {
    const customer = customers.get(awards[0]!.customerId)!;
    const card = cards.get(customer.cardId);
    if (!card || awards.length <= flagLimit(card)) continue;
    flagged.push({ date: dates[Number(key.split(' ')[0])]!, customer, card, limit: flagLimit(card), awards });
  }
  flagged.sort((a, b) => b.date.localeCompare(a.date) || b.awards.length - a.awards.length || (a.customer.name ?? '').localeCompare(b.customer.name ?? '') || a.customer.id.localeCompare(b.customer.id));
  return { timeZone, today, since: dates[0]!, flagged };
}

/** How many customers are on the watch list today: the dashboard's count. */
export function flaggedToday(deps: WatchListDeps, n: Namespace): number {
  return watchList(deps, n, { days: 1 }).flagged.length;
}
