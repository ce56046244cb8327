import type { SweepDeps } from './context';
import { runTestSweeps } from './run';
import { inTransaction } from '../db/transaction';
import { validationFailed } from '../lib/errors';
import { isoTime } from '../lib/clock';
import { clockFor } from '../test-clock/clock';
import { testClocksRepo } from '../test-clock/repo';

// The sandbox's test clock (Stripe's test clocks are the model): an integrator moves an org's test
// data forward in time and sees what that time brings — expiry, reminders, birthdays — before the
// answer. Live data never moves. The clock itself is test-clock/ (every feature reads it); moving
// it is here, beside the sweeps it runs.

/** How far one advance may go: catching up on years of sweeps is work the answer waits for. */
export const MAX_ADVANCE_YEARS = 10;
const YEAR = 365.25 * 86_400_000;

export function testClockNow(deps: Pick<SweepDeps, 'db' | 'clock'>, orgId: string): { now: string } {
  return { now: isoTime(clockFor(deps, orgId, false).now()) };
}

/**
 * Moves the org's test clock to `to` (never back), then runs every sweep over its test data as of
 * that time; answers the clock's time once they are done.
 */
export async function advanceTestClock(deps: SweepDeps, orgId: string, to: string): Promise<{ now: string }> {
  const target = Date.parse(to);
  const current = clockFor(deps, orgId, false).now();
  if (target < current) throw validationFailed([{ path: 'to', message: `must not be before the test clock’s time, ${isoTime(current)}: it never goes back` }]);
  if (target - current > MAX_ADVANCE_YEARS * YEAR) throw validationFailed([{ path: 'to', message: `must be at most ${MAX_ADVANCE_YEARS} years after the test clock’s time, ${isoTime(current)}` }]);
  inTransaction(deps.db, () => testClocksRepo(deps.db).setOffset(orgId, Math.max(0, target - deps.clock.now()), deps.clock.now()));
  await runTestSweeps(deps, orgId);
  return testClockNow(deps, orgId);
}
