import { DEFAULT_REMIND_DAYS } from '../cards/model';
import { customersRepo } from '../customers/repo';
import { lotDeadline, nextExpiring, remindFrom } from '../loyalty/expiring';
import { changeBalance } from '../loyalty/ledger';
import { lotsRepo } from '../loyalty/lots-repo';
import { queueNoticeEmail } from '../mail/service';
import { inChunks, SWEEP_CHUNK, sweepContext, type SweepContext, type SweepDeps, type SweepOptions } from './context';
import { sweepsRepo } from './repo';

// The expiry sweep: units whose time is up are taken, one ledger row per customer and run (kind
// and source `expiry`, with balance.updated and, on a level card, level.changed), and customers
// whose next expiry comes within the card's reminder days are reminded once per expiry date (an
// email with consent, and the line on their pass). It works a chunk of customers per transaction
// and yields between chunks. Each customer is settled whole inside a chunk: the lots it expires
// are deleted in the same transaction as its ledger row, so a run that stops anywhere (an error,
// kill -9) leaves every customer either settled or untouched, and the next run settles the rest.
// Running it twice does what running it once does.

const DAY = 86_400_000;

export interface ExpiryReport {
  /** Customers whose units expired. */
  expired: number;
  reminded: number;
  /** Lots that ended. */
  lots: number;
}

export type ExpiryScope = { livemode: true } | { livemode: false; orgId: string };

/** How long before an expiry its reminder may be due, with a day to spare (a reminder starts with its shop day). */
const remindMs = (ctx: SweepContext, cardId: string) => ((ctx.card(cardId).expiry?.remindDays ?? DEFAULT_REMIND_DAYS) + 1) * DAY;

/** Settles the customer at `now` (inside the chunk's transaction): what is due expires; the next expiry is reminded when near. */
function settle(deps: SweepDeps, ctx: SweepContext, customerId: string, now: number, report: ExpiryReport): void {
  const customer = customersRepo(deps.db).findByPassUserId(customerId);
  if (!customer || customer.erasedAt !== null) return;
  const card = ctx.card(customer.cardId);
  const timeZone = ctx.timeZone(customer.orgId);
  const lots = lotsRepo(deps.db);
  const live = lots.live(customer.id);
  const isDue = (lot: (typeof live)[number]) => {
    const deadline = lotDeadline(lot, customer.lastAwardAt, timeZone);
    return deadline !== null && deadline < now;
  };
  const due = live.filter(isDue);
  let current = customer;
  if (due.length > 0) {
    for (const lot of due) lots.setRemaining(customer.id, lot, 0);
    report.lots += due.length;
    // Never below zero: lots never hold more than the balance, and if they did the balance is the limit.
    const amount = Math.min(customer.balance, due.reduce((sum, lot) => sum + lot.remaining, 0));
    if (amount > 0) {
      current = changeBalance(deps, { customer, card, kind: 'expiry', change: -amount, isAward: false, source: 'expiry', field: 'expiry' }).customer;
      report.expired++;
    }
  }
  const remindDays = card.expiry?.remindDays ?? DEFAULT_REMIND_DAYS;
  if (remindDays === 0) return;
  const next = nextExpiring(live.filter((lot) => !isDue(lot)), current.lastAwardAt, timeZone);
  if (!next || remindFrom(next.at, remindDays, timeZone) > now) return;
  const repo = sweepsRepo(deps.db);
  if (!repo.remind(customer.id, next.at, now)) return;
  repo.bumpPass(customer.id, now);
  deps.onChange.balanceChanged(deps, customer.id);
  queueNoticeEmail(deps, current, 'expiry_reminder');
  report.reminded++;
}

/**
 * Expires and reminds at `now` in one scope: every org's live data (a chunk at a time through the
 * lots' indexes), or one org's test data (at most 100 customers, on the org's test clock).
 */
export async function sweepExpiry(deps: SweepDeps, scope: ExpiryScope, now: number, options: SweepOptions = {}): Promise<ExpiryReport> {
  const chunk = options.chunkSize ?? SWEEP_CHUNK;
  const report: ExpiryReport = { expired: 0, reminded: 0, lots: 0 };
  const repo = sweepsRepo(deps.db);
  const settleAll = (ids: readonly string[]) => inChunks(deps, ids, chunk, (id, ctx) => settle(deps, ctx, id, now, report));
  if (!scope.livemode) {
    await settleAll(repo.testCustomersWithLots(scope.orgId));
    return report;
  }

  // Months lots past their end: settling a customer takes its due lots out of the index.
  for (;;) {
    const ids = repo.dueByMonths(now, chunk);
    if (ids.length === 0) break;
    const before = report.lots;
    await settleAll(ids);
    if (report.lots === before) break; // nothing could be taken: never spin on the same rows
  }

  // Inactivity: every customer with such lots, in passUserId order, a chunk of them at a time; only
  // those whose lots could end (or need a reminder) by now are settled.
  for (let after = ''; ; ) {
    const rows = repo.inactivity(after, chunk);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.customerId;
    const ctx = sweepContext(deps);
    await settleAll(rows.filter((r) => r.livemode && !r.erased && r.earliest - 3 * 3_600_000 - remindMs(ctx, r.cardId) <= now).map((r) => r.customerId));
  }

  // Reminders of months lots: those ending within the longest reminder window, not yet reminded.
  const ctx = sweepContext(deps);
  const longest = Math.max(0, ...repo.cardsWithLots().map((id) => remindMs(ctx, id)));
  for (let from = { at: now, customerId: '' }; longest > 0; ) {
    const rows = repo.endingSoon(from, now + longest, chunk);
    if (rows.length === 0) break;
    const last = rows[rows.length - 1]!;
    from = { at: last.expiresAt, customerId: last.customerId };
    const near = rows.filter((r) => r.livemode && !r.erased && !r.reminded && r.expiresAt - remindMs(ctx, r.cardId) <= now).map((r) => r.customerId);
    await settleAll([...new Set(near)]);
  }
  return report;
}
