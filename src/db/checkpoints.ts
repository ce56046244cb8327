import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../lib/log';
import type { Db } from './open';

/**
 * WAL checkpoints on a thread of their own. By default SQLite checkpoints inside the commit that
 * pushes the WAL past 1000 pages: under load every few hundred writes one request copied ~4 MB into
 * the database file and waited for its fsync, with the event loop (every other request) waiting
 * too. The server's connection stops doing that (wal_autocheckpoint = 0); a worker thread with
 * its own connection runs a PASSIVE checkpoint every `intervalMs`, which never blocks a writer or
 * a reader. Commits still only append to the WAL, exactly as durable as before (synchronous
 * NORMAL: a process crash loses nothing); the WAL restarts from its beginning once a checkpoint has
 * copied it all, so it stays about as large as `intervalMs` of writes. If the thread fails, the
 * connection goes back to checkpointing itself.
 */
export interface WalCheckpointer {
  stop(): Promise<void>;
}

// Plain JavaScript (the bundle has no file to point a worker at): better-sqlite3 is loaded from
// the path the server itself resolved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// A checkpoint copies pages from the WAL to the database file; it needs no cache of its own.
db.pragma('cache_size = -256');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => checkpoint.all(), workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint.all();
  db.close();
  parentPort.close();
});
`;

export function startWalCheckpointer(db: Db, file: string, log: Logger, intervalMs = 100): WalCheckpointer {
  if (file === ':memory:') return { stop: async () => {} };
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // Its JavaScript is a timer and one statement: a small heap keeps the thread's memory small.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs },
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
  });
  db.pragma('wal_autocheckpoint = 0');
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', (err) => {
    log.error('database: the checkpoint thread failed; the server checkpoints on its own again', { err });
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  });
  // It never keeps the process alive by itself.
  worker.unref();
  return {
    async stop() {
      // Held again while it finishes: an unreferenced thread would let the process end (exit code
      // 13, a top-level await never settled) before the last checkpoint and the close.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
