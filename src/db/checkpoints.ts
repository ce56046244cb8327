import type { Db } from './open';

/**
 * WAL checkpoints on a thread of their own (background/start.ts starts it; db/checkpoint-loop.ts
 * is its side). By default SQLite checkpoints inside the commit that pushes the WAL past 1000
 * pages: under load every few hundred writes one request copied ~4 MB into the database file and
 * waited for its fsync, with the event loop (every other request) waiting too. The server's
 * connection stops doing that (wal_autocheckpoint = 0); the thread, with its own connection, runs a
 * PASSIVE checkpoint every `intervalMs`, which never blocks a writer or a reader. Commits still
 * only append to the WAL, exactly as durable as before (synchronous NORMAL: a process crash loses
 * nothing). If the thread fails, the connection goes back to checkpointing itself.
 *
 * The WAL starts again from its beginning only when a write finds it wholly copied. Under a steady
 * write load that never happens (a PASSIVE checkpoint never catches up with writes that keep
 * coming): the file grew by ~100 MB a second of earns, without bound. So once it holds more than
 * `restartPages`, the thread runs a RESTART checkpoint: it waits for the write in progress, copies
 * what the last PASSIVE one left (a few ms of writes) while writers wait, and the next write starts
 * the WAL over. journal_size_limit then cuts the file back to that size.
 */
export interface CheckpointOptions {
  /** How often the thread runs a PASSIVE checkpoint. */
  intervalMs: number;
  /** The WAL's size, in pages, past which it runs a RESTART one. */
  restartPages: number;
}

export const DEFAULT_CHECKPOINTS: CheckpointOptions = {
  intervalMs: 100,
  /** 16,384 pages (of 4 KiB, SQLite's default): 64 MiB of WAL, a fraction of a second of writes at full load. */
  restartPages: 16_384,
};

/** The thread checkpoints from now on: the connection no longer does. */
export function handOverCheckpoints(db: Db, restartPages: number): void {
  db.pragma('wal_autocheckpoint = 0');
  // The writer that starts the WAL over truncates the file to this size (bytes).
  db.pragma(`journal_size_limit = ${restartPages * (db.pragma('page_size', { simple: true }) as number)}`);
}

/** The thread is gone: the connection checkpoints on its own again (SQLite's default). */
export function takeBackCheckpoints(db: Db): void {
  if (db.open) db.pragma('wal_autocheckpoint = 1000');
}
