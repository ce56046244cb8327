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

/**
 * As after the fill (a bulk load): no statistics, so every run analyzes the same tables, even when
 * the server's own hourly run came due during the bench. On a connection of its own: one that
 * loaded the statistics when it opened keeps taking the tables for analyzed.
 *
 * The statistics' table is made first when missing: only a database's first maintenance ever makes
 * it, and that change of the schema can wait for the file system to write out what the servers
 * just wrote (a first CREATE TABLE on a freshly copied 1.4 GB database took 1.6 s here, 0.2 ms after
 * a sync). Runs 1 and 2 of round 14, which made it, measured holds of 334 and 191 ms. With the
 * table there: 27 to 83 ms measured alone (round 14), 79 to 268 ms right after round 15's full runs,
 * 107 to 417 ms after round 16's.
 */
function clearStatistics(file: string): void {
  const db = openDatabase(file);
  try {
    // ANALYZE of the schema's own table makes sqlite_stat1 and writes one row to it.
    db.exec('ANALYZE sqlite_schema');
    db.exec('DELETE FROM sqlite_stat1');
  } finally {
    db.close();
  }
}

export async function measureMaintenance(file: string): Promise<MaintenanceMeasurement> {
  clearStatistics(file);
  const db = openDatabase(file);
  try {
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
