import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// What the loyalty sweeps read to find their work (sweeps/expiry.ts, sweeps/birthdays.ts), and how
// far each got. Every query returns at most one chunk, found through an index, so the sweep holds
// the event loop a few milliseconds at a time however large the shop.

export type SweepName = 'birthdays';

function createSweepsRepo(db: Db) {
  const lastRun = db.prepare<{ orgId: string; livemode: number; sweep: string }, { last_run_at: number }>(
    'SELECT last_run_at FROM sweep_runs WHERE org_id = @orgId AND livemode = @livemode AND sweep = @sweep',
  );
  const setLastRun = db.prepare(
    `INSERT INTO sweep_runs (org_id, livemode, sweep, last_run_at) VALUES (@orgId, @livemode, @sweep, @at)
     ON CONFLICT (org_id, livemode, sweep) DO UPDATE SET last_run_at = excluded.last_run_at`,
  );
  const orgs = db.prepare<[], { id: string }>('SELECT id FROM orgs ORDER BY created_at, id');
  const lotCards = db.prepare<[], { id: string }>('SELECT id FROM cards WHERE lots_since IS NOT NULL');
  // Live customers with a months lot past its end (award_lots_due), any org: each is settled whole,
  // which takes its due lots out of the index, so the next chunk starts at the next customers.
  const dueByMonths = db.prepare<{ now: number; limit: number }, { customer_id: string }>(
    `SELECT DISTINCT l.customer_id FROM award_lots l INDEXED BY award_lots_due CROSS JOIN customers c ON c.id = l.customer_id
     WHERE l.expires_at IS NOT NULL AND l.expires_at < @now AND c.livemode = 1 AND c.erased_at IS NULL
     LIMIT @limit`,
  );
  // Live customers with inactivity lots, in passUserId order from `after`: each with the earliest
  // time any of them could end (the sweep works out the exact end of the shop's day).
  const inactivity = db.prepare<{ after: string; limit: number }, { customer_id: string; card_id: string; org_id: string; livemode: number; erased_at: number | null; earliest: number }>(
    `SELECT l.customer_id, c.card_id, c.org_id, c.livemode, c.erased_at,
            min(max(coalesce(c.last_award_at, 0), l.awarded_at) + l.inactive_days * 86400000) AS earliest
     FROM award_lots l INDEXED BY award_lots_inactive CROSS JOIN customers c ON c.id = l.customer_id
     WHERE l.inactive_days IS NOT NULL AND l.customer_id > @after
     GROUP BY l.customer_id ORDER BY l.customer_id LIMIT @limit`,
  );
  // Months lots ending within the reminder window, in (expires_at, customer) order from a position,
  // with the customer's card; those already reminded of that day are left out.
  const endingSoon = db.prepare<{ fromAt: number; fromCustomer: string; to: number; limit: number }, { customer_id: string; expires_at: number; card_id: string; livemode: number; erased_at: number | null; reminded: number }>(
    `SELECT l.customer_id, l.expires_at, c.card_id, c.livemode, c.erased_at,
            EXISTS (SELECT 1 FROM expiry_reminders r WHERE r.customer_id = l.customer_id AND r.expires_at = l.expires_at) AS reminded
     FROM award_lots l INDEXED BY award_lots_due CROSS JOIN customers c ON c.id = l.customer_id
     WHERE l.expires_at IS NOT NULL AND (l.expires_at, l.customer_id) > (@fromAt, @fromCustomer) AND l.expires_at <= @to
     ORDER BY l.expires_at, l.customer_id LIMIT @limit`,
  );
  // An org's test customers with lots (at most 100 of them, through customers_org_time).
  const testCustomersWithLots = db.prepare<[string], { id: string }>(
    `SELECT c.id FROM customers c INDEXED BY customers_org_time
     WHERE c.org_id = ? AND c.livemode = 0 AND c.erased_at IS NULL AND EXISTS (SELECT 1 FROM award_lots l WHERE l.customer_id = c.id)
     ORDER BY c.id`,
  );
  const remind = db.prepare('INSERT INTO expiry_reminders (customer_id, expires_at, sent_at) VALUES (@customerId, @expiresAt, @now) ON CONFLICT DO NOTHING');
  const reminded = db.prepare<{ customerId: string; expiresAt: number }, { n: number }>('SELECT count(*) AS n FROM expiry_reminders WHERE customer_id = @customerId AND expires_at = @expiresAt');
  // A reminder changes what the pass shows (its expiry line): a new version, like a balance change.
  const bumpPass = db.prepare('UPDATE customers SET pass_version = pass_version + 1, pass_updated_at = @now WHERE id = @id');

  return {
    lastRun: (orgId: string, livemode: boolean, sweep: SweepName): number | null => lastRun.get({ orgId, livemode: livemode ? 1 : 0, sweep })?.last_run_at ?? null,
    setLastRun: (orgId: string, livemode: boolean, sweep: SweepName, at: number) => setLastRun.run({ orgId, livemode: livemode ? 1 : 0, sweep, at }),
    orgIds: (): string[] => orgs.all().map((r) => r.id),
    /** Cards that ever had expiry: only their customers have lots. */
    cardsWithLots: (): string[] => lotCards.all().map((r) => r.id),
    dueByMonths: (now: number, limit: number): string[] => dueByMonths.all({ now, limit }).map((r) => r.customer_id),
    inactivity: (after: string, limit: number) =>
      inactivity.all({ after, limit }).map((r) => ({ customerId: r.customer_id, cardId: r.card_id, orgId: r.org_id, livemode: r.livemode === 1, erased: r.erased_at !== null, earliest: r.earliest })),
    endingSoon: (from: { at: number; customerId: string }, to: number, limit: number) =>
      endingSoon.all({ fromAt: from.at, fromCustomer: from.customerId, to, limit }).map((r) => ({
        customerId: r.customer_id, expiresAt: r.expires_at, cardId: r.card_id, livemode: r.livemode === 1, erased: r.erased_at !== null, reminded: r.reminded === 1,
      })),
    testCustomersWithLots: (orgId: string): string[] => testCustomersWithLots.all(orgId).map((r) => r.id),
    /** True when this reminder is new (one per customer and expiry). */
    remind: (customerId: string, expiresAt: number, now: number) => remind.run({ customerId, expiresAt, now }).changes === 1,
    wasReminded: (customerId: string, expiresAt: number) => reminded.get({ customerId, expiresAt })!.n > 0,
    bumpPass: (id: string, now: number) => bumpPass.run({ id, now }),
  };
}

export const sweepsRepo = perConnection(createSweepsRepo);
