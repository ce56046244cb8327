// `npm run bench:i18n`: what speaking German costs next to English. The same customer's card email
// (texts, the balance, the QR code as a PNG: what the mail worker renders) and pass content (what
// every Apple, Google and web pass starts from) are rendered for a customer whose language is
// English and for one whose language is German, in alternating rounds so that the machine's other
// load falls on both alike. Prints the median CPU time of one render in each language and the ratio,
// PASS/FAIL against "German within 10 % of English"; exits 1 on a FAIL. Pages join this bench as
// they move to the catalogues. Options: --rounds <n> (default 25).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cardsRepo } from '../src/cards/repo';
import { loadConfig } from '../src/config';
import { enrollCustomer } from '../src/loyalty/enroll';
import type { Customer } from '../src/customers/model';
import { customersRepo } from '../src/customers/repo';
import { openDatabase } from '../src/db/open';
import { inTransaction } from '../src/db/transaction';
import type { AppDeps } from '../src/deps';
import { createLogger } from '../src/lib/log';
import { earn } from '../src/loyalty/service';
import { cardEmail } from '../src/mail/card-email';
import { changeHooks } from '../src/main';
import { writeOrgSettings } from '../src/orgs/settings';
import { applySeed, parseSeedFile } from '../src/seed/service';
import { customerPassContent } from '../src/wallet/customer-content';

const LIMIT = 1.1;
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '25' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 3) {
  process.stderr.write('bench: --rounds must be a whole number ≥ 3\n');
  process.exit(2);
}

const SEED = {
  orgs: [{
    name: 'Bench Café',
    cards: [
      { ref: 'stamps', name: 'Coffee stamps', passType: 'stamp_card', reward: { name: 'Free coffee', cost: 10 } },
      { ref: 'levels', name: 'Club', passType: 'level_card', levels: [{ name: 'Bronze', minPoints: 0 }, { name: 'Gold', minPoints: 2000 }] },
    ],
  }],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Runs `render` `times` times; the mean CPU time of one, in µs. CPU time rather than the clock:
 * on a machine whose cores other processes keep busy, waiting for a core is not rendering.
 */
async function timed(times: number, render: () => unknown): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < times; i++) await render();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / times;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wl-bench-i18n-'));
  try {
    const config = loadConfig({ DATA_DIR: dir, BACKUP_HOUR: 'off' });
    const db = openDatabase(config.dbFile);
    const clock = { now: () => Date.UTC(2026, 1, 10, 9, 0) };
    const deps: AppDeps = { db, clock, log: createLogger('warn'), config, afterCommit: { eventsWritten() {}, passUpdatesQueued() {}, mailQueued() {} }, onChange: changeHooks() };
    const org = applySeed(deps, parseSeedFile(SEED)).orgs[0]!;
    inTransaction(db, () => writeOrgSettings(db, org.orgId, { timeZone: 'Europe/Berlin' }));
    const cardId = (ref: string) => org.cards.find((c) => c.ref === ref)!.cardId;
    const customerOf = (ref: string, lang: 'en' | 'de'): Customer => {
      const { passUserId } = enrollCustomer(deps, { orgId: org.orgId, livemode: true }, { cardId: cardId(ref), name: 'Anna Schmidt', email: `${ref}-${lang}@bench.example`, language: lang }, { channel: 'signup', idempotencyKey: null });
      earn(deps, { customer: customersRepo(db).findByPassUserId(passUserId)!, type: ref === 'stamps' ? 'stamps' : 'points', basis: { from: 'amount', amount: ref === 'stamps' ? 700 : 50_000 }, source: 'api' });
      return customersRepo(db).findByPassUserId(passUserId)!;
    };
    const card = (ref: string) => cardsRepo(db).findById(cardId(ref))!;

    const scenarios = [
      { name: 'card email (texts, balance, QR code PNG)', times: 20, render: (c: Customer) => cardEmail(deps, c, card('stamps'), 'anna@bench.example') },
      { name: 'pass content, stamp card', times: 2000, render: (c: Customer) => customerPassContent(db, card('stamps'), c) },
      { name: 'pass content, level card', times: 2000, render: (c: Customer) => customerPassContent(db, card('levels'), c) },
    ] as const;
    const people = { stamps: { en: customerOf('stamps', 'en'), de: customerOf('stamps', 'de') }, levels: { en: customerOf('levels', 'en'), de: customerOf('levels', 'de') } };
    const who = (name: string) => (name.includes('level') ? people.levels : people.stamps);

    let failed = false;
    console.log(`i18n bench: ${rounds} alternating rounds per scenario, median CPU µs per render`);
    console.log('scenario'.padEnd(44) + 'en µs'.padStart(10) + 'de µs'.padStart(10) + 'de/en'.padStart(9) + '  ');
    for (const s of scenarios) {
      const { en, de } = who(s.name);
      // Warm-up: each language's messages compiled, the statements prepared, the JIT settled.
      await timed(s.times, () => s.render(en));
      await timed(s.times, () => s.render(de));
      const times = { en: [] as number[], de: [] as number[] };
      for (let r = 0; r < rounds; r++) {
        // Alternating which goes first, so neither always runs on a warmer or a busier machine.
        const order = r % 2 === 0 ? (['en', 'de'] as const) : (['de', 'en'] as const);
        for (const lang of order) times[lang].push(await timed(s.times, () => s.render(lang === 'en' ? en : de)));
      }
      const ratio = median(times.de) / median(times.en);
      const ok = ratio <= LIMIT;
      failed ||= !ok;
      console.log(s.name.padEnd(44) + median(times.en).toFixed(1).padStart(10) + median(times.de).toFixed(1).padStart(10) + ratio.toFixed(3).padStart(9) + `  ${ok ? 'PASS' : 'FAIL'} (≤ ${LIMIT})`);
    }
    db.close();
    process.exitCode = failed ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
