import assert from 'node:assert/strict';
import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { checkpoint, checkpointOffThread } from '../src/db/checkpoints';
import { openDatabase, type Db } from '../src/db/open';
import { tempDir } from './support/cli';

// The checkpoints of bulk work (imports, the search index's merge, the sweeps): in the server on a
// thread of their own, so the event loop goes on while pages are copied and synced; elsewhere on
// the calling thread. Either way the WAL's pages end up in the database file. How long the loop is
// held during an erasure's merge at 100,000 customers is measured by `npm run bench:ops`.

const silent = { warn() {} };

/** Writes `rows` rows of about 1 kB each in one transaction: a few hundred pages in the WAL. */
function write(db: Db, from: number, rows: number): void {
  const insert = db.prepare('INSERT INTO bulk (n, filler) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = from; i < from + rows; i++) insert.run(i, 'x'.repeat(1000));
  })();
}

/** Rows of `bulk` in the database file alone, as a checkpoint left it (the WAL not read). */
function rowsInFile(file: string): number {
  const copy = `${file}.file-only`;
  copyFileSync(file, copy);
  const reader = new Database(copy, { readonly: true });
  try {
    return (reader.prepare('SELECT count(*) AS n FROM bulk').get() as { n: number }).n;
  } finally {
    reader.close();
    rmSync(copy, { force: true });
  }
}

describe('checkpoints of bulk work', () => {
  let dir: string;
  let db: Db;
  before(() => {
    dir = tempDir('wl-checkpoints-');
    db = openDatabase(path.join(dir, 'wallet-loyalty.db'));
    db.exec('CREATE TABLE bulk (n INTEGER PRIMARY KEY, filler TEXT)');
    db.pragma('wal_checkpoint(PASSIVE)');
  });
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on its own thread: the event loop turns while it runs, and every page is copied', async () => {
    const close = checkpointOffThread(db, silent);
    try {
      write(db, 0, 400);
      assert.equal(rowsInFile(db.name), 0, 'before: the rows are in the WAL only');
      let turned = false;
      setImmediate(() => (turned = true));
      await checkpoint(db);
      assert.equal(turned, true, 'the loop ran other work while the checkpoint was done elsewhere');
      assert.equal(rowsInFile(db.name), 400);

      // The same thread does the next one, as completely.
      write(db, 400, 400);
      await checkpoint(db);
      assert.equal(rowsInFile(db.name), 800);
    } finally {
      await close();
    }
  });

  it('after the thread is closed (or where none was set up): on the calling thread', async () => {
    write(db, 800, 400);
    assert.equal(rowsInFile(db.name), 800);
    let turned = false;
    setImmediate(() => (turned = true));
    await checkpoint(db);
    assert.equal(turned, false, 'done before the loop turned');
    assert.equal(rowsInFile(db.name), 1200);
  });

  it('a closed database: nothing to do, no error', async () => {
    const other = openDatabase(path.join(dir, 'closed.db'));
    const close = checkpointOffThread(other, silent);
    await close();
    other.close();
    await checkpoint(other);
  });
});
