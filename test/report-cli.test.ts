// `wallet-loyalty report --org ORG --month YYYY-MM [--card ID] [--csv] [--data DIR]`, run as the
// operator runs it (a child process) on two generated months of a shop: the JSON and the CSV are
// the books the console shows, and every bad input is one line on stderr with exit 1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { booksCsv } from '../src/console/report/csv';
import { monthBooksResource } from '../src/report/resource';
import { monthlyBooks } from '../src/report/service';
import { startTestApp, type TestApp } from './support/app';
import { generateActivity, seedBooksOrg, type BooksOrg } from './support/books-year';
import { runCli, tempDir } from './support/cli';
import { seedConsoleOrg } from './support/console';

let app: TestApp;
let org: BooksOrg;
let otherCard: string;

before(async () => {
  app = await startTestApp();
  app.clock.set(Date.UTC(2024, 11, 20));
  org = await seedBooksOrg(app);
  otherCard = (await seedConsoleOrg(app, 'Other Café')).cards.stamps;
  await generateActivity(app, org, { start: '2025-01', months: 2, perDay: 2 });
});
after(() => app?.close());

const report = (...args: string[]) => runCli(['report', ...args, '--data', app.config.dataDir]);

/** stderr is exactly one line, and nothing went to stdout. */
function refused(res: { code: number | null; stdout: string; stderr: string }): string {
  assert.equal(res.code, 1);
  assert.equal(res.stdout, '');
  assert.match(res.stderr, /^wallet-loyalty: [^\n]+\n$/, `one line: ${JSON.stringify(res.stderr)}`);
  return res.stderr.trim();
}

describe('wallet-loyalty report', { timeout: 120_000 }, () => {
  it('prints the month’s books of every card as JSON: what the console shows', async () => {
    const res = await report('--org', org.orgId, '--month', '2025-02');
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, '');
    const printed = JSON.parse(res.stdout) as ReturnType<typeof monthBooksResource>;
    assert.deepEqual(printed, monthBooksResource(monthlyBooks(app.deps, org.orgId, '2025-02')));
    assert.deepEqual(Object.keys(printed), ['orgId', 'month', 'timeZone', 'from', 'to', 'complete', 'cards']);
    assert.equal(printed.timeZone, 'Europe/Berlin');
    assert.equal(printed.from, '2025-01-31T23:00:00.000Z');
    const stamps = printed.cards.find((c) => c.cardId === org.cards.stamps)!;
    assert.deepEqual(Object.keys(stamps), [
      'cardId', 'name', 'passType', 'archived', 'unit',
      'opening', 'earned', 'promotions', 'birthday', 'imported', 'correctedUp', 'correctedDown', 'redeemed', 'expired', 'closing',
      'customersWithBalance', 'money',
    ]);
    const moved = stamps.earned + stamps.birthday + stamps.imported + stamps.correctedUp + stamps.correctedDown + stamps.redeemed + stamps.expired;
    assert.ok(stamps.earned > 0, JSON.stringify(stamps));
    assert.equal(stamps.opening + moved, stamps.closing);
    assert.equal(stamps.money!.unitValue, 0.3);
  });

  it('--card narrows it to one card; --csv prints the console’s CSV', async () => {
    const one = await report('--org', org.orgId, '--month', '2025-01', '--card', org.cards.points);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(JSON.parse(one.stdout).cards.map((c: { name: string }) => c.name), ['Coffee points']);
    const csv = await report('--org', org.orgId, '--month', '2025-01', '--csv');
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout, booksCsv(monthlyBooks(app.deps, org.orgId, '2025-01')));
    assert.equal(csv.stdout.trim().split('\r\n').length, 5, 'a header and a line per card');
  });

  it('--help names it', async () => {
    const res = await runCli(['--help']);
    assert.match(res.stdout, /report --org <orgId> --month <YYYY-MM> \[--card <cardId>\] \[--csv\]/);
  });

  const cases: { name: string; args: () => string[]; line: RegExp }[] = [
    { name: 'no month', args: () => ['--org', org.orgId], line: /^wallet-loyalty: report needs an org and a month: wallet-loyalty report --org <orgId> --month <YYYY-MM>/ },
    { name: 'no org', args: () => ['--month', '2025-01'], line: /^wallet-loyalty: report needs an org and a month/ },
    { name: 'a month that is no month', args: () => ['--org', org.orgId, '--month', '2025-13'], line: /^wallet-loyalty: --month 2025-13: must be a month written YYYY-MM, e\.g\. 2026-03$/ },
    { name: 'a month written otherwise', args: () => ['--org', org.orgId, '--month', '01/2025'], line: /^wallet-loyalty: --month 01\/2025: must be a month written YYYY-MM/ },
    { name: 'a month that has not begun', args: () => ['--org', org.orgId, '--month', '2999-01'], line: /^wallet-loyalty: --month 2999-01: 2999-01 has not begun yet$/ },
    { name: 'an unknown org', args: () => ['--org', 'org_nope', '--month', '2025-01'], line: /^wallet-loyalty: no org org_nope$/ },
    { name: 'an unknown card', args: () => ['--org', org.orgId, '--month', '2025-01', '--card', 'card_nope'], line: /^wallet-loyalty: no card card_nope$/ },
    { name: "another org's card", args: () => ['--org', org.orgId, '--month', '2025-01', '--card', otherCard], line: /^wallet-loyalty: card card_\w+ is not a card of org_\w+$/ },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}: one line, exit 1`, async () => {
      assert.match(refused(await report(...c.args())), c.line);
    });
  }

  it('refuses a data folder without a database and creates none', async () => {
    const res = await runCli(['report', '--org', org.orgId, '--month', '2025-01', '--data', `${tempDir('wl-report-')}/data`]);
    assert.match(refused(res), /^wallet-loyalty: no database at .+ \(set --data or DATA_DIR\)$/);
  });
});
