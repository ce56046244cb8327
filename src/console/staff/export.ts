import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { localDate } from '../../lib/days';
import { fromHundredths } from '../../lib/money';
import { readOrgSettings } from '../../orgs/settings';
import { staffActivity, UNITS, type StaffDay, type Tally } from '../../staff/activity';
import { consoleOf } from '../context';
import { csvLine, CSV_BOM } from '../customers/csv';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';

// The Staff page's counter activity as CSV, for the accounts: the same days, members and figures
// as the page (loyalty/figures.ts defines them), one line per day and member, each unit in its
// own columns so stamps, points and credit are never added together.

/** "Awarded stamps", "Vergebene Stempel": one column per unit of each kind of entry. */
const unitColumns = (lang: ConsoleLang, what: 'awarded' | 'redeemed' | 'corrected') => UNITS.map((unit) => tConsole(lang, 'console.staffCsv.unitColumn', { what, unit }));

function amounts(tally: Tally, sign = 1): (number | string)[] {
  return UNITS.map((u) => (tally.amounts[u] === undefined ? '' : u === 'credit' ? fromHundredths(sign * tally.amounts[u]!).toFixed(2) : sign * fromHundredths(tally.amounts[u]!)));
}

/** The header is in the admin's language; the figures stay machine-readable (dates as 2026-03-10, decimals with a point). */
export function activityCsv(days: StaffDay[], lang: ConsoleLang = 'en'): string {
  const say = (key: ConsoleKey) => tConsole(lang, key);
  const header = [
    say('console.dashboard.day'),
    say('console.dashboard.staffMember'),
    say('console.staffCsv.awards'),
    ...unitColumns(lang, 'awarded'),
    say('console.staffCsv.redemptions'),
    ...unitColumns(lang, 'redeemed'),
    say('console.staffCsv.corrections'),
    ...unitColumns(lang, 'corrected'),
  ];
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
    ctx.body = activityCsv(staffActivity(deps, c.namespace, timeZone), c.lang);
  });
}
