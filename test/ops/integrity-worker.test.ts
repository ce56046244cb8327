// The backup's copy and its integrity check run on a worker thread with their own connections
// (copying and reading every page of a large database takes seconds the server must not spend away
// from requests). The check must judge a copy exactly as the check on the main thread does. That the bundled script can start
// the worker is tested with the bundle (build.test.ts); how long the loop is held, by
// `npm run bench:ops`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeSync, copyFileSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { copyDatabaseOffThread, integrityCheckOffThread } from '../../src/backups/integrity-worker';
import { PAGE_CACHE_SIZE } from '../../src/db/connection';
import { DatabaseFileError, sealDatabaseCopy } from '../../src/db/file-check';
import { latestVersion } from '../../src/db/migrate';
import { openDatabase } from '../../src/db/open';
import { tempDir } from '../support/cli';

describe('the integrity check on a worker thread', () => {
  let dir: string;
  let good: string;
  let live: ReturnType<typeof openDatabase>;
  before(() => {
    dir = tempDir('wl-integrity-');
    live = openDatabase(path.join(dir, 'live', 'wallet-loyalty.db'));
    live.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_1', 'Check Café', 0)").run();
    good = path.join(dir, 'good.db');
    live.prepare('VACUUM INTO ?').run(good);
  });
  after(() => {
    live.close();
    rmSync(dir, { recursive: true, force: true });
  });

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
    assert.deepEqual(await integrityCheckOffThread(good), { first: 'ok', count: 1, cacheSize: PAGE_CACHE_SIZE });
  });

  it('the check reads with the small page cache of every connection of ours, not the driver’s 16 MB, on either thread', async () => {
    assert.equal((await integrityCheckOffThread(good)).cacheSize, PAGE_CACHE_SIZE);
    const here = path.join(dir, 'checked-here.db');
    copyFileSync(good, here);
    const seen: unknown[] = [];
    const pragma = Database.prototype.pragma;
    Database.prototype.pragma = function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
      if (source === 'integrity_check') seen.push(pragma.call(this, 'cache_size', { simple: true }));
      return pragma.call(this, source, options);
    } as typeof pragma;
    try {
      sealDatabaseCopy(here);
    } finally {
      Database.prototype.pragma = pragma;
    }
    assert.deepEqual(seen, [PAGE_CACHE_SIZE]);
  });

  it('a copy of the live database, made there while this connection holds it open with a write not yet checkpointed', async () => {
    live.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_2', 'Second Café', 1)").run();
    const copy = path.join(dir, 'copy.db');
    assert.deepEqual(await copyDatabaseOffThread(live.name, copy), { schemaVersion: latestVersion() });
    const opened = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      assert.deepEqual(opened.prepare('SELECT name FROM orgs ORDER BY created_at').pluck().all(), ['Check Café', 'Second Café']);
      assert.equal(opened.pragma('journal_mode', { simple: true }), 'delete');
    } finally {
      opened.close();
    }
    assert.equal(existsSync(`${copy}-wal`), false);
  });

  it('a copy that cannot be written (its folder is missing): refused as a copy, not as damage', async () => {
    await assert.rejects(copyDatabaseOffThread(live.name, path.join(dir, 'no-such-folder', 'copy.db')), (err: unknown) => !(err instanceof DatabaseFileError) && /^could not copy the database \(/.test((err as Error).message));
  });

  it('a damaged copy: refused with the reason, as the main thread’s check refuses it', async () => {
    const here = corrupt('damaged-here.db');
    assert.throws(() => sealDatabaseCopy(here), (err: unknown) => err instanceof DatabaseFileError && /^fails SQLite's integrity check/.test(err.message));
    await assert.rejects(integrityCheckOffThread(corrupt('damaged-there.db')), (err: unknown) => err instanceof DatabaseFileError && /^fails SQLite's integrity check/.test(err.message));
  });

  it('a file that is not there: refused, the thread ends', async () => {
    await assert.rejects(integrityCheckOffThread(path.join(dir, 'missing.db')), (err: unknown) => err instanceof DatabaseFileError);
  });
});
