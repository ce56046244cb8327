import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// The background thread's side of the WAL checkpoints (db/checkpoints.ts says why they run there).

export interface CheckpointLoopOptions {
  /** better-sqlite3's entry file, as the server resolved it: the thread's code is not beside node_modules. */
  driver: string;
  file: string;
  /** How often a PASSIVE checkpoint runs. */
  intervalMs: number;
  /** The WAL's size, in pages, past which a RESTART one runs. */
  restartPages: number;
}

/** Opens a connection of its own and checkpoints every `intervalMs` until stopped. */
export function runCheckpointLoop(options: CheckpointLoopOptions): { stop(): void } {
  const Database = createRequire(options.driver)(options.driver) as typeof BetterSqlite3;
  const db = new Database(options.file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // A checkpoint copies pages from the WAL to the database file; it needs no cache of its own.
  db.pragma('cache_size = -256');
  const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
  const timer = setInterval(() => {
    const [{ log }] = passive.all() as [{ log: number }];
    if (log > options.restartPages) restart.all();
  }, options.intervalMs);
  return {
    stop() {
      clearInterval(timer);
      passive.all();
      db.close();
    },
  };
}
