// `npm run bench:report`: the books (src/report) on a year of a shop with --customers N customers
// (100,000) on two cards. The year is made in this process through the service functions every
// channel uses, in time order on a moved clock: customers join all year (a quarter of them with an
// opening balance), and each day brings earns (some with a promotion), redemptions, corrections and
// undos. Then, on a fresh connection (SQLite's cache empty; the operating system's as warm as a
// running server's), the report of each month of every card: its time, the slowest against 2 s,
// and every month's two identities checked on the way (opening + movements = closing = the sum of
// the balances at the month's end). Beside each time, the CPU time the process used for it: on a
// machine shared with busy processes the wall time also counts the waits for a core. Exits 1 on a
// FAIL. Options: --customers <n>, --rows <n> (ledger rows per customer in the year, 8), --data <dir>
// (make the year there and keep it; a folder that holds one already is reported on again, so a
// change to the report is measured on the same year).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config';
import { enrollCustomer } from '../src/loyalty/enroll';
import { customersRepo } from '../src/customers/repo';
import { openDatabase } from '../src/db/open';
import { inTransaction } from '../src/db/transaction';
import type { AppDeps } from '../src/deps';
import { addDays, startOfLocalDate } from '../src/lib/days';
import { ApiError } from '../src/lib/errors';
import { createLogger } from '../src/lib/log';
import { adjust, earn, redeem, reverseTransaction } from '../src/loyalty/service';
import { changeHooks } from '../src/main';
import { writeOrgSettings } from '../src/orgs/settings';
import { createPromotion } from '../src/promotions/service';
import { monthRange } from '../src/report/month';
import { MOVEMENTS, monthlyBooks } from '../src/report/service';
import { applySeed, parseSeedFile } from '../src/seed/service';

const LIMIT_MS = 2000;
const TIME_ZONE = 'Europe/Berlin';
const YEAR = 2025;
const { values } = parseArgs({ options: { customers: { type: 'string', default: '100000' }, rows: { type: 'string', default: '8' }, data: { type: 'string' } } });
const customers = Number(values.customers);
const rowsPerCustomer = Number(values.rows);
if (!Number.isInteger(customers) || customers < 1 || !Number.isInteger(rowsPerCustomer) || rowsPerCustomer < 1) {
  process.stderr.write('bench: --customers and --rows must be whole numbers ≥ 1\n');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);

const SEED = {
  orgs: [
    {
      name: 'Bench Books Café',
      cards: [
        { ref: 'points', name: 'Coffee points', passType: 'point_card', reward: { name: 'Voucher', cost: 50 }, unitValue: 0.0125 },
        { ref: 'stamps', name: 'Coffee stamps', passType: 'stamp_card', reward: { name: 'Free coffee', cost: 10 }, unitValue: 0.3 },
      ],
    },
  ],
};

