// Scheduled and console backups (docs/backups.md#daily-backups): the copy, its check, rotation, the schedule in the
// shop's time zone, a failure that is shown and never stops the server, and Settings → Backups
// over HTTP. The clock is fake; nothing waits for the wall clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { backupJob } from '../../src/backups/job';
import { lastDueAt, backupDue } from '../../src/backups/schedule';
import { runBackup } from '../../src/backups/service';
import { listBackups } from '../../src/db/file-names';
import { latestVersion } from '../../src/db/migrate';
import { writeOrgSettings } from '../../src/orgs/settings';
import { inTransaction } from '../../src/db/transaction';
import { createLogger } from '../../src/lib/log';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';




function capturingLog() {
  const lines: { level: string; msg: string; [k: string]: unknown }[] = [];
  const log = createLogger('debug', (line) => lines.push(JSON.parse(line)));
  return { log, lines };
}

describe('backups: the copy and rotation', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { BACKUP_KEEP: '3' } });
    app.seed({ orgs: [{ name: 'Backup Café', cards: [{ name: 'Stamps', passType: 'stamp_card' }] }] });
  });
  after(() => app.close());

  it('writes wallet-loyalty-<UTC time>.db into BACKUP_DIR: whole, one self-contained file, with the data', async () => {
    const { log, lines } = capturingLog();
    app.clock.set(Date.UTC(2026, 2, 1, 2, 0, 0));
    const run = await runBackup({ ...app.deps, log }, 'console');
    assert.equal(run.error, null);
    assert.equal(run.file, 'wallet-loyalty-20260301T020000Z.db');
    const file = path.join(app.config.backups.dir, run.file!);
    assert.equal(app.config.backups.dir, path.join(app.config.dataDir, 'backups'), 'the default folder');
    const copy = new Database(file, { readonly: true, fileMustExist: true });
    try {
      assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete', 'no -wal needed beside it');
      assert.equal(copy.pragma('user_version', { simple: true }), latestVersion());
      assert.deepEqual(copy.prepare('SELECT name FROM orgs').all(), [{ name: 'Backup Café' }]);
    } finally {
      copy.close();
    }
    assert.equal(run.sizeBytes, readFileSync(file).length);
    assert.ok(lines.some((l) => l.msg === 'backup written' && String(l.file).endsWith(run.file!)));
  });

  it('keeps the newest BACKUP_KEEP backups and removes only files named as backups', async () => {
    const stray = path.join(app.config.backups.dir, 'my-own-copy.db');
    writeFileSync(stray, 'keep me');
    for (let i = 1; i <= 4; i++) {
      app.clock.set(Date.UTC(2026, 2, 1 + i, 2, 0, 0));
      assert.equal((await runBackup(app.deps, 'schedule')).error, null);
    }
    assert.deepEqual(
      listBackups(app.config.backups.dir).map((f) => f.name),
      ['wallet-loyalty-20260305T020000Z.db', 'wallet-loyalty-20260304T020000Z.db', 'wallet-loyalty-20260303T020000Z.db'],
    );
    assert.ok(existsSync(stray), 'a file of the operator is never rotated away');
  });

  it('two backups in the same second get names a second apart; two at once share one run', async () => {
    app.clock.set(Date.UTC(2026, 2, 9, 2, 0, 0));
    const [a, b] = await Promise.all([runBackup(app.deps, 'console'), runBackup(app.deps, 'console')]);
    assert.equal(a, b, 'the second press waits for the run in progress');
    const c = await runBackup(app.deps, 'console');
    assert.deepEqual([a.file, c.file], ['wallet-loyalty-20260309T020000Z.db', 'wallet-loyalty-20260309T020001Z.db']);
  });

  it('a folder that cannot be written: the failure is logged and recorded, nothing half-written stays, requests go on', async () => {
    const blocked = await startTestApp({ env: { BACKUP_DIR: path.join(app.config.dataDir, 'not-a-folder') } });
    try {
      writeFileSync(blocked.config.backups.dir, 'a file where the folder should be');
      const { log, lines } = capturingLog();
      const run = await runBackup({ ...blocked.deps, log }, 'schedule');
      assert.match(run.error ?? '', /EEXIST|ENOTDIR/);
      assert.equal(run.file, null);
      assert.ok(lines.some((l) => l.level === 'error' && l.msg === 'backup failed'));
      const health = await blocked.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.equal(health.body.lastBackupAt, null, 'a failed run is not a backup');
    } finally {
      await blocked.close();
    }
  });
});

