import type { Card } from '../cards/model';
import type { Db } from '../db/connection';
import type { LedgerKind } from '../lib/changes';
import { readOrgSettings } from '../orgs/settings';
import { lotRule } from './expiring';
import { lotsRepo } from './lots-repo';

// The award lots of a balance change (changeBalance calls this inside its transaction, for cards
// that ever had expiry switched on). Expiry is never retroactive: a lot carries the rule in force
// when it was awarded. Units no lot covers were awarded before the card had lots; they are the
// oldest, are used first, and never expire.

export interface LotChange {
  card: Card;
  customer: { id: string; orgId: string };
  transactionId: string;
  kind: LedgerKind;
  /** Signed hundredths. */
  change: number;
  /** The balance before the change. */
  before: number;
  now: number;
  /** A reversal: the row it undoes. */
  reverses: string | null;
}

export function recordLots(db: Db, c: LotChange): void {
  if (c.change === 0 || c.kind === 'expiry') return; // the expiry sweep settles its own lots
  const repo = lotsRepo(db);
  if (c.change > 0) {
    // Undoing a redemption gives back units the customer already had: they never expire again.
    const rule = c.kind === 'reversal' || !c.card.expiry ? { expiresAt: null, inactiveDays: null } : lotRule(c.card.expiry, c.now, readOrgSettings(db, c.customer.orgId).timeZone);
    repo.insert({ transactionId: c.transactionId, customerId: c.customer.id, awardedAt: c.now, ...rule, remaining: c.change });
    return;
  }
  const lots = repo.live(c.customer.id);
  const uncovered = Math.max(0, c.before - lots.reduce((sum, lot) => sum + lot.remaining, 0));
  let left = -c.change;
  const take = (lot: (typeof lots)[number]) => {
    const taken = Math.min(lot.remaining, left);
    if (taken > 0) repo.setRemaining(c.customer.id, lot, lot.remaining - taken);
    left -= taken;
  };
  // Undoing an award takes that award's own lot first, as if it had never been made.
  const own = c.reverses === null ? undefined : lots.find((lot) => lot.transactionId === c.reverses);
  if (own) take(own);
  // Then the oldest units: those no lot covers, then the lots by age.
  left -= Math.min(left, uncovered);
  for (const lot of lots) {
    if (left === 0) return;
    if (lot !== own) take(lot);
  }
}
