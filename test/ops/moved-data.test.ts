// The first start keeps its data in ./data; a service whose DATA_DIR names another, empty folder
// would start on a new database beside the shop's real one. The start says so, and how to move it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { movedDataWarning } from '../../src/backups/moved-data';
import { openDatabase } from '../../src/db/open';
import { cliArgv, cliEnv, tempDir } from '../support/cli';

describe('a first start’s ./data while DATA_DIR points elsewhere', () => {
  let project: string;
  let elsewhere: string;
  before(() => {
    project = tempDir('wl-first-start-');
    openDatabase(path.join(project, 'data', 'wallet-loyalty.db')).close();
    elsewhere = path.join(project, 'var-lib');
    mkdirSync(elsewhere);
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('warns only when ./data holds a database and DATA_DIR, another folder, holds none', () => {
    assert.match(movedDataWarning({ dataDir: elsewhere }, project) ?? '', /holds no database yet, while .*data holds one/);
    assert.equal(movedDataWarning({ dataDir: path.join(project, 'data') }, project), null, 'DATA_DIR is ./data itself');
    assert.equal(movedDataWarning({ dataDir: elsewhere }, elsewhere), null, 'no ./data beside the start');
    const moved = path.join(project, 'moved');
    openDatabase(path.join(moved, 'wallet-loyalty.db')).close();
    assert.equal(movedDataWarning({ dataDir: moved }, project), null, 'DATA_DIR has its own database');
  });

  it('the server says it in its start-up log, with the one command that moves the data', async () => {
    const child = spawn(process.execPath, cliArgv(['serve', '--port', '0']), {
      cwd: project,
      env: cliEnv({ DATA_DIR: elsewhere, BACKUP_HOUR: 'off' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const exited = new Promise((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve, reject) => {
      const check = () => (/listening on/.test(out) ? resolve() : undefined);
      child.stdout.on('data', check);
      child.on('close', () => reject(new Error(`serve ended: ${out}`)));
    });
    child.kill('SIGTERM');
    await exited;
    const line = out.split('\n').find((l) => l.includes('holds no database yet'));
    assert.ok(line, out);
    const entry = JSON.parse(line) as { level: string; msg: string };
    assert.equal(entry.level, 'warn');
    assert.ok(entry.msg.includes(`wallet-loyalty backup ${path.join(elsewhere, 'wallet-loyalty.db')} --data ${path.join(project, 'data')}`), entry.msg);
  });
});
