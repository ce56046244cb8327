// `wallet-loyalty import <file.csv> --card <cardId> [--mode live|test] [--dry-run] [--data DIR]`
// run as the operator runs it (a child process): the JSON summary of docs/import.md, exit 0 with
// refused rows, exit 1 with one line on stderr when nothing could be read, nothing written then.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/open';
import { inTransaction } from '../../src/db/transaction';
import { writeOrgSettings } from '../../src/orgs/settings';
import { applySeed, parseSeedFile } from '../../src/seed/service';
import { STANDARD_SEED, standardOrgIds, type StandardOrg } from '../support/app';
import { runCli, tempDir } from '../support/cli';
import { customerFile, expectedCounts } from './support';

let dir: string;
let org: StandardOrg;
const file = (name: string, content: string | Buffer) => {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
};
const importCli = (args: string[]) => runCli(['import', ...args, '--data', dir]);

function query<T>(sql: string): T[] {
  const db = openDatabase(loadConfig({ DATA_DIR: dir }).dbFile);
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

function customers(where = '1'): number {
  const db = openDatabase(loadConfig({ DATA_DIR: dir }).dbFile);
  try {
    return (db.prepare(`SELECT count(*) AS n FROM customers WHERE ${where}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

before(() => {
  dir = tempDir('wl-import-cli-');
  const db = openDatabase(loadConfig({ DATA_DIR: dir }).dbFile);
  org = standardOrgIds(applySeed({ db, clock: { now: () => Date.now() } }, parseSeedFile(STANDARD_SEED)).orgs[0]!);
  db.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('wallet-loyalty import', () => {
  const data = customerFile(250, { emailPrefix: 'cli' });
  const counts = expectedCounts(data.rows);
  const refused = data.rows.filter((r) => r.outcome === 'refused');

  it('--dry-run prints what an import would do and writes nothing', async () => {
    const res = await importCli([file('customers.csv', data.text), '--card', org.cards.stamps, '--dry-run']);
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    assert.deepEqual(Object.keys(summary), ['created', 'matched', 'refused', 'rows']);
    assert.deepEqual({ created: summary.created, matched: summary.matched, refused: summary.refused }, counts);
    assert.deepEqual(summary.rows.map((r: { row: number }) => r.row), refused.map((r) => r.row));
    refused.forEach((r, i) => {
      assert.deepEqual(Object.keys(summary.rows[i]), ['row', 'outcome', 'message']);
      assert.equal(summary.rows[i].outcome, 'refused');
      assert.match(summary.rows[i].message, r.column ? new RegExp(`^${r.column}: `) : /^has no name/);
      assert.match(summary.rows[i].message, r.message!);
    });
    assert.match(res.stderr, /^Columns: First name → First name; .*Stamps → Balance \(stamps\); Cup size → Question: Cup size; Member number → Question: Member number\n$/);
    assert.equal(customers(), 0);
  });

  it('imports, and exits 0 though some rows were refused', async () => {
    const res = await importCli([file('customers.csv', data.text), '--card', org.cards.stamps]);
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    assert.deepEqual({ created: summary.created, matched: summary.matched, refused: summary.refused }, counts);
    assert.equal(summary.rows.length, counts.refused);
    assert.equal(customers(`source = 'import' AND card_id = '${org.cards.stamps}'`), counts.created);
  });

  it('imports the same file again: nothing is created', async () => {
    const res = await importCli([file('customers.csv', data.text), '--card', org.cards.stamps]);
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    assert.deepEqual([summary.created, summary.matched, summary.refused], [0, counts.created + counts.matched, counts.refused]);
    assert.equal(customers(`card_id = '${org.cards.stamps}'`), counts.created);
  });

  it('--mode test imports into test data, within its 100 customers', async () => {
    const text = `Email,Points\n${Array.from({ length: 103 }, (_, i) => `t${i}@example.com,${i}`).join('\n')}\n`;
    const res = await importCli([file('test.csv', text), '--card', org.cards.points, '--mode', 'test']);
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    assert.deepEqual([summary.created, summary.refused], [100, 3]);
    assert.match(summary.rows[0].message, /test data holds at most 100 customers/);
    assert.equal(customers('livemode = 0'), 100);
  });

  const refusals: { name: string; args: () => string[]; stderr: RegExp }[] = [
    { name: 'no card', args: () => [file('a.csv', 'Email\na@example.com\n')], stderr: /import needs a file and a card/ },
    { name: 'an unknown card', args: () => [file('a.csv', 'Email\na@example.com\n'), '--card', 'card_nosuchcard'], stderr: /no card card_nosuchcard/ },
    { name: 'a bad mode', args: () => [file('a.csv', 'Email\na@example.com\n'), '--card', org.cards.points, '--mode', 'sandbox'], stderr: /--mode is live or test/ },
    { name: 'a missing file', args: () => [path.join(dir, 'missing.csv'), '--card', org.cards.points], stderr: /cannot read .*missing\.csv: ENOENT/ },
    { name: 'a file that is not CSV', args: () => [file('a.xlsx', Buffer.from('504b0304140000000800', 'hex')), '--card', org.cards.points], stderr: /not a CSV file/ },
    { name: 'no usable column', args: () => [file('odd.csv', 'Colour,Shoe size\nred,42\n'), '--card', org.cards.points], stderr: /no usable column .*found: Colour, Shoe size/ },
  ];
  for (const c of refusals) {
    it(`exits 1 with one line for ${c.name}, writing nothing`, async () => {
      const before = customers();
      const res = await importCli(c.args());
      assert.equal(res.code, 1);
      assert.equal(res.stdout, '');
      assert.match(res.stderr, c.stderr);
      assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
      assert.equal(customers(), before);
    });
  }
});

describe('wallet-loyalty import in a shop with a country', () => {
  before(() => {
    const db = openDatabase(loadConfig({ DATA_DIR: dir }).dbFile);
    inTransaction(db, () => writeOrgSettings(db, org.orgId, { timeZone: 'Europe/Berlin', country: 'DE' }));
    db.close();
  });

  it('reads national numbers and German number marks as the console does; a repeated email is refused with its row', async () => {
    const text = 'Name;Handy;E-Mail;Punkte\nJana;0151 2345678;jana@example.de;1.000\nTim;030 1234567;tim@example.de;1,000\nJana Zwei;0170 1234567;JANA@example.de;5\n';
    const res = await importCli([file('de.csv', text), '--card', org.cards.points]);
    assert.equal(res.code, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    assert.deepEqual([summary.created, summary.matched, summary.refused], [1, 0, 2]);
    assert.deepEqual(summary.rows, [
      { row: 3, outcome: 'refused', message: 'Punkte: is ambiguous: the “,” could separate thousands or decimals. Write it without a thousands separator, such as 1000' },
      { row: 4, outcome: 'refused', message: 'E-Mail: same email as row 2' },
    ]);
    assert.deepEqual(query(`SELECT phone, phone_norm AS phoneNorm, balance FROM customers WHERE email_norm = 'jana@example.de'`), [{ phone: '+491512345678', phoneNorm: '+491512345678', balance: 100_000 }]);
  });
});
