// Every file that holds the customers' data is readable by the server's user only, whatever the
// umask: the data and backup folders 700; the database, its -wal and -shm, the backups, the copy
// before a schema upgrade, the database a restore moves aside and `wallet-loyalty backup <file>` 600.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config';
import { runBackup } from '../../src/backups/service';
import { restoreDatabase } from '../../src/backups/restore';
import { latestVersion, migrate } from '../../src/db/migrate';
import { migrations } from '../../src/db/migrations';
import { applyPragmas, openDatabase } from '../../src/db/open';
import { createFakeClock, silentLogger } from '../support/fakes';
import { runCli, tempDir } from '../support/cli';

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe('file modes under umask 022', () => {
  let umask: number;
  let root: string;
  before(() => {
    // The umask most systems give a login (755 folders, 644 files); the spawned CLI inherits it.
    umask = process.umask(0o022);
    root = tempDir('wl-modes-');
  });
  after(() => process.umask(umask));

  it('the data folder, the database, -wal and -shm; backups and their folder; the copy before an upgrade; restore; the CLI backup', async () => {
    const dataDir = path.join(root, 'new', 'data');
    const config = loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: path.join(root, 'elsewhere', 'backups') });
    const db = openDatabase(config.dbFile);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_modes', 'Modes Café', 0)").run();
    assert.equal(mode(dataDir), '700');
    for (const file of ['wallet-loyalty.db', 'wallet-loyalty.db-wal', 'wallet-loyalty.db-shm']) assert.equal(mode(path.join(dataDir, file)), '600', file);

    const clock = createFakeClock();
    const run = await runBackup({ db, clock, log: silentLogger, config }, 'console');
    assert.equal(run.error, null);
    assert.equal(mode(config.backups.dir), '700');
    assert.equal(mode(path.join(config.backups.dir, run.file!)), '600');
    db.close();

    // An older database: the copy made before its upgrade.
    const oldFile = path.join(root, 'old', 'wallet-loyalty.db');
    mkdirSync(path.dirname(oldFile));
    const old = new Database(oldFile);
    applyPragmas(old);
    migrate(old, migrations.filter((s) => s.version < latestVersion()));
    old.close();
    openDatabase(oldFile, { backupDir: path.join(root, 'old', 'backups') }).close();
    const [copy] = readdirSync(path.join(root, 'old', 'backups'));
    assert.match(copy!, /^before-schema-/);
    assert.equal(mode(path.join(root, 'old', 'backups', copy!)), '600');
    assert.equal(mode(path.join(root, 'old', 'backups')), '700');

    // A restore: the backup put in place and the database it replaced.
    const restored = restoreDatabase({ source: path.join(config.backups.dir, run.file!), dbFile: oldFile, clock });
    assert.equal(mode(oldFile), '600');
    assert.equal(mode(restored.replaced!), '600');

    // `wallet-loyalty backup <file>` into a folder it creates.
    const target = path.join(root, 'usb', 'copy.db');
    const res = await runCli(['backup', target, '--data', dataDir]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(mode(target), '600');
    assert.equal(mode(path.dirname(target)), '700');
  });

  it('a database an earlier version left 644 in a 755 folder is tightened when it is opened', () => {
    const dataDir = path.join(root, 'earlier');
    mkdirSync(dataDir, { mode: 0o755 });
    const file = path.join(dataDir, 'wallet-loyalty.db');
    openDatabase(file).close();
    chmodSync(dataDir, 0o755);
    chmodSync(file, 0o644);
    writeFileSync(`${file}-wal`, '');
    chmodSync(`${file}-wal`, 0o644);
    const db = openDatabase(file);
    try {
      assert.deepEqual([mode(dataDir), mode(file), mode(`${file}-wal`), mode(`${file}-shm`)], ['700', '600', '600', '600']);
    } finally {
      db.close();
    }
  });
});
