// The backup's integrity check runs on a worker thread with its own read-only connection (reading
// every page of a large database takes seconds the server must not spend away from requests). It
// must judge a copy exactly as the check on the main thread does. That the bundled script can start
// the worker is tested with the bundle (build.test.ts); how long the loop is held, by
// `npm run bench:ops`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeSync, copyFileSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { integrityCheckOffThread, sealDatabaseCopyOffThread } from '../../src/backups/integrity-worker';
import { DatabaseFileError, sealDatabaseCopy } from '../../src/db/file-check';
import { latestVersion } from '../../src/db/migrate';
import { openDatabase } from '../../src/db/open';
import { tempDir } from '../support/cli';

describe('the integrity check on a worker thread', () => {
  let dir: string;
  let good: string;
  before(() => {
    dir = tempDir('wl-integrity-');
    const live = openDatabase(path.join(dir, 'live', 'wallet-loyalty.db'));
    live.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_1', 'Check Café', 0)").run();
    good = path.join(dir, 'good.db');
    live.prepare('VACUUM INTO ?').run(good);
    live.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const corrupt = (name: string) => {
    const file = path.join(dir, name);
    copyFileSync(good, file);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 4096 * 3);
    closeSync(fd);
    return file;
  };

  it('a whole copy: ok, and sealed as on the main thread (schema version, no -wal needed)', async () => {
    assert.ok(isMainThread);
    assert.deepEqual(await integrityCheckOffThread(good), { first: 'ok', count: 1 });
    const copy = path.join(dir, 'copy.db');
    copyFileSync(good, copy);
    assert.deepEqual(await sealDatabaseCopyOffThread(copy), { schemaVersion: latestVersion() });
  });

  it('a damaged copy: refused with the reason, as the main thread’s check refuses it', async () => {
    const here = corrupt('damaged-here.db');
    assert.throws(() => sealDatabaseCopy(here), (err: unknown) => err instanceof DatabaseFileError && /^fails SQLite's integrity check/.test(err.message));
    await assert.rejects(sealDatabaseCopyOffThread(corrupt('damaged-there.db')), (err: unknown) => err instanceof DatabaseFileError && /^fails SQLite's integrity check/.test(err.message));
  });

  it('a file that is not there: refused, the thread ends', async () => {
    await assert.rejects(integrityCheckOffThread(path.join(dir, 'missing.db')), (err: unknown) => err instanceof DatabaseFileError);
  });
});
