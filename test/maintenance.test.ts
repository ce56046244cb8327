import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { maintainDatabase } from '../src/db/maintenance';
import { openDatabase, type Db } from '../src/db/open';

// The hourly upkeep refreshes the planner's statistics one index per turn of the event loop, and
// empties the WAL only when no checkpoint thread keeps it bounded.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-maintenance-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const VISIT_INDEXES = ['visits_shop', 'visits_day', 'visits "by" total'];

/** A database whose `visits` table (three indexes, one with quotes in its name) was queried and never analyzed. */
function databaseWithStaleStatistics(name: string): { db: Db; file: string } {
  const file = path.join(dir, name, 'wallet-loyalty.db');
  const db = openDatabase(file);
  // Only the upkeep may empty the WAL here.
  db.pragma('wal_autocheckpoint = 0');
  db.exec(`CREATE TABLE visits (id INTEGER PRIMARY KEY, shop TEXT NOT NULL, day INTEGER NOT NULL, total INTEGER NOT NULL);
    CREATE INDEX visits_shop ON visits (shop);
    CREATE INDEX visits_day ON visits (day);
    CREATE INDEX "visits ""by"" total" ON visits (total);`);
  const insert = db.prepare('INSERT INTO visits (shop, day, total) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(`shop-${i % 20}`, i % 365, i * 7);
  })();
  db.prepare('SELECT id FROM visits WHERE shop = ? AND day = ? AND total > ?').all('shop-1', 3, 10);
  return { db, file };
}

const statisticsOf = (db: Db) => (db.prepare("SELECT idx FROM sqlite_stat1 WHERE tbl = 'visits' ORDER BY idx").all() as { idx: string }[]).map((r) => r.idx);
const stillStale = (db: Db) => db.prepare('PRAGMA optimize(0xffff)').all();

describe('the hourly database maintenance', () => {
  it('analyzes one index per turn of the event loop, until SQLite finds nothing left to analyze', async () => {
    const { db } = databaseWithStaleStatistics('slices');
    assert.ok(stillStale(db).some((row) => JSON.stringify(row) === JSON.stringify({ optimize: 'ANALYZE "main"."visits"' })));
    // What another turn of the event loop (a request, say) sees while the upkeep runs.
    const seen: number[] = [];
    let done = false;
    const watch = () => {
      if (done) return;
      seen.push(statisticsOf(db).length);
      setImmediate(watch);
    };
    setImmediate(watch);
    const result = await maintainDatabase(db, { checkpointThread: true });
    done = true;
    assert.deepEqual(result.analyzed.filter((s) => s.includes('visits')).sort(), VISIT_INDEXES.map((name) => `ANALYZE "main"."${name.replaceAll('"', '""')}"`).sort());
    assert.deepEqual(statisticsOf(db), [...VISIT_INDEXES].sort());
    assert.deepEqual([...new Set(seen)].filter((n) => n > 0), [1, 2, 3], 'other turns ran after each index, and before the next');
    assert.deepEqual(stillStale(db), []);
    db.close();
  });

  const walCases = [
    { name: 'without a checkpoint thread it folds the WAL back and empties it', checkpointThread: false, walEmptied: true },
    { name: 'with the checkpoint thread running it leaves the WAL to the thread', checkpointThread: true, walEmptied: false },
  ];
  for (const c of walCases) {
    it(c.name, async () => {
      const { db, file } = databaseWithStaleStatistics(`wal-${c.checkpointThread}`);
      const before = statSync(`${file}-wal`).size;
      assert.ok(before > 0);
      const result = await maintainDatabase(db, { checkpointThread: c.checkpointThread });
      assert.equal(result.walEmptied, c.walEmptied);
      const walSize = statSync(`${file}-wal`).size;
      if (c.walEmptied) assert.equal(walSize, 0);
      else assert.ok(walSize >= before, `the WAL holds ${walSize} bytes, ${before} before`);
      assert.equal((db.prepare('SELECT count(*) AS n FROM visits').get() as { n: number }).n, 2000);
      db.close();
    });
  }

  it('stops between two indexes when the server closes the connection', async () => {
    const { db } = databaseWithStaleStatistics('closed');
    setImmediate(() => db.close());
    const result = await maintainDatabase(db, { checkpointThread: false });
    assert.equal(result.analyzed.length, 1);
    assert.equal(result.walEmptied, false);
  });
});
