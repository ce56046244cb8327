import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PAGE_CACHE_SIZE } from '../db/connection';
import { assertIntact, DatabaseFileError, sealDatabaseCopy } from '../db/file-check';

// A backup of a shop of 100,000 customers copies and reads about 100 MB: seconds during which the
// server would answer no request. Both run in a worker thread with its own connections instead:
// `VACUUM INTO` from a read-only connection to the live database (one consistent snapshot, taken
// while the server goes on writing, and no freed pages that could still hold an erased customer),
// then SQLite's integrity_check of the copy. The worker's code is given as a string (`eval`), so it
// runs the same from the sources (tsx) and from the one bundled script, where no module of ours
// exists as a file of its own; it loads better-sqlite3 from where this module resolves it.

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

const WORK = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// The copy and the check read each page about once: the small page cache of every connection of ours.
const open = (file, options) => {
  const db = new Database(file, options);
  db.pragma('cache_size = ' + Number(workerData.cacheSize));
  return db;
};
let db;
let step = 'copy';
try {
  if (workerData.source) {
    db = open(workerData.source, { readonly: true, fileMustExist: true, timeout: 5000 });
    db.prepare('VACUUM INTO ?').run(workerData.file);
    db.close();
  }
  step = 'check';
  db = open(workerData.file, { readonly: true, fileMustExist: true, timeout: 0 });
  const rows = db.pragma('integrity_check');
  parentPort.postMessage({ first: rows[0] && rows[0].integrity_check, count: rows.length, cacheSize: db.pragma('cache_size', { simple: true }) });
} catch (err) {
  parentPort.postMessage({ step, error: String((err && err.message) || err) });
} finally {
  if (db && db.open) db.close();
}
`;

/**
 * On another thread: `source` copied into `file` (when given), then integrity_check of `file`: its
 * first answer, how many lines it gave, and the page cache (PRAGMA cache_size) it ran with.
 */
function offThread(workerData: { source?: string; file: string }): Promise<{ first: string | undefined; count: number; cacheSize: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORK, { eval: true, workerData: { driver, cacheSize: PAGE_CACHE_SIZE, ...workerData } });
    let answer: { first?: string; count?: number; cacheSize?: number; step?: string; error?: string } | undefined;
    worker.once('message', (message: typeof answer) => (answer = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answer?.step === 'copy') reject(new Error(`could not copy the database (${answer.error})`));
      else if (answer?.error !== undefined) reject(new DatabaseFileError(`fails SQLite's integrity check (${answer.error})`));
      else if (answer) resolve({ first: answer.first, count: answer.count ?? 0, cacheSize: answer.cacheSize ?? 0 });
      else reject(new Error(`the backup's thread ended (code ${code}) without an answer`));
    });
  });
}

/** integrity_check of `file` on another thread: its first answer, how many lines it gave, the page cache it ran with. */
export const integrityCheckOffThread = (file: string) => offThread({ file });

/**
 * A consistent copy of the database file `source` at `file` (an empty file, or none), made and
 * checked whole on another thread, then sealed here (schema version, one self-contained file).
 */
export async function copyDatabaseOffThread(source: string, file: string): Promise<{ schemaVersion: number }> {
  assertIntact(await offThread({ source, file }));
  return sealDatabaseCopy(file, { integrity: 'elsewhere' });
}
