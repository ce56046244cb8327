import type { Db } from './connection';

/**
 * Hourly upkeep: `PRAGMA optimize` refreshes the query planner's statistics where SQLite finds
 * them stale (sampling each index rather than reading all of it). Checkpoints are not done here:
 * SQLite's passive autocheckpoint keeps the WAL in bounds, and under Litestream it is Litestream
 * that checkpoints; a TRUNCATE or RESTART of ours would make it start a new generation.
 */
export function optimizeDatabase(db: Db): void {
  db.pragma('analysis_limit = 1000');
  db.pragma('optimize');
}
