import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measureMaintenance } from '../bench/maintenance';
import { openDatabase } from '../src/db/open';

// The bench measures the server's hourly maintenance on its filled database (bench/maintenance.ts),
// from no statistics every time: also after the server's own hourly run analyzed the tables.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-bench-maintenance-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('measureMaintenance', () => {
  const cases = [
    { name: 'a database never analyzed (as the fill leaves it)', analyzedBefore: false },
    { name: 'a database the server has analyzed already', analyzedBefore: true },
  ];
  for (const [i, c] of cases.entries()) {
    it(c.name, async () => {
      const file = path.join(dir, `db-${i}`, 'wallet-loyalty.db');
      const db = openDatabase(file);
      db.exec('CREATE TABLE visits (shop TEXT NOT NULL, day INTEGER NOT NULL); CREATE INDEX visits_shop ON visits (shop); CREATE INDEX visits_day ON visits (day);');
      const insert = db.prepare('INSERT INTO visits (shop, day) VALUES (?, ?)');
      db.transaction(() => {
        for (let n = 0; n < 1000; n++) insert.run(`shop-${n % 10}`, n % 31);
      })();
      if (c.analyzedBefore) db.exec('ANALYZE');
      db.close();
      // Twice: the first measurement's statistics must not stop the second from analyzing.
      for (let run = 0; run < 2; run++) {
        const m = await measureMaintenance(file);
        assert.ok(m.slices >= 2, `run ${run}: ${m.slices} slices`);
        assert.match(m.longestSlice?.statement ?? '', /^ANALYZE "main"\./);
        assert.ok(m.longestHoldMs >= m.longestSlice!.ms, 'the longest hold includes the longest slice');
        assert.ok(m.totalMs >= m.longestSlice!.ms);
      }
    });
  }
});
