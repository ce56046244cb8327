import { readOrgSettings } from '../orgs/settings';
import { clockFor } from '../test-clock/clock';
import { testClocksRepo } from '../test-clock/repo';
import { sweepBirthdays } from './birthdays';
import type { SweepDeps, SweepOptions } from './context';
import { sweepExpiry } from './expiry';
import { sweepsRepo } from './repo';

// The loyalty programme's sweeps, run hourly and at start (jobs/list.ts) and by the test clock
// (POST /v1/test_clock/advance): expiry and its reminders, then birthdays. Live data runs on real
// time; each org's test data on its test clock, so advancing one sandbox never moves live data.

export interface SweepsReport {
  expired: number;
  reminded: number;
  birthdays: number;
}

/** Every org's live data, then every sandbox that has test customers. */
export async function runLoyaltySweeps(deps: SweepDeps, options: SweepOptions = {}): Promise<SweepsReport> {
  const report: SweepsReport = { expired: 0, reminded: 0, birthdays: 0 };
  const now = deps.clock.now();
  const expiry = await sweepExpiry(deps, { livemode: true }, now, options);
  report.expired += expiry.expired;
  report.reminded += expiry.reminded;
  for (const orgId of sweepsRepo(deps.db).orgIds()) {
    report.birthdays += (await sweepBirthdays(deps, { orgId, livemode: true }, now, readOrgSettings(deps.db, orgId).timeZone, options)).paid;
  }
  for (const orgId of testClocksRepo(deps.db).orgsWithTestCustomers()) add(report, await runTestSweeps(deps, orgId, options));
  return report;
}

/** One org's test data at its test clock's time. */
export async function runTestSweeps(deps: SweepDeps, orgId: string, options: SweepOptions = {}): Promise<SweepsReport> {
  const now = clockFor(deps, orgId, false).now();
  const expiry = await sweepExpiry(deps, { livemode: false, orgId }, now, options);
  const birthdays = await sweepBirthdays(deps, { orgId, livemode: false }, now, readOrgSettings(deps.db, orgId).timeZone, options);
  return { expired: expiry.expired, reminded: expiry.reminded, birthdays: birthdays.paid };
}

function add(into: SweepsReport, more: SweepsReport): void {
  into.expired += more.expired;
  into.reminded += more.reminded;
  into.birthdays += more.birthdays;
}
