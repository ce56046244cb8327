// The operator's recovery commands, run as the real CLI: restore (every refusal docs/backups.md#restore lists,
// then the swap), the copy before a schema upgrade, admin reset-password / create, --version.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { latestVersion, migrate } from '../../src/db/migrate';
import { migrations } from '../../src/db/migrations';
import { applyPragmas } from '../../src/db/open';
import { verifyPassword } from '../../src/lib/password';
import { freePort, ROOT, runCli, ServeProcess, tempDir } from '../support/cli';

const oneLine = (text: string) => {
  assert.equal(text.trim().split('\n').length, 1, `one line: ${text}`);
  return text.trim();
};
const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const SEED = { orgs: [{ name: 'Restore Café', admins: [{ email: 'owner@restore.example', password: 'first password 1' }], cards: [{ name: 'Stamps', passType: 'stamp_card' }] }] };

async function seededFolder(root: string, name: string): Promise<{ data: string; db: string; orgId: string }> {
  const data = path.join(root, name);
  const file = path.join(root, `${name}.json`);
  writeFileSync(file, JSON.stringify({ orgs: [{ ...SEED.orgs[0], name }] }).replace('owner@restore.example', `owner@${name}.example`));
  const res = await runCli(['seed', file, '--data', data]);
  assert.equal(res.code, 0, res.stderr);
  return { data, db: path.join(data, 'wallet-loyalty.db'), orgId: JSON.parse(res.stdout).orgs[0].orgId };
}

const orgNames = (file: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT name FROM orgs').all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('wallet-loyalty restore', () => {
  let root: string;
  let current: { data: string; db: string };
  let backup: string;
  before(async () => {
    root = tempDir('wl-restore-');
    current = await seededFolder(root, 'current');
    const other = await seededFolder(root, 'other');
    backup = path.join(root, 'other-backup.db');
    const res = await runCli(['backup', backup, '--data', other.data]);
    assert.equal(res.code, 0, res.stderr);
  });

  function files(root: string, make: (file: string) => void, name: string): string {
    const file = path.join(root, name);
    make(file);
    return file;
  }

  it('refuses, in one line and changing nothing: a missing file, a random file, a foreign SQLite file, a corrupt copy, a newer schema, a database in use', async () => {
    const cases: { name: string; file: () => string; message: RegExp }[] = [
      { name: 'no such file', file: () => path.join(root, 'missing.db'), message: /no file .*missing\.db/ },
      { name: 'random bytes', file: () => files(root, (f) => writeFileSync(f, 'hello, not a database'), 'random.db'), message: /random\.db is not an SQLite database; nothing was changed/ },
      {
        name: 'another program’s SQLite database',
        file: () => files(root, (f) => { const db = new Database(f); db.exec('CREATE TABLE notes (body TEXT)'); db.close(); }, 'foreign.db'),
        message: /foreign\.db is an SQLite database, but not one of wallet-loyalty; nothing was changed/,
      },
      {
        name: 'a corrupt backup',
        file: () =>
          files(root, (f) => {
            copyFileSync(backup, f);
            const fd = openSync(f, 'r+');
            writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 4096 * 3);
            closeSync(fd);
          }, 'corrupt.db'),
        message: /corrupt\.db fails SQLite's integrity check/,
      },
      {
        name: 'a newer schema',
        file: () => files(root, (f) => { copyFileSync(backup, f); const db = new Database(f); db.pragma(`user_version = ${latestVersion() + 1}`); db.close(); }, 'newer.db'),
        message: new RegExp(`newer\\.db has schema version ${latestVersion() + 1}, newer than this wallet-loyalty \\(${latestVersion()}\\): restore it with the newer version`),
      },
      {
        name: 'a database in use (its -wal beside it)',
        file: () => files(root, (f) => { copyFileSync(backup, f); writeFileSync(`${f}-wal`, ''); }, 'live.db'),
        message: /live\.db has a write-ahead log beside it/,
      },
      { name: 'the database itself', file: () => current.db, message: /is the database itself/ },
    ];
    const before = hash(current.db);
    for (const c of cases) {
      const file = c.file();
      const res = await runCli(['restore', file, '--data', current.data]);
      assert.equal(res.code, 1, `${c.name}: ${res.stdout}`);
      assert.match(oneLine(res.stderr), c.message, c.name);
      assert.equal(hash(current.db), before, `${c.name}: the database is untouched`);
      assert.deepEqual(readdirSync(current.data).filter((f) => !f.startsWith('wallet-loyalty.db')), [], `${c.name}: nothing beside it`);
    }
  });

  it('refuses while a server holds the data folder, also under load, and works once it stopped', async () => {
    const server = new ServeProcess(['--data', current.data, '--port', String(await freePort())], { env: { BACKUP_HOUR: 'off' } });
    try {
      await server.listening();
      const res = await runCli(['restore', backup, '--data', current.data]);
      assert.equal(res.code, 1);
      assert.match(oneLine(res.stderr), /wallet-loyalty\.db is open in another program \(a running server, or Litestream\): stop it first/);
      assert.deepEqual(orgNames(current.db), ['current']);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
    const before = hash(current.db);
    const res = await runCli(['restore', backup, '--data', current.data]);
    assert.equal(res.code, 0, res.stderr);
    const replaced = readdirSync(current.data).filter((f) => /^replaced-\d{8}T\d{6}Z\.db$/.test(f));
    assert.equal(replaced.length, 1, readdirSync(current.data).join(', '));
    assert.match(res.stdout, new RegExp(`kept as .*${replaced[0]}`));
    assert.equal(hash(path.join(current.data, replaced[0]!)), before, 'the replaced database is kept as it was');
    assert.deepEqual(orgNames(current.db), ['other']);
    // The server starts on the restored database.
    const again = new ServeProcess(['--data', current.data, '--port', String(await freePort())], { env: { BACKUP_HOUR: 'off' } });
    try {
      const base = await again.listening();
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
    } finally {
      await again.stop();
    }
  });

  it('replaces a current database that is damaged beyond reading, keeping it aside', async () => {
    const broken = path.join(root, 'broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(path.join(broken, 'wallet-loyalty.db'), 'the SD card returned this');
    const res = await runCli(['restore', backup, '--data', broken]);
    assert.equal(res.code, 0, res.stderr);
    const [aside] = readdirSync(broken).filter((f) => f.startsWith('replaced-'));
    assert.equal(readFileSync(path.join(broken, aside!), 'utf8'), 'the SD card returned this');
    assert.deepEqual(orgNames(path.join(broken, 'wallet-loyalty.db')), ['other']);
  });

  it('restores onto a new machine: a data folder with no database yet', async () => {
    const fresh = path.join(root, 'new-machine', 'data');
    const res = await runCli(['restore', backup, '--data', fresh]);
    assert.equal(res.code, 0, res.stderr);
    assert.doesNotMatch(res.stdout, /replaced/);
    assert.deepEqual(orgNames(path.join(fresh, 'wallet-loyalty.db')), ['other']);
  });
});

