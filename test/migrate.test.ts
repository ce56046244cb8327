import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { latestVersion, migrate } from '../src/db/migrate';
import type { MigrationStep } from '../src/db/migrations';
import { scratchDatabases, userVersion } from './support/databases';
import { openDatabase, type Db } from '../src/db/open';

// schema.sql is version 1; steps move a database one version at a time, each in a transaction.

const scratch = scratchDatabases('wl-migrate-');
const { dir } = scratch;
const freshDb = scratch.fresh;
const version = userVersion;
const tables = (db: Db) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
const columns = (db: Db, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

const v2: MigrationStep = { version: 2, name: 'orgs get a country', sql: "ALTER TABLE orgs ADD COLUMN country TEXT NOT NULL DEFAULT 'NL';" };
const v3: MigrationStep = {
  version: 3,
  name: 'org notes',
  sql: `CREATE TABLE org_notes (org_id TEXT NOT NULL REFERENCES orgs(id), note TEXT NOT NULL);
        INSERT INTO org_notes (org_id, note) SELECT id, 'migrated' FROM orgs;`,
};
const brokenV3: MigrationStep = {
  version: 3,
  name: 'fails half way',
  sql: `CREATE TABLE org_notes (org_id TEXT NOT NULL, note TEXT NOT NULL);
        INSERT INTO org_notes (org_id, note) SELECT id, 'x' FROM orgs;
        ALTER TABLE no_such_table ADD COLUMN y TEXT;`,
};

describe('migrations', () => {
  after(() => scratch.remove());

  it('creates a new database from schema.sql and then every step', () => {
    const db = freshDb();
    assert.deepEqual(migrate(db, [v2, v3]), { from: 0, to: 3 });
    assert.equal(version(db), 3);
    assert.ok(tables(db).includes('api_keys') && tables(db).includes('org_notes'));
    assert.ok(columns(db, 'orgs').includes('country'));
    db.close();
  });

  it('brings a database at an older version up to date and keeps its data', () => {
    const db = freshDb();
    migrate(db, []); // what an older release left behind: version 1
    assert.equal(version(db), 1);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_a', 'Old shop', 1)").run();

    assert.deepEqual(migrate(db, [v3, v2]), { from: 1, to: 3 }, 'steps run in version order whatever the list order');
    assert.deepEqual(db.prepare('SELECT id, name, country FROM orgs').all(), [{ id: 'org_a', name: 'Old shop', country: 'NL' }]);
    assert.deepEqual(db.prepare('SELECT org_id, note FROM org_notes').all(), [{ org_id: 'org_a', note: 'migrated' }]);

    assert.deepEqual(migrate(db, [v2, v3]), { from: 3, to: 3 }, 'a second run does nothing');
    db.close();
  });

  it('rolls a failing step back whole and leaves the version at the last good step', () => {
    const db = freshDb();
    migrate(db, []);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_b', 'Shop', 1)").run();

    assert.throws(() => migrate(db, [v2, brokenV3]), /no such table: no_such_table/);
    assert.equal(version(db), 2, 'step 2 committed, step 3 did not');
    assert.ok(columns(db, 'orgs').includes('country'));
    assert.ok(!tables(db).includes('org_notes'), 'the statements of the failed step before the error were rolled back');

    assert.deepEqual(migrate(db, [v2, v3]), { from: 2, to: 3 }, 'a fixed release carries on from there');
    db.close();
  });

  it('refuses a database newer than the program', () => {
    const db = freshDb();
    migrate(db, [v2, v3]);
    assert.throws(() => migrate(db, [v2]), /schema version 3, newer than this wallet-loyalty knows \(2\)/);
    assert.equal(version(db), 3);
    db.close();
  });

  it('refuses a gap in the steps', () => {
    const db = freshDb();
    assert.throws(() => migrate(db, [v3]), /step 3 .* does not follow version 1/);
    assert.equal(version(db), 1);
    db.close();
  });

  it('openDatabase sets the pragmas in one place and migrates to the latest version', () => {
    const cases: { synchronous?: 'NORMAL' | 'FULL'; expected: number }[] = [
      { expected: 1 },
      { synchronous: 'FULL', expected: 2 },
    ];
    for (const c of cases) {
      const db = openDatabase(path.join(dir, `open-${c.expected}`, 'wallet-loyalty.db'), c.synchronous ? { synchronous: c.synchronous } : {});
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
      assert.equal(db.pragma('busy_timeout', { simple: true }), 5000);
      assert.equal(db.pragma('synchronous', { simple: true }), c.expected);
      assert.equal(version(db), latestVersion());
      db.close();
    }
  });
});
