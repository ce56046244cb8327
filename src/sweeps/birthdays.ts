import { listCards } from '../cards/service';
import { birthdaysRepo } from '../customers/birthdays-repo';
import { customersRepo } from '../customers/repo';
import { inTransaction } from '../db/transaction';
import { addDays, localDate, startOfLocalDate } from '../lib/days';
import { ApiError } from '../lib/errors';
import { changeBalance } from '../loyalty/ledger';
import { queueNoticeEmail } from '../mail/service';
import { inChunks, SWEEP_CHUNK, type SweepDeps, type SweepOptions } from './context';
import { sweepsRepo } from './repo';

// The birthday sweep of one org and mode: every birthday that began (00:00 in the shop's time zone)
// since the last run and by `now` is paid, so a run after a pause or a clock jump catches up. Once
// per calendar year (paid_year); 29 February counts on 28 February in other years; not in a year
// in which the answer was set or changed within 30 days before the birthday. Each payment is a
// ledger row of kind and source `birthday` (not an award: no earning limits, not a visit), with
// balance.updated, a lot where the card has lots, the pass update, and an email with consent.

const DAY = 86_400_000;
/** A birthday answer set or changed this recently before the birthday earns nothing that year. */
export const BIRTHDAY_SETTLE_DAYS = 30;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The shop's dates that began in (after, until], oldest first. */
export function datesBegun(after: number, until: number, timeZone: string): string[] {
  const dates: string[] = [];
  let date = localDate(after, timeZone);
  if (startOfLocalDate(date, timeZone) <= after) date = addDays(date, 1);
  for (; startOfLocalDate(date, timeZone) <= until; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** The birthdays (`MM-DD`) celebrated on a date: 28 February also takes 29 February's outside leap years. */
export function birthdaysOn(date: string): string[] {
  const monthDay = date.slice(5);
  return monthDay === '02-28' && !isLeap(Number(date.slice(0, 4))) ? ['02-28', '02-29'] : [monthDay];
}

export interface BirthdayReport {
  paid: number;
}

export async function sweepBirthdays(deps: SweepDeps, n: { orgId: string; livemode: boolean }, now: number, timeZone: string, options: SweepOptions = {}): Promise<BirthdayReport> {
  const chunk = options.chunkSize ?? SWEEP_CHUNK;
  const report: BirthdayReport = { paid: 0 };
  const runs = sweepsRepo(deps.db);
  // A first run starts with today, so the birthdays of the day it is switched on are not missed.
  const last = runs.lastRun(n.orgId, n.livemode, 'birthdays') ?? startOfLocalDate(localDate(now, timeZone), timeZone) - 1;
  if (now <= last) return report;
  const cards = listCards(deps, n.orgId).filter((card) => card.birthday !== null);
  for (const date of cards.length > 0 ? datesBegun(last, now, timeZone) : []) {
    const year = Number(date.slice(0, 4));
    const begins = startOfLocalDate(date, timeZone);
    for (const [card, monthDay] of cards.flatMap((c) => birthdaysOn(date).map((day) => [c, day] as const))) {
      for (let after = ''; ; ) {
        const rows = birthdaysRepo(deps.db).onDay({ monthDay, cardId: card.id, livemode: n.livemode, after, limit: chunk });
        if (rows.length === 0) break;
        after = rows[rows.length - 1]!.customerId;
        await inChunks(deps, rows, chunk, (row) => {
          // Read again inside the transaction: another run may have paid it since.
          const current = birthdaysRepo(deps.db).find(row.customerId);
          if (!current || (current.paidYear !== null && current.paidYear >= year) || current.setAt > begins - BIRTHDAY_SETTLE_DAYS * DAY) return;
          const customer = customersRepo(deps.db).findByPassUserId(row.customerId);
          if (!customer) return;
          try {
            const paid = changeBalance(deps, { customer, card, kind: 'birthday', change: card.birthday!.units, isAward: false, source: 'birthday', field: 'birthday' });
            birthdaysRepo(deps.db).markPaid(customer.id, year);
            queueNoticeEmail(deps, paid.customer, 'birthday');
            report.paid++;
          } catch (err) {
            // A balance at its limit takes no treat; the others still get theirs.
            if (!(err instanceof ApiError)) throw err;
            deps.log.warn('birthday treat not given', { customerId: customer.id, reason: err.message });
          }
        });
      }
    }
  }
  inTransaction(deps.db, () => runs.setLastRun(n.orgId, n.livemode, 'birthdays', now));
  return report;
}
