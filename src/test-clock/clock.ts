import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { testClocksRepo } from './repo';

/**
 * The clock of an org's data in one mode. Live data keeps real time; test data runs on the org's
 * test clock, real time plus the offset its last advance set (so it keeps ticking, like Stripe's
 * test clocks). Awards, expiry and birthdays of test customers take their time from here; the
 * 30-day removal of test customers does not (it is about real time: the sandbox must stay small).
 */
export function clockFor(deps: { db: Db; clock: Clock }, orgId: string, livemode: boolean): Clock {
  if (livemode) return deps.clock;
  const offset = testClocksRepo(deps.db).offset(orgId);
  return offset === 0 ? deps.clock : { now: () => deps.clock.now() + offset };
}
