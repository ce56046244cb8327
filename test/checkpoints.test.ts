import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWalCheckpointer, type WalCheckpointer } from '../src/db/checkpoints';
import { openDatabase, type Db } from '../src/db/open';
import { silentLogger } from './support/fakes';

// The checkpoint thread keeps the WAL bounded under a write load that never pauses, the case a
// PASSIVE checkpoint alone never finishes (the WAL then grew by the whole load).
describe('the WAL checkpoint thread and the write lock', { timeout: 30_000 }, () => {
  let dir: string;
  let file: string;
  let db: Db;
  let checkpoints: WalCheckpointer;
  const RESTART_PAGES = 256;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'wl-checkpoints-'));
    file = path.join(dir, 'wallet-loyalty.db');
    db = openDatabase(file);
    db.exec('CREATE TABLE load (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)');
    checkpoints = startWalCheckpointer(db, file, silentLogger, { intervalMs: 20, restartPages: RESTART_PAGES, delayMs: 0 });
  });
  after(async () => {
    await checkpoints.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the WAL over while writes keep coming, so its file stays near the bound', async () => {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const insert = db.prepare('INSERT INTO load (payload) VALUES (?)');
    const payload = Buffer.alloc(8 * pageSize, 7);
    let largest = 0;
    let written = 0;
    const until = Date.now() + 2000;
    // Write transactions every millisecond or so, some 9 pages each, as a busy server commits
    // them between the rest of its work: over 100 MB of WAL a second, never a pause.
    while (Date.now() < until) {
      for (let i = 0; i < 4; i++) insert.run(payload);
      written += 4 * payload.length;
      largest = Math.max(largest, statSync(`${file}-wal`).size);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const bound = RESTART_PAGES * pageSize;
    assert.ok(written > 20 * bound, `the load wrote ${written} bytes, far more than the bound`);
    // Without restarts the WAL holds every byte written. With them it holds what lands past the
    // bound before a restart gets its turn, which depends on how often the thread gets a core: a
    // tenth of the load on an idle machine, a quarter with every core busy (as in a parallel test
    // run), where a fixed multiple of the bound failed now and then.
    assert.ok(largest < written / 2, `the WAL reached ${largest} bytes of the ${written} written; bound ${bound}`);
    assert.equal((db.prepare('SELECT count(*) AS n FROM load').get() as { n: number }).n * payload.length, written, 'every write is kept');
  });

  it('a transaction that reads, then writes, waits for a write lock another connection holds (no "database is locked")', async () => {
    // Another process holds the write lock for 300 ms, as the CLI may.
    const holder = spawn(process.execPath, ['-e', `
      const db = new (require('better-sqlite3'))(process.argv[1]);
      db.pragma('busy_timeout = 5000');
      db.exec('BEGIN IMMEDIATE');
      db.prepare('INSERT INTO load (payload) VALUES (?)').run(Buffer.from('holder'));
      console.log('locked');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      db.exec('COMMIT');
    `, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const readThenWrite = db.transaction(() => {
      const { n } = db.prepare('SELECT count(*) AS n FROM load').get() as { n: number };
      db.prepare('INSERT INTO load (payload) VALUES (?)').run(Buffer.from(`after ${n}`));
    });
    readThenWrite();
    await new Promise((resolve) => holder.once('exit', resolve));
    const last = db.prepare('SELECT payload FROM load ORDER BY id DESC LIMIT 2').all() as { payload: Buffer }[];
    assert.deepEqual(last.map((r) => r.payload.toString().split(' ')[0]), ['after', 'holder'], 'it ran after the holder committed, seeing its row');
  });
});

describe('the WAL checkpoint thread after a start', { timeout: 30_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wl-checkpoints-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const autocheckpoint = (db: Db) => db.pragma('wal_autocheckpoint', { simple: true }) as number;

  // It begins a moment after the start (lib/after-start.ts): its thread's boot would take CPU the
  // first requests wait for. Meanwhile the connection checkpoints itself, every 1000 pages.
  it('leaves the checkpoints to the connection until its delay is over, then takes them over', async () => {
    const file = path.join(dir, 'delayed.db');
    const db = openDatabase(file);
    const checkpoints = startWalCheckpointer(db, file, silentLogger, { delayMs: 300 });
    try {
      assert.equal(autocheckpoint(db), 1000);
      await sleep(150);
      assert.equal(autocheckpoint(db), 1000, 'still the connection’s own, within the delay');
      assert.equal(checkpoints.running(), false);
      await sleep(400);
      assert.equal(autocheckpoint(db), 0, 'the thread’s, once begun');
      // The hourly maintenance then leaves the WAL to it (db/maintenance.ts).
      assert.equal(checkpoints.running(), true);
    } finally {
      await checkpoints.stop();
      assert.equal(checkpoints.running(), false, 'not after the stop');
      db.close();
    }
  });

  it('a stop during the delay means the thread never begins', async () => {
    const file = path.join(dir, 'stopped.db');
    const db = openDatabase(file);
    await startWalCheckpointer(db, file, silentLogger, { delayMs: 100 }).stop();
    await sleep(300);
    assert.equal(autocheckpoint(db), 1000);
    db.close();
  });
});
