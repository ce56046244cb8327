import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { assertIntact, DatabaseFileError, sealDatabaseCopy } from '../db/file-check';

// SQLite's integrity_check reads every page of the file: seconds for a database of 100,000
// customers, during which the server would answer no request. It runs in a worker thread with its
// own read-only connection instead. The worker's code is given as a string (`eval`), so it runs the
// same from the sources (tsx) and from the one bundled script, where no module of ours exists as a
// file of its own; it loads better-sqlite3 from where this module resolves it.

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

const CHECK = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: 0 });
  const rows = db.pragma('integrity_check');
  parentPort.postMessage({ first: rows[0] && rows[0].integrity_check, count: rows.length });
} catch (err) {
  parentPort.postMessage({ error: String((err && err.message) || err) });
} finally {
  if (db) db.close();
}
`;

/** integrity_check of `file` on another thread: its first answer and how many lines it gave. */
export function integrityCheckOffThread(file: string): Promise<{ first: string | undefined; count: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CHECK, { eval: true, workerData: { driver, file } });
    let answer: { first?: string; count?: number; error?: string } | undefined;
    worker.once('message', (message: typeof answer) => (answer = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answer?.error !== undefined) reject(new DatabaseFileError(`fails SQLite's integrity check (${answer.error})`));
      else if (answer) resolve({ first: answer.first, count: answer.count ?? 0 });
      else reject(new Error(`the integrity check's thread ended (code ${code}) without an answer`));
    });
  });
}

/**
 * sealDatabaseCopy with the integrity check on another thread: the copy is first made one
 * self-contained file (the quick part, here), then checked whole (there).
 */
export async function sealDatabaseCopyOffThread(file: string): Promise<{ schemaVersion: number }> {
  const sealed = sealDatabaseCopy(file, { integrity: 'elsewhere' });
  assertIntact(await integrityCheckOffThread(file));
  return sealed;
}
