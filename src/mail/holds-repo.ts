import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// Sign-up emails the abuse limits held back (migration 21): a count per org, namespace, shop-local
// day and limit, for the console. No address and no customer is kept.

/** Which limit held an email back: its recipient had one today, or its client address asked too often. */
export type HoldReason = 'recipient' | 'client';

export interface HeldCount {
  day: string;
  reason: HoldReason;
  held: number;
}

function createMailHoldsRepo(db: Db) {
  const add = db.prepare(
    `INSERT INTO mail_holds (org_id, livemode, day, reason, held) VALUES (@orgId, @livemode, @day, @reason, 1)
     ON CONFLICT (org_id, livemode, day, reason) DO UPDATE SET held = held + 1`,
  );
  const prune = db.prepare('DELETE FROM mail_holds WHERE org_id = @orgId AND day < @before');
  const since = db.prepare<{ orgId: string; livemode: number; from: string }, HeldCount>(
    'SELECT day, reason, held FROM mail_holds WHERE org_id = @orgId AND livemode = @livemode AND day >= @from ORDER BY day, reason',
  );
  return {
    /** One more held back on `day`; days before `forgetBefore` are dropped (kept small without a sweep). */
    add(input: { orgId: string; livemode: boolean; day: string; reason: HoldReason; forgetBefore: string }): void {
      add.run({ orgId: input.orgId, livemode: input.livemode ? 1 : 0, day: input.day, reason: input.reason });
      prune.run({ orgId: input.orgId, before: input.forgetBefore });
    },
    /** The counts of the namespace from the local day `from` on. */
    since(orgId: string, livemode: boolean, from: string): HeldCount[] {
      return since.all({ orgId, livemode: livemode ? 1 : 0, from });
    },
  };
}

export const mailHoldsRepo = perConnection(createMailHoldsRepo);
