import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterStart, AFTER_START_MS } from '../lib/after-start';
import type { Logger } from '../lib/log';
import type { Db } from './open';

/**
 * WAL checkpoints on a thread of their own. By default SQLite checkpoints inside the commit that
 * pushes the WAL past 1000 pages: under load every few hundred writes one request copied ~4 MB into
 * the database file and waited for its fsync, with the event loop (every other request) waiting
 * too. The server's connection stops doing that (wal_autocheckpoint = 0); a worker thread with
 * its own connection runs a PASSIVE checkpoint every `intervalMs`, which never blocks a writer or
 * a reader. Commits still only append to the WAL, exactly as durable as before (synchronous
 * NORMAL: a process crash loses nothing). If the thread fails, the connection goes back to
 * checkpointing itself.
 *
 * The WAL starts again from its beginning only at a write that finds it wholly copied. Under a
 * steady write load that never happens (a PASSIVE checkpoint never catches up with writes that keep
 * coming): the file grew by ~100 MB a second of earns, without bound. So once it holds more than
 * `restartPages` and the thread's checkpoint copied all it found, the thread asks the server's
 * connection to copy the last frames itself, between two of its transactions (a PASSIVE
 * checkpoint there, mostly its two fsyncs); its next write starts the WAL over, and
 * journal_size_limit cuts the file back to that size.
 *
 * The thread used to run a RESTART checkpoint for this, which holds the write lock while it copies
 * and syncs. The server's connection then slept in SQLite's busy handler, whose waits grow 1, 2,
 * 5, 10 … 50 ms, often well past the lock's release: under the earn load of issue 13's bench the
 * event loop slept 370 to 430 ms in 9 s (perf trace of its clock_nanosleep calls), up to 180 ms
 * at a time. Now it never sleeps there; it copies for 17 to 27 ms about once a second at that load.
 */
export interface WalCheckpointer {
  /** Whether the thread keeps the WAL bounded now: begun, and neither failed nor stopped. */
  running(): boolean;
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
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// Asked the server's connection to catch up and start the WAL over; no checkpoint until it answers.
let asked = false;
const timer = setInterval(() => {
  if (asked) return;
  const [{ busy, log, checkpointed }] = passive.all();
  // All it found is copied (no reader holds older frames): what the writer appended meanwhile is
  // all that stands between the WAL and a restart.
  if (log > workerData.restartPages && busy === 0 && checkpointed === log) {
    asked = true;
    parentPort.postMessage('catch-up');
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'caught-up') {
    asked = false;
    return;
  }
  clearInterval(timer);
  passive.all();
  db.close();
  parentPort.close();
});
`;

/** 16,384 pages (of 4 KiB, SQLite's default): 64 MiB of WAL, a fraction of a second of writes at full load. */
const RESTART_PAGES = 16_384;

export interface CheckpointerOptions {
  /** How often the thread runs a PASSIVE checkpoint. */
  intervalMs?: number;
  /** The WAL's size, in pages, past which the server's connection is asked to catch up so the WAL starts over. */
  restartPages?: number;
  /** How long after the start the thread begins (lib/after-start.ts). */
  delayMs?: number;
}

/**
 * The checkpoint thread, begun `delayMs` from now. Until then the connection checkpoints on its own
 * (SQLite's default, as when the thread fails): a start's first second writes little.
 */
export function startWalCheckpointer(db: Db, file: string, log: Logger, options: CheckpointerOptions = {}): WalCheckpointer {
  if (file === ':memory:') return { running: () => false, stop: async () => {} };
  const { intervalMs = 100, restartPages = RESTART_PAGES, delayMs = AFTER_START_MS } = options;
  let thread: WalCheckpointer | undefined;
  const wait = afterStart(() => {
    if (!db.open) return;
    try {
      thread = startThread(db, file, log, intervalMs, restartPages);
    } catch (err) {
      log.error('database: the checkpoint thread did not start; the server checkpoints on its own', { err });
    }
  }, delayMs);
  return {
    running: () => thread?.running() ?? false,
    async stop() {
      wait.cancel();
      await thread?.stop();
    },
  };
}

function startThread(db: Db, file: string, log: Logger, intervalMs: number, restartPages: number): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // Its JavaScript is a timer and one statement: a small heap keeps the thread's memory small.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs, restartPages },
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
  });
  db.pragma('wal_autocheckpoint = 0');
  // The writer that starts the WAL over truncates the file to this size (bytes).
  db.pragma(`journal_size_limit = ${restartPages * (db.pragma('page_size', { simple: true }) as number)}`);
  worker.on('message', (message) => {
    if (message !== 'catch-up' || !db.open) return;
    try {
      // Outside any transaction of the connection: an open batch of requests commits first
      // (db/write-batch.ts), so this copies every frame there is.
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (err) {
      log.warn('database: the WAL checkpoint on the server connection failed; the thread asks again', { err });
    }
    worker.postMessage('caught-up');
  });
  let running = true;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  worker.once('error', (err) => {
    running = false;
    log.error('database: the checkpoint thread failed; the server checkpoints on its own again', { err });
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  });
  // It never keeps the process alive by itself.
  worker.unref();
  return {
    running: () => running,
    async stop() {
      // Held again while it finishes: an unreferenced thread would let the process end (exit code
      // 13, a top-level await never settled) before the last checkpoint and the close.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
