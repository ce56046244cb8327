// What the console and /healthz say about backups is the backup folder's truth, not the database's
// memory of its runs (which a restore brings from another machine or another day): the last
// backup, its failure, the dashboard's warnings (none newer than 48 hours; no copy off this
// computer), and /healthz per subsystem (mail backlog, last backup error, replication).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBackup } from '../../src/backups/service';
import { restoreDatabase } from '../../src/backups/restore';
import { backupName, listBackups } from '../../src/db/file-names';
import { queueTestEmail } from '../../src/mail/service';
import type { TestApp } from '../support/app';
import { tempDir } from '../support/cli';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';

const HOUR = 3_600_000;

async function signedIn(app: TestApp): Promise<{ org: ConsoleOrg; client: ConsoleClient }> {
  const org = await seedConsoleOrg(app, 'Truth Café');
  const client = new ConsoleClient(app);
  assert.equal((await client.signIn(org.admin.email, org.admin.password)).status, 303);
  return { org, client };
}

describe('backups: the folder, not the database’s memory', () => {
  let root: string;
  before(() => {
    root = tempDir('wl-truth-');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('after a restore onto a new machine (an empty backup folder): no “OK”, lastBackupAt null, the warning on the dashboard', async () => {
    const shop = await startTestApp();
    let backupFile: string;
    try {
      await signedIn(shop);
      assert.equal((await runBackup(shop.deps, 'schedule')).error, null);
      shop.clock.advance(24 * HOUR);
      // The second copy carries the record of the first run: a successful backup, on this machine.
      const second = await runBackup(shop.deps, 'schedule');
      backupFile = path.join(root, 'carried.db');
      copyFileSync(path.join(shop.config.backups.dir, second.file!), backupFile);
    } finally {
      await shop.close();
    }
    const dataDir = path.join(root, 'new-machine');
    restoreDatabase({ source: backupFile, dbFile: path.join(dataDir, 'wallet-loyalty.db'), clock: { now: () => Date.now() } });
    const app = await startTestApp({ env: { DATA_DIR: dataDir } });
    try {
      assert.deepEqual(listBackups(app.config.backups.dir), []);
      const health = await app.request('GET', '/healthz');
      assert.equal(health.body.lastBackupAt, null, 'the record says a backup was made; the folder has none');
      const client = new ConsoleClient(app);
      // The restored org's admin, as seeded on the first machine.
      const owner = app.db.prepare('SELECT email FROM admins LIMIT 1').get() as { email: string };
      assert.equal((await client.signIn(owner.email, ADMIN_PASSWORD)).status, 303);
      const page = await client.request('GET', '/console/settings/backups');
      assert.match(page.text, /There is no backup in the backup folder yet/);
      assert.doesNotMatch(page.text, /badge ok">OK/);
      const dashboard = await client.request('GET', '/console/dashboard');
      assert.match(dashboard.text, /No backup in the last 48 hours\.<\/strong> There is no backup in the backup folder\./);
    } finally {
      await app.close();
    }
  });

  it('a failure is the last word only until a backup newer than it is in the folder', async () => {
    const app = await startTestApp({ env: { BACKUP_DIR: path.join(root, 'blocked') } });
    try {
      const { client } = await signedIn(app);
      writeFileSync(app.config.backups.dir, 'a file where the folder belongs');
      const failed = await runBackup(app.deps, 'schedule');
      assert.ok(failed.error);
      let health = await app.request('GET', '/healthz');
      assert.equal(health.body.lastBackupError, failed.error);
      assert.match((await client.request('GET', '/console/dashboard')).text, /The last backup failed\./);

      // The folder is fixed and holds a backup newer than the failure (copied in by hand, or
      // a restored database's record that is older than the folder's files).
      rmSync(app.config.backups.dir);
      mkdirSync(app.config.backups.dir);
      const ok = await startTestApp();
      try {
        app.clock.advance(60_000);
        const run = await runBackup(ok.deps, 'console');
        copyFileSync(path.join(ok.config.backups.dir, run.file!), path.join(app.config.backups.dir, backupName(app.clock.now())));
      } finally {
        await ok.close();
      }
      health = await app.request('GET', '/healthz');
      assert.equal(health.body.lastBackupError, null);
      assert.equal(health.body.lastBackupAt, new Date(Math.floor(app.clock.now() / 1000) * 1000).toISOString());
      assert.doesNotMatch((await client.request('GET', '/console/dashboard')).text, /The last backup failed/);
    } finally {
      await app.close();
    }
  });

  it('a file given a backup’s name that is not a database is not a backup', async () => {
    const app = await startTestApp();
    try {
      mkdirSync(app.config.backups.dir, { recursive: true });
      writeFileSync(path.join(app.config.backups.dir, backupName(app.clock.now())), '');
      assert.equal((await app.request('GET', '/healthz')).body.lastBackupAt, null);
    } finally {
      await app.close();
    }
  });
});

describe('the dashboard warns about backups', () => {
  it('no backup newer than 48 hours, and no copy off this computer, until each is true', async () => {
    const app = await startTestApp();
    try {
      const { org, client } = await signedIn(app);
      let page = (await client.request('GET', '/console/dashboard')).text;
      assert.match(page, /role="alert"><p><strong>No backup in the last 48 hours\.<\/strong>/);
      assert.match(page, /role="note"><p><strong>No copy off this computer\.<\/strong>/);

      assert.equal((await runBackup(app.deps, 'console')).error, null);
      page = (await client.request('GET', '/console/dashboard')).text;
      assert.doesNotMatch(page, /No backup in the last 48 hours/);

      // Sessions end on the same fake clock: sign in again on each later day.
      const later = async (hours: number) => {
        app.clock.advance(hours * HOUR);
        const again = new ConsoleClient(app);
        assert.equal((await again.signIn(org.admin.email, org.admin.password)).status, 303);
        return (await again.request('GET', '/console/dashboard')).text;
      };
      assert.doesNotMatch(await later(47), /No backup in the last 48 hours/);
      assert.match(await later(2), /No backup in the last 48 hours\.<\/strong> The newest in the backup folder is from <time/);
    } finally {
      await app.close();
    }
  });

  it('REPLICATION=litestream: no off-site warning; Settings → Backups and /healthz name it', async () => {
    const app = await startTestApp({ env: { REPLICATION: 'litestream' } });
    try {
      const { client } = await signedIn(app);
      assert.doesNotMatch((await client.request('GET', '/console/dashboard')).text, /No copy off this computer/);
      assert.match((await client.request('GET', '/console/settings/backups')).text, /<dt>Copy off this computer<\/dt><dd>Litestream/);
      assert.equal((await app.request('GET', '/healthz')).body.replication, 'litestream');
    } finally {
      await app.close();
    }
  });
});

describe('/healthz per subsystem', () => {
  it('mailBacklog counts emails waiting to be sent; lastBackupError and replication are there from the start', async () => {
    const app = await startTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'shop@example.com' } });
    try {
      const { org } = await signedIn(app);
      let health = await app.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.deepEqual(
        { mailBacklog: health.body.mailBacklog, lastBackupAt: health.body.lastBackupAt, lastBackupError: health.body.lastBackupError, replication: health.body.replication },
        { mailBacklog: 0, lastBackupAt: null, lastBackupError: null, replication: 'off' },
      );
      queueTestEmail(app.deps, { orgId: org.orgId, livemode: true }, 'one@example.org');
      queueTestEmail(app.deps, { orgId: org.orgId, livemode: true }, 'two@example.org');
      health = await app.request('GET', '/healthz');
      assert.equal(health.body.mailBacklog, 2);
      assert.doesNotMatch(health.text, /example\.org/, 'counts, never an address');
    } finally {
      await app.close();
    }
  });
});
