import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { optimizeDatabase } from '../src/db/maintenance';
import { openDatabase } from '../src/db/open';

// The hourly upkeep refreshes the planner's statistics and leaves checkpoints to SQLite (or to
// Litestream): it never empties the WAL itself.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-maintenance-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the hourly database maintenance', () => {
  it('analyzes tables whose statistics are stale, and leaves the WAL as it is', () => {
    const file = path.join(dir, 'wallet-loyalty.db');
    const db = openDatabase(file);
    db.pragma('wal_autocheckpoint = 0');
    db.exec(`CREATE TABLE visits (id INTEGER PRIMARY KEY, shop TEXT NOT NULL, day INTEGER NOT NULL);
      CREATE INDEX visits_shop ON visits (shop);
      CREATE INDEX visits_day ON visits (day);`);
    const insert = db.prepare('INSERT INTO visits (shop, day) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`shop-${i % 20}`, i % 365);
    })();
    // optimize analyzes what queries used since the connection opened.
    db.prepare('SELECT id FROM visits WHERE shop = ? AND day = ?').all('shop-1', 3);
    const walBefore = statSync(`${file}-wal`).size;
    assert.ok(walBefore > 0);

    optimizeDatabase(db);

    const analyzed = (db.prepare("SELECT idx FROM sqlite_stat1 WHERE tbl = 'visits' ORDER BY idx").all() as { idx: string }[]).map((r) => r.idx);
    assert.deepEqual(analyzed, ['visits_day', 'visits_shop']);
    assert.ok(statSync(`${file}-wal`).size >= walBefore, 'no truncating checkpoint');
    db.close();
  });
});
