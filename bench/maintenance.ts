// The hourly database maintenance (src/db/maintenance.ts) on the database the bench filled, run in
// this process once its server has stopped: how long the event loop waited at most (what a request
// arriving meanwhile would wait), and the time in all.
import { maintainDatabase } from '../src/db/maintenance';
import { openDatabase } from '../src/db/open';

export interface MaintenanceMeasurement {
  slices: number;
  totalMs: number;
  longestHoldMs: number;
  /** The slice that took longest, and its time. */
  longestSlice: { statement: string; ms: number } | null;
}

export async function measureMaintenance(file: string): Promise<MaintenanceMeasurement> {
  const db = openDatabase(file);
  try {
    // As after the fill (a bulk load): no statistics yet, so every run analyzes the same tables, even
    // when the server's own hourly run came due during the bench.
    if (db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get()) db.exec('DELETE FROM sqlite_stat1');
    // The server's connection has queried the customers by then.
    db.prepare('SELECT count(*) FROM customers WHERE org_id = ? AND livemode = 1 AND email_norm = ?').get('none', 'none');
    // Each statement the maintenance runs, timed (this connection is the bench's own).
    let longestSlice: MaintenanceMeasurement['longestSlice'] = null;
    const exec = db.exec.bind(db);
    db.exec = (statement: string) => {
      const start = performance.now();
      const result = exec(statement);
      const ms = performance.now() - start;
      if (!longestSlice || ms > longestSlice.ms) longestSlice = { statement, ms };
      return result;
    };
    let longestHoldMs = 0;
    let last = performance.now();
    let done = false;
    const turn = () => {
      const now = performance.now();
      longestHoldMs = Math.max(longestHoldMs, now - last);
      last = now;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    await new Promise((resolve) => setImmediate(resolve));
    const start = performance.now();
    const { analyzed } = await maintainDatabase(db, { checkpointThread: true });
    const totalMs = performance.now() - start;
    // The turn after the last slice closes its gap.
    await new Promise((resolve) => setImmediate(resolve));
    done = true;
    return { slices: analyzed.length, totalMs, longestHoldMs, longestSlice };
  } finally {
    db.close();
  }
}
