import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './connection';

// A passive checkpoint copies the WAL's pages into the database file and syncs both files: a few
// milliseconds on a quiet disk, and hundreds on a busy SD card, during which the thread that runs
// it does nothing else. The work that writes pages in bulk (an import, the search index's merge
// after an erasure, the loyalty sweeps) checkpoints between its chunks, so that no chunk's commit
// finds 1,000 pages waiting and makes SQLite's autocheckpoint copy them inside the event loop. In
// the server those checkpoints run on a thread of their own, with its own connection: the event
// loop only waits for a message. SQLite's autocheckpoint stays as it is for everything else, and
// the checkpoint is passive: it never waits for a reader (or Litestream's hold) and
// stops where they are. Elsewhere (the CLI, tests) the checkpoint runs on the calling thread.

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 5000 });
db.pragma('synchronous = NORMAL');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ id: message, pages: row.log });
  } catch (err) {
    parentPort.postMessage({ id: message, error: String((err && err.message) || err) });
  }
});
`;

/** A thread stops after this long without a checkpoint to do: most days an import or a sweep is rare. */
const IDLE_MS = 60_000;

interface CheckpointThread {
  checkpoint(): Promise<number | null>;
  close(): Promise<void>;
}

const threads = new WeakMap<Db, CheckpointThread>();

/**
 * From now on, checkpoint(db) runs on a thread of its own (started at the first one, stopped when
 * idle). Returns what closes it: call it before closing `db`.
 */
export function checkpointOffThread(db: Db, log: { warn(msg: string, fields?: Record<string, unknown>): void }): () => Promise<void> {
  let worker: Worker | null = null;
  let idle: NodeJS.Timeout | undefined;
  let next = 0;
  const waiting = new Map<number, (pages: number | null) => void>();
  const settleAll = () => {
    for (const done of waiting.values()) done(null);
    waiting.clear();
  };
  const stop = (w: Worker) =>
    new Promise<void>((resolve) => {
      w.once('exit', () => resolve());
      w.postMessage('close');
    });
  const start = () => {
    const w = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file: db.name } });
    w.on('message', (m: { id: number; pages?: number; error?: string }) => {
      if (m.error !== undefined) log.warn('checkpoint failed; SQLite checkpoints at its next commit instead', { error: m.error });
      waiting.get(m.id)?.(m.pages ?? null);
      waiting.delete(m.id);
    });
    w.on('error', (err) => log.warn('the checkpoint thread failed; the next checkpoint starts another', { err }));
    w.on('exit', () => {
      if (worker === w) worker = null;
      settleAll();
    });
    return w;
  };
  const thread: CheckpointThread = {
    checkpoint() {
      clearTimeout(idle);
      worker ??= start();
      const w = worker;
      idle = setTimeout(() => {
        if (worker === w && waiting.size === 0) {
          worker = null;
          void stop(w);
        }
      }, IDLE_MS);
      idle.unref();
      const id = next++;
      return new Promise<number | null>((resolve) => {
        waiting.set(id, resolve);
        w.postMessage(id);
      });
    },
    async close() {
      clearTimeout(idle);
      threads.delete(db);
      const w = worker;
      worker = null;
      if (w) await stop(w);
    },
  };
  threads.set(db, thread);
  return () => thread.close();
}

/**
 * A passive checkpoint of `db`, outside any transaction: on the checkpoint thread when one was set
 * up for it (the server), else here. Resolves with the pages the WAL held, once it is done; null
 * when it could not be done (logged there): that is only left to SQLite's autocheckpoint.
 */
export async function checkpoint(db: Db): Promise<number | null> {
  if (!db.open) return null;
  const thread = threads.get(db);
  if (thread) return thread.checkpoint();
  const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  return row?.log ?? null;
}
