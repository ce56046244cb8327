import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { latestVersion, migrate } from '../src/db/migrate';
import { migrations, type MigrationStep } from '../src/db/migrations';
import { scratchDatabases, userVersion } from './support/databases';
import { openDatabase, type Db } from '../src/db/open';

// A new database runs schema.sql (the newest version); an older one runs the steps above its
// version, one at a time, each in a transaction. Here the steps are made up on the initial schema.

const scratch = scratchDatabases('wl-migrate-');
const { dir } = scratch;
const freshDb = scratch.fresh;
const version = userVersion;
const tables = (db: Db) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
const columns = (db: Db, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

const initial = migrations[0]!;
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

  it('creates a new database from schema.sql alone: no step runs', () => {
    const db = freshDb();
    // The program's steps, each made to fail: schema.sql is the newest version, so none may run.
    const failing = migrations.map((s): MigrationStep => ({ version: s.version, name: s.name, run: () => assert.fail(`step ${s.version} ran`) }));
    assert.deepEqual(migrate(db, failing), { from: 0, to: latestVersion() });
    assert.equal(version(db), latestVersion());
    assert.ok(tables(db).includes('customers') && tables(db).includes('web_pass_opens'));
    db.close();
  });

  it('builds a database of an older release, a new database that is not to reach the newest version, by the steps from the initial schema', () => {
    const db = freshDb();
    assert.deepEqual(migrate(db, [initial, v2, v3]), { from: 0, to: 3 });
    assert.equal(version(db), 3);
    assert.ok(tables(db).includes('api_keys') && tables(db).includes('org_notes'));
    assert.ok(columns(db, 'orgs').includes('country'));
    db.close();
  });

  it('brings a database at an older version up to date and keeps its data', () => {
    const db = freshDb();
    migrate(db, [initial]); // what an older release left behind: version 1
    assert.equal(version(db), 1);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_a', 'Old shop', 1)").run();

    assert.deepEqual(migrate(db, [v3, initial, v2]), { from: 1, to: 3 }, 'steps run in version order whatever the list order');
    assert.deepEqual(db.prepare('SELECT id, name, country FROM orgs').all(), [{ id: 'org_a', name: 'Old shop', country: 'NL' }]);
    assert.deepEqual(db.prepare('SELECT org_id, note FROM org_notes').all(), [{ org_id: 'org_a', note: 'migrated' }]);

    assert.deepEqual(migrate(db, [initial, v2, v3]), { from: 3, to: 3 }, 'a second run does nothing');
    db.close();
  });

  it('rolls a failing step back whole and leaves the version at the last good step', () => {
    const db = freshDb();
    migrate(db, [initial]);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_b', 'Shop', 1)").run();

    assert.throws(() => migrate(db, [initial, v2, brokenV3]), /no such table: no_such_table/);
    assert.equal(version(db), 2, 'step 2 committed, step 3 did not');
    assert.ok(columns(db, 'orgs').includes('country'));
    assert.ok(!tables(db).includes('org_notes'), 'the statements of the failed step before the error were rolled back');

    assert.deepEqual(migrate(db, [initial, v2, v3]), { from: 2, to: 3 }, 'a fixed release carries on from there');
    db.close();
  });

  it('runs a step that rebuilds tables with foreign keys off, and fails it whole when it leaves a foreign key broken', () => {
    const db = freshDb();
    migrate(db, [initial]);
    db.exec("INSERT INTO orgs (id, name, created_at) VALUES ('org_a', 'Shop', 1); INSERT INTO cards (id, org_id, name, pass_type, created_at, updated_at) VALUES ('card_a', 'org_a', 'Card', 'stamp_card', 1, 1);");
    const foreignKeys = () => db.pragma('foreign_keys', { simple: true });
    const seen: unknown[] = [];
    const rebuild: MigrationStep = { version: 2, name: 'rebuild', rebuildsTables: true, run: () => seen.push(foreignKeys()) };
    const breaks: MigrationStep = { version: 3, name: 'breaks a key', rebuildsTables: true, run: (d) => d.exec("DELETE FROM orgs") };

    migrate(db, [initial, rebuild]);
    assert.deepEqual(seen, [0], 'off during the step');
    assert.equal(foreignKeys(), 1, 'on again after it');
    assert.throws(() => migrate(db, [initial, rebuild, breaks]), /step 3 \(breaks a key\) left a foreign key broken/);
    assert.equal(version(db), 2);
    assert.equal(db.prepare('SELECT count(*) AS n FROM orgs').pluck().get(), 1, 'the failed step was rolled back');
    assert.equal(foreignKeys(), 1);
    db.close();
  });

  it('refuses a database newer than the program', () => {
    const db = freshDb();
    migrate(db, [initial, v2, v3]);
    assert.throws(() => migrate(db, [initial, v2]), /schema version 3, newer than this wallet-loyalty knows \(2\)/);
    assert.equal(version(db), 3);
    db.close();
  });

  it('refuses a gap in the steps', () => {
    const db = freshDb();
    assert.throws(() => migrate(db, [initial, v3]), /step 3 .* does not follow version 1/);
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
      // SQLite's own 2 MB page cache, not the 16 MB better-sqlite3 compiles in.
      assert.equal(db.pragma('cache_size', { simple: true }), -2000);
      assert.equal(version(db), latestVersion());
      db.close();
    }
  });
});