describe('safe upgrades', () => {
  /** A database one schema version behind this program, with an org in it. */
  function olderDatabase(dir: string): string {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'wallet-loyalty.db');
    const db = new Database(file);
    applyPragmas(db);
    migrate(db, migrations.filter((s) => s.version < latestVersion()));
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_old', 'Old Café', 0)").run();
    db.close();
    return file;
  }
  const version = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma('user_version', { simple: true }) as number;
    } finally {
      db.close();
    }
  };

  it('copies a database to BACKUP_DIR/before-schema-<new version>-<UTC time>.db before migrating it, and says where', async () => {
    const dir = path.join(tempDir('wl-upgrade-'), 'data');
    const file = olderDatabase(dir);
    const res = await runCli(['key', 'list', '--data', dir]);
    assert.equal(res.code, 0, res.stderr);
    const copies = readdirSync(path.join(dir, 'backups'));
    assert.equal(copies.length, 1);
    assert.match(copies[0]!, new RegExp(`^before-schema-${latestVersion()}-\\d{8}T\\d{6}Z\\.db$`));
    assert.match(res.stderr, new RegExp(`upgrading the schema from version ${latestVersion() - 1} to ${latestVersion()}; the database as it was is kept at .*${copies[0]}`));
    assert.equal(version(path.join(dir, 'backups', copies[0]!)), latestVersion() - 1);
    assert.deepEqual(orgNames(path.join(dir, 'backups', copies[0]!)), ['Old Café']);
    assert.equal(version(file), latestVersion());
    // Already current: no copy the next time.
    assert.equal((await runCli(['key', 'list', '--data', dir])).code, 0);
    assert.equal(readdirSync(path.join(dir, 'backups')).length, 1);
    // A new, empty database has nothing to keep.
    const empty = path.join(tempDir('wl-upgrade-'), 'data');
    assert.equal((await runCli(['seed', path.join(ROOT, 'test/fixtures/seed-example.json'), '--data', empty])).code, 0);
    assert.equal(existsSync(path.join(empty, 'backups')), false);
  });

  it('without a place for the copy, nothing is migrated: exit 1, one line', async () => {
    const root = tempDir('wl-upgrade-');
    const file = olderDatabase(path.join(root, 'data'));
    writeFileSync(path.join(root, 'blocked'), 'a file where the folder should be');
    for (const args of [['serve', '--port', String(await freePort())], ['key', 'list']]) {
      const res = await runCli([...args, '--data', path.join(root, 'data')], { env: { BACKUP_DIR: path.join(root, 'blocked') } });
      assert.equal(res.code, 1, args[0]);
      assert.match(oneLine(res.stderr), /cannot keep a copy of the database before upgrading its schema .*so it was not upgraded/);
      assert.equal(version(file), latestVersion() - 1);
    }
  });
});