/** mulberry32: the same year every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Makes the year in the database of `config`; returns the org's id and the rows written. */
async function makeYear(config: ReturnType<typeof loadConfig>): Promise<{ orgId: string; rows: number }> {
  const db = openDatabase(config.dbFile);
  let now = Date.UTC(YEAR - 1, 11, 20);
  const clock = { now: () => now };
  const deps: AppDeps = { db, clock, log: createLogger('warn'), config, afterCommit: { eventsWritten() {}, passUpdatesQueued() {}, mailQueued() {}, messagesQueued() {} }, onChange: changeHooks() };
  const org = applySeed(deps, parseSeedFile(SEED)).orgs[0]!;
  const cardIds = org.cards.map((c) => c.cardId);
  const points = org.cards.find((c) => c.ref === 'points')!.cardId;
  inTransaction(db, () => writeOrgSettings(db, org.orgId, { timeZone: TIME_ZONE }));
  createPromotion(deps, org.orgId, points, { name: 'Double Tuesdays', kind: 'multiplier', value: 2, startsAt: `${YEAR}-01-01`, endsAt: `${YEAR}-12-31`, weekdays: [2] });
  const n = { orgId: org.orgId, livemode: true };

  log(`a year of ${customers.toLocaleString('en')} customers, about ${(customers * rowsPerCustomer).toLocaleString('en')} ledger rows…`);
  const started = performance.now();
  const rnd = random(48);
  const ids: { id: string; cardId: string }[] = [];
  const recent: { customerId: string; transactionId: string }[] = [];
  const perDay = Math.ceil(customers / 365);
  const opsPerDay = Math.ceil((customers * (rowsPerCustomer - 0.25)) / 365);
  const fresh = (id: string) => customersRepo(db).findByPassUserId(id)!;
  let rows = 0;
  for (let day = `${YEAR}-01-01`, d = 0; day < `${YEAR + 1}-01-01`; day = addDays(day, 1), d++) {
    const open = startOfLocalDate(day, TIME_ZONE) + 8 * 3_600_000;
    const step = (12 * 3_600_000) / (perDay + opsPerDay);
    let tick = 0;
    inTransaction(db, () => {
      for (let i = 0; i < perDay && ids.length < customers; i++) {
        now = open + step * tick++;
        const cardId = rnd() < 0.6 ? points : cardIds[1]!;
        const opening = rnd() < 0.25 ? { initialPoints: 1 + Math.floor(rnd() * 20) } : {};
        ids.push({ id: enrollCustomer(deps, n, { cardId, externalCustomerId: `b-${ids.length}`, ...opening }, { channel: 'api', idempotencyKey: null }).passUserId, cardId });
        rows += opening.initialPoints ? 1 : 0;
      }
      for (let i = 0; i < opsPerDay; i++) {
        now = open + step * tick++;
        const c = ids[Math.floor(rnd() * ids.length)]!;
        const roll = rnd();
        try {
          let id: string;
          if (roll < 0.8) id = earn(deps, { customer: fresh(c.id), source: 'api', type: c.cardId === points ? 'points' : 'stamps', basis: { from: 'amount', amount: 100 * (1 + Math.floor(rnd() * (c.cardId === points ? 20 : 2))) } }).transaction.id;
          else if (roll < 0.92) id = redeem(deps, { customer: fresh(c.id), source: 'api', type: 'reward' }).transaction.id;
          else if (roll < 0.97) id = adjust(deps, { customer: fresh(c.id), source: 'console', balanceCorrection: (rnd() < 0.5 ? -1 : 1) * 100 * (1 + Math.floor(rnd() * 5)) }).transaction.id;
          else {
            const undo = recent[Math.floor(rnd() * recent.length)];
            if (!undo) continue;
            id = reverseTransaction(deps, { customer: fresh(undo.customerId), transactionId: undo.transactionId, source: 'scan' }).transaction.id;
          }
          rows++;
          recent.push({ customerId: c.id, transactionId: id });
          if (recent.length > 200) recent.shift();
        } catch (err) {
          // Too few units, or undone already: refused, nothing written.
          if (!(err instanceof ApiError)) throw err;
        }
      }
    });
    if (d % 73 === 72) log(`  ${day}: ${rows.toLocaleString('en')} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  log(`  ${rows.toLocaleString('en')} ledger rows in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { orgId: org.orgId, rows };
}

async function main(): Promise<void> {
  const dir = values.data ? path.resolve(values.data) : mkdtempSync(path.join(tmpdir(), 'wl-bench-books-'));
  try {
    const config = loadConfig({ DATA_DIR: dir, BACKUP_HOUR: 'off' });
    let made: { orgId: string; rows: number };
    if (existsSync(config.dbFile)) {
      const db = openDatabase(config.dbFile);
      const org = db.prepare("SELECT id FROM orgs WHERE name = 'Bench Books Café'").get() as { id: string } | undefined;
      const rows = (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
      db.close();
      if (!org) throw new Error(`${config.dbFile} holds no year of this bench`);
      log(`the year in ${config.dbFile}`);
      made = { orgId: org.id, rows };
    } else {
      made = await makeYear(config);
    }
    const org = { orgId: made.orgId };
    const rows = made.rows;
    const sizeMb = statSync(config.dbFile).size / 1e6;

    // A fresh connection, as the CLI opens one: SQLite's page cache starts empty.
    const db = openDatabase(config.dbFile);
    const reportDeps = { db, clock: { now: () => Date.UTC(YEAR + 1, 0, 2) } };
    const lines: string[] = [];
    let slowest = 0;
    let slowestCpu = 0;
    let total = 0;
    let failures = 0;
    let previous: Map<string, number> | null = null;
    for (let m = 1; m <= 12; m++) {
      const month = `${YEAR}-${String(m).padStart(2, '0')}`;
      const cpuBefore = process.cpuUsage();
      const t = performance.now();
      const books = monthlyBooks(reportDeps, org.orgId, month);
      const ms = performance.now() - t;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      slowest = Math.max(slowest, ms);
      slowestCpu = Math.max(slowestCpu, cpuMs);
      total += ms;
      // The identities, on the way: each card's closing is the sum of its balances at the month's end.
      const { to } = monthRange(month, TIME_ZONE);
      const closing = new Map<string, number>();
      for (const card of books.cards) {
        const moved = MOVEMENTS.reduce((s, col) => s + card.units[col], 0);
        if (card.units.opening + moved !== card.units.closing) failures++;
        if (previous && previous.get(card.cardId) !== card.units.opening) failures++;
        closing.set(card.cardId, card.units.closing);
      }
      previous = closing;
      const rowsInMonth = (db.prepare('SELECT count(*) AS n FROM transactions WHERE org_id = ? AND created_at >= ? AND created_at < ?').get(org.orgId, monthRange(month, TIME_ZONE).from, to) as { n: number }).n;
      lines.push(`| ${month} | ${rowsInMonth.toLocaleString('en')} | ${books.cards.map((c) => c.customersWithBalance.toLocaleString('en')).join(' / ')} | ${ms.toFixed(0)} ms | ${cpuMs.toFixed(0)} ms |`);
    }
    const balances = db.prepare('SELECT card_id AS cardId, sum(balance) AS total FROM customers WHERE livemode = 1 GROUP BY card_id').all() as { cardId: string; total: number }[];
    for (const b of balances) if (previous!.get(b.cardId) !== b.total) failures++;
    db.close();

    const pass = slowest <= LIMIT_MS && failures === 0;
    console.log(`\nThe books on a year of ${customers.toLocaleString('en')} customers on 2 cards, ${rows.toLocaleString('en')} ledger rows (database ${sizeMb.toFixed(0)} MB); load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} on ${cpus().length} cores`);
    console.log('| month | ledger rows | customers with a balance (points / stamps) | report of every card | its CPU time |');
    console.log('|---|---|---|---|---|');
    for (const line of lines) console.log(line);
    console.log(`\n| target | measured | |\n|---|---|---|`);
    console.log(`| a month's report (every card) ≤ ${LIMIT_MS / 1000} s | slowest ${slowest.toFixed(0)} ms (CPU ${slowestCpu.toFixed(0)} ms); all 12 months ${total.toFixed(0)} ms | ${slowest <= LIMIT_MS ? 'PASS' : 'FAIL'} |`);
    console.log(`| opening + movements = closing = the balances, every month | ${failures === 0 ? 'held' : `${failures} differences`} | ${failures === 0 ? 'PASS' : 'FAIL'} |`);
    if (!pass) process.exitCode = 1;
  } finally {
    if (!values.data) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
