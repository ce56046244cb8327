import type { Db } from './open';

/** PRAGMA optimize's default mask (0xfffe) with its debug bit: list the ANALYZE statements it would run, run none. */
const OPTIMIZE_PLAN = 0xffff;

export interface MaintenanceOptions {
  /**
   * Whether the checkpoint thread keeps the WAL bounded (db/checkpoints.ts). Without it the upkeep
   * folds the WAL back into the database file and empties it, so it cannot grow without bound.
   */
  checkpointThread: boolean;
}

export interface MaintenanceResult {
  /** The ANALYZE statements run, one per index (or per table that has none). */
  analyzed: string[];
  walEmptied: boolean;
}

/**
 * Hourly upkeep: refreshes the query planner's statistics where SQLite finds them stale, and empties
 * the WAL when no checkpoint thread keeps it in bounds.
 *
 * The analysis runs one index at a time, each in its own turn of the event loop, with requests
 * answered in between. Run whole, `PRAGMA optimize` and the truncating checkpoint after it held the
 * event loop 1.0 to 1.4 s in the first hour after a million customers were loaded (issue 13's bench:
 * the server missed its every-second job); the optimize alone 0.24 to 0.58 s on a copy of that
 * database. ANALYZE counts every entry of each index it samples, ~20 to 36 ms an index of the
 * customers table there, whatever the analysis_limit; index by index, the longest hold was 34 to
 * 40 ms (37 slices, 0.27 s in all). Right after the bench's load the largest index's count took up
 * to 268 ms (round 15), 417 ms (round 16, a slower day): one statement, which no finer slicing reaches.
 *
 * The truncating checkpoint is left out while the thread runs: it waits for every reader and writer
 * to leave the WAL and syncs the database file, on the event loop; the thread already copies the WAL
 * back every 100 ms, and its restarts keep the file near its bound.
 */
export async function maintainDatabase(db: Db, options: MaintenanceOptions): Promise<MaintenanceResult> {
  const analyzed: string[] = [];
  // A sample of each index is enough for the planner (it still counts every entry).
  db.pragma('analysis_limit = 1000');
  for (const planned of staleStatistics(db)) {
    for (const statement of analyzeSlices(db, planned)) {
      // The server may have stopped (and closed the connection) during the last turn.
      if (!db.open) return { analyzed, walEmptied: false };
      db.exec(statement);
      analyzed.push(statement);
      await nextTurn();
    }
  }
  if (options.checkpointThread || !db.open) return { analyzed, walEmptied: false };
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { analyzed, walEmptied: true };
}

/** What `PRAGMA optimize` would analyze now: one `ANALYZE "main"."table"` each. */
function staleStatistics(db: Db): string[] {
  return (db.prepare(`PRAGMA optimize(${OPTIMIZE_PLAN})`).all() as { optimize: string }[]).map((row) => row.optimize);
}

/**
 * A table's ANALYZE split into one per index: together they write the same statistics (a table's
 * row count is its indexes' first number). A table without indexes, or a statement of a form not
 * recognized, runs whole.
 */
function analyzeSlices(db: Db, statement: string): string[] {
  const table = /^ANALYZE "main"\."((?:[^"]|"")+)"$/.exec(statement)?.[1]?.replaceAll('""', '"');
  if (table === undefined) return [statement];
  const indexes = (db.prepare('SELECT name FROM pragma_index_list(?)').all(table) as { name: string }[]).map((row) => row.name);
  return indexes.length === 0 ? [statement] : indexes.map((name) => `ANALYZE "main"."${name.replaceAll('"', '""')}"`);
}

/** Waits for the next turn of the event loop, after the I/O that arrived meanwhile. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