describe('backups: the daily schedule', () => {
  it('falls due at BACKUP_HOUR on the shop clock, also across a daylight-saving change', () => {
    // 03:00 in Berlin is 02:00 UTC in winter (CET) and 01:00 UTC in summer (CEST).
    assert.equal(lastDueAt(Date.UTC(2026, 0, 10, 2, 30), 3, 'Europe/Berlin'), Date.UTC(2026, 0, 10, 2, 0));
    assert.equal(lastDueAt(Date.UTC(2026, 0, 10, 1, 30), 3, 'Europe/Berlin'), Date.UTC(2026, 0, 9, 2, 0), 'before the hour: yesterday’s');
    assert.equal(lastDueAt(Date.UTC(2026, 6, 10, 1, 30), 3, 'Europe/Berlin'), Date.UTC(2026, 6, 10, 1, 0));
    // 2026-03-08 in New York: 02:00 does not exist (clocks jump to 03:00 EDT = 07:00 UTC).
    assert.equal(lastDueAt(Date.UTC(2026, 2, 8, 12, 0), 2, 'America/New_York'), Date.UTC(2026, 2, 8, 7, 0));
  });

  it('the job backs up once per day when due, catches up after downtime, and does nothing when off', async () => {
    const app = await startTestApp({ env: { BACKUP_HOUR: '3' } });
    const off = await startTestApp({ env: { BACKUP_HOUR: 'off' } });
    try {
      const { orgId } = app.seed({ orgs: [{ name: 'Berlin Café' }] }).orgs[0]!;
      inTransaction(app.db, () => writeOrgSettings(app.db, orgId, { timeZone: 'Europe/Berlin' }));
      const job = backupJob(app.deps);
      app.clock.set(Date.UTC(2026, 0, 10, 2, 0, 30)); // 03:00:30 in Berlin
      assert.equal((await job.run() as { error: unknown }).error, null);
      assert.equal(await job.run(), 'not due', 'once a day');
      app.clock.set(Date.UTC(2026, 0, 11, 1, 59)); // 02:59 the next day
      assert.equal(await job.run(), 'not due');
      app.clock.set(Date.UTC(2026, 0, 13, 9, 0)); // the server was off for two days
      assert.equal(backupDue(app.db, app.clock.now(), 3), true);
      assert.equal((await job.run() as { error: unknown }).error, null);
      assert.equal(listBackups(app.config.backups.dir).length, 2);

      off.clock.set(Date.UTC(2026, 0, 10, 2, 0, 30));
      assert.equal(off.config.backups.hour, null);
      assert.equal(await backupJob(off.deps).run(), 'not due');
      assert.equal(listBackups(off.config.backups.dir).length, 0);
    } finally {
      await app.close();
      await off.close();
    }
  });
});

describe('Settings → Backups over HTTP', () => {
  let app: TestApp;
  let org: ConsoleOrg;
  let client: ConsoleClient;
  before(async () => {
    app = await startTestApp();
    org = await seedConsoleOrg(app, 'Download Café');
    client = new ConsoleClient(app);
    assert.equal((await client.signIn(org.admin.email, org.admin.password)).status, 303);
  });
  after(() => app.close());

  it('Back up now writes a backup and the page lists it with its size and a download', async () => {
    const empty = await client.request('GET', '/console/settings/backups');
    assert.equal(empty.status, 200);
    assert.match(empty.text, /There is no backup in the backup folder yet/);
    const csrf = await client.csrfFrom('/console/settings/backups');
    const res = await client.request('POST', '/console/settings/backups', { form: { _csrf: csrf } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/console/settings/backups?done=ok');
    const [file] = listBackups(app.config.backups.dir);
    assert.ok(file);
    const page = await client.request('GET', '/console/settings/backups?done=ok');
    assert.match(page.text, /Backup written and checked/);
    assert.match(page.text, new RegExp(`href="/console/settings/backups/${file.name}" download`));
    const download = await client.request('GET', `/console/settings/backups/${file.name}`);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="${file.name}"`);
    assert.equal(download.headers.get('cache-control'), 'no-store');
    const health = await app.request('GET', '/healthz');
    assert.equal(health.body.lastBackupAt, new Date(app.clock.now()).toISOString());
  });

  it('downloads nothing but a backup by its name, and nothing without a session', async () => {
    for (const name of ['wallet-loyalty.db', '..%2Fwallet-loyalty.db', 'wallet-loyalty-20990101T000000Z.db', 'before-schema-17-20260101T000000Z.db']) {
      const res = await client.request('GET', `/console/settings/backups/${name}`);
      assert.equal(res.status, 404, name);
    }
    const [file] = listBackups(app.config.backups.dir);
    const anonymous = await fetch(`${app.url}/console/settings/backups/${file!.name}`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location')!, /\/console\/sign-in/);
  });

  it('a failed backup is shown on the page and on every console page', async () => {
    const blocked = await startTestApp({ env: { BACKUP_DIR: path.join(app.config.dataDir, 'blocked') } });
    try {
      writeFileSync(blocked.config.backups.dir, 'not a folder');
      const owner = await seedConsoleOrg(blocked, 'Blocked Café');
      const c = new ConsoleClient(blocked);
      await c.signIn(owner.admin.email, owner.admin.password);
      const res = await c.request('POST', '/console/settings/backups', { form: { _csrf: await c.csrfFrom('/console/settings/backups') } });
      assert.equal(res.headers.get('location'), '/console/settings/backups');
      const page = await c.request('GET', '/console/settings/backups');
      assert.match(page.text, /The last backup failed/);
      assert.match(page.text, /EEXIST|ENOTDIR/);
      const dashboard = await c.request('GET', '/console/dashboard');
      assert.equal(dashboard.status, 200);
      assert.match(dashboard.text, /role="alert"><p><strong>The last backup failed\.<\/strong>/);
    } finally {
      await blocked.close();
    }
  });

  it('a server with several businesses offers no download: a backup holds them all', async () => {
    await seedConsoleOrg(app, 'Second Business');
    const page = await client.request('GET', '/console/settings/backups');
    assert.match(page.text, /several businesses/);
    assert.doesNotMatch(page.text, / download aria-label/);
    const [file] = listBackups(app.config.backups.dir);
    assert.equal((await client.request('GET', `/console/settings/backups/${file!.name}`)).status, 403);
  });
});


