// `wallet-loyalty admin list [--org ORG]`, run as the real CLI: the console logins of this server
// with their org, so an operator finds the email a password reset needs. Never a secret.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { runCli, tempDir } from './support/cli';

const SEED = {
  orgs: [
    { name: 'North Café', admins: [{ email: 'owner@north.example', password: 'north password 1' }, { email: 'Second@North.example', password: 'north password 2' }] },
    { name: 'South Bakery', admins: [{ email: 'baker@south.example', password: 'south password 1' }] },
    { name: 'Quiet Shop' },
  ],
};

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('wallet-loyalty admin list', () => {
  let data: string;
  let db: string;
  let orgs: { north: string; south: string; quiet: string };
  before(async () => {
    const root = tempDir('wl-admin-list-');
    data = path.join(root, 'data');
    db = path.join(data, 'wallet-loyalty.db');
    writeFileSync(path.join(root, 'seed.json'), JSON.stringify(SEED));
    const res = await runCli(['seed', path.join(root, 'seed.json'), '--data', data]);
    assert.equal(res.code, 0, res.stderr);
    const [north, south, quiet] = (JSON.parse(res.stdout) as { orgs: { orgId: string }[] }).orgs.map((o) => o.orgId) as [string, string, string];
    orgs = { north, south, quiet };
  });

  /** The table's rows, each split into its columns (two or more spaces apart). */
  const rows = (stdout: string) => stdout.trimEnd().split('\n').map((line) => line.trim().split(/ {2,}/));

  it('lists every admin login with its org id and name, and nothing secret', async () => {
    const before = hash(db);
    const res = await runCli(['admin', 'list', '--data', data]);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(rows(res.stdout), [
      ['ORG', 'ORG NAME', 'ADMIN EMAIL'],
      [orgs.north, 'North Café', 'owner@north.example'],
      [orgs.north, 'North Café', 'second@north.example'],
      [orgs.south, 'South Bakery', 'baker@south.example'],
    ]);
    assert.doesNotMatch(res.stdout, /password|scrypt|\$/i);
    assert.equal(res.stderr, '');
    assert.equal(hash(db), before, 'listing writes nothing');
  });

  it('--org lists that org’s admins only; an org without any says how to add one', async () => {
    const res = await runCli(['admin', 'list', '--org', orgs.south, '--data', data]);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(rows(res.stdout), [
      ['ORG', 'ORG NAME', 'ADMIN EMAIL'],
      [orgs.south, 'South Bakery', 'baker@south.example'],
    ]);
    const none = await runCli(['admin', 'list', '--org', orgs.quiet, '--data', data]);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, `Quiet Shop (${orgs.quiet}) has no admin login: add one with wallet-loyalty admin create --org ${orgs.quiet} --email <email>\n`);
  });

  it('refuses an unknown org, or a data folder without a database, with one line and exit 1', async () => {
    const unknown = await runCli(['admin', 'list', '--org', 'org_nope', '--data', data]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout, '');
    assert.equal(unknown.stderr, 'wallet-loyalty: no org org_nope\n');
    const empty = path.join(tempDir('wl-admin-list-'), 'data');
    const missing = await runCli(['admin', 'list', '--data', empty]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^wallet-loyalty: no database at .+ \(set --data or DATA_DIR\)\n$/);
  });
});
