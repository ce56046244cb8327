import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { localDate } from '../../lib/days';
import { fromHundredths } from '../../lib/money';
import { readOrgSettings } from '../../orgs/settings';
import { staffActivity, UNITS, type StaffDay, type Tally } from '../../staff/activity';
import { consoleOf } from '../context';
import { csvLine, CSV_BOM } from '../customers/csv';

// The Staff page's counter activity as CSV, for the accounts: the same days, members and figures
// as the page (loyalty/figures.ts defines them), one line per day and member, each unit in its
// own columns so stamps, points and credit are never added together.

const unitColumns = (what: string) => UNITS.map((u) => `${what} ${u === 'credit' ? 'credit' : u}`);

function amounts(tally: Tally, sign = 1): (number | string)[] {
  return UNITS.map((u) => (tally.amounts[u] === undefined ? '' : u === 'credit' ? fromHundredths(sign * tally.amounts[u]!).toFixed(2) : sign * fromHundredths(tally.amounts[u]!)));
}

export function activityCsv(days: StaffDay[]): string {
  const header = ['Day', 'Staff member', 'Awards', ...unitColumns('Awarded'), 'Redemptions', ...unitColumns('Redeemed'), 'Corrections', ...unitColumns('Corrected')];
  return (
    CSV_BOM +
    csvLine(header) +
    days.map((d) => csvLine([d.date, d.staffName, d.awarded.count, ...amounts(d.awarded), d.redeemed.count, ...amounts(d.redeemed), d.corrected.count, ...amounts(d.corrected)])).join('')
  );
}

export function bindStaffExport(router: Router, deps: AppDeps): void {
  router.get('/console/staff/activity.csv', (ctx) => {
    const c = consoleOf(ctx);
    const { timeZone } = readOrgSettings(deps.db, c.org.id);
    const name = `counter-activity-${c.livemode ? 'live' : 'test'}-${localDate(deps.clock.now(), timeZone)}.csv`;
    ctx.status = 200;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = activityCsv(staffActivity(deps, c.namespace, timeZone));
  });
}