describe('wallet-loyalty admin', () => {
  let folder: { data: string; db: string; orgId: string };
  before(async () => {
    folder = await seededFolder(tempDir('wl-admin-'), 'admins');
  });
  const hashOf = (email: string) => {
    const db = new Database(folder.db, { readonly: true });
    try {
      return (db.prepare('SELECT password_hash AS h FROM admins WHERE email = ?').get(email) as { h: string } | undefined)?.h;
    } finally {
      db.close();
    }
  };

  it('reset-password prints a new password once, which works, and signs the admin out everywhere', async () => {
    const db = new Database(folder.db);
    db.prepare("INSERT INTO sessions (id, kind, org_id, admin_id, csrf_token, livemode, created_at, last_seen_at) SELECT 'sess-1', 'console', org_id, id, 'x', 1, 0, 0 FROM admins").run();
    db.close();
    const res = await runCli(['admin', 'reset-password', '--email', 'OWNER@admins.example', '--data', folder.data]);
    assert.equal(res.code, 0, res.stderr);
    const password = /new password for owner@admins\.example: (\S+)/.exec(res.stdout)?.[1];
    assert.ok(password && password.length >= 20, res.stdout);
    assert.equal(await verifyPassword(password, hashOf('owner@admins.example')!), true);
    assert.equal(await verifyPassword('first password 1', hashOf('owner@admins.example')!), false);
    const check = new Database(folder.db, { readonly: true });
    assert.equal((check.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n, 0);
    check.close();
  });

  it('create adds an admin of the org and prints the password once', async () => {
    const res = await runCli(['admin', 'create', '--org', folder.orgId, '--email', 'second@admins.example', '--data', folder.data]);
    assert.equal(res.code, 0, res.stderr);
    const password = /password: (\S+)/.exec(res.stdout)?.[1];
    assert.equal(await verifyPassword(password!, hashOf('second@admins.example')!), true);
  });

  const refusals = [
    { name: 'an unknown email', args: ['reset-password', '--email', 'nobody@admins.example'], message: /^wallet-loyalty: no admin login nobody@admins\.example$/ },
    { name: 'an unknown org', args: ['create', '--org', 'org_nope', '--email', 'x@admins.example'], message: /^wallet-loyalty: no org org_nope$/ },
    { name: 'an email already used', args: ['create', '--org', '<org>', '--email', 'Second@admins.example'], message: /second@admins\.example is already an admin login/ },
    { name: 'not an email', args: ['create', '--org', '<org>', '--email', 'not-an-email'], message: /not-an-email is not an email address/ },
    { name: 'no --email', args: ['reset-password'], message: /admin reset-password needs --email/ },
    { name: 'no --org', args: ['create', '--email', 'y@admins.example'], message: /admin create needs --org/ },
    { name: 'an unknown action', args: ['delete', '--email', 'y@admins.example'], message: /admin takes reset-password/ },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name}: exit 1, one line, nothing written`, async () => {
      const before = hash(folder.db);
      const res = await runCli(['admin', ...c.args.map((a) => (a === '<org>' ? folder.orgId : a)), '--data', folder.data]);
      assert.equal(res.code, 1);
      assert.match(oneLine(res.stderr), c.message);
      assert.equal(hash(folder.db), before);
    });
  }
});

describe('wallet-loyalty --version', () => {
  it('prints the package version', async () => {
    const res = await runCli(['--version']);
    assert.equal(res.code, 0);
    assert.equal(res.stdout, `${JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n`);
  });
});


