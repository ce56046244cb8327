import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AppDeps } from '../deps';
import type { Db } from '../db/connection';
import { createRowQueue } from '../queue/row-queue';
import { importsRepo } from './repo';
import { checkpointAfterChunk, continueImport, failImport, openImport, type OpenImport } from './service';

// The server's import worker: runs started imports one after another, chunk by chunk, whether or
// not the browser that started one is still open. A row queue (queue/row-queue.ts) whose rows are
// the running imports and whose step is one chunk: the work reads the file (once per import, kept
// while it runs) and rests a turn of the event loop, so requests are served between chunks; the
// record writes the chunk in one transaction, with the rows' outcomes and the import's new
// position. Woken when an import starts and by its job every minute, which also picks up, after a
// restart, an import that was running: it goes on from the first row its last committed chunk did
// not write. No lease is needed: each chunk reads the position and moves it in its transaction, so
// a second worker (the CLI's import beside the server) could only take turns, every row once.

export interface ImportRunner {
  wake(): void;
  /** Lets the chunk in progress commit, then stops; the import goes on at the next start. */
  stop(): Promise<void>;
}

/** Imports started and not finished: the runner's backlog. */
export function importBacklog(db: Db): number {
  return importsRepo(db).runningIds().length;
}

const runners = new WeakMap<Db, ImportRunner>();

/** The one runner of this database connection (the console starts imports through it; main.ts stops it). */
export function importRunner(deps: Pick<AppDeps, 'db' | 'clock' | 'log' | 'config' | 'afterCommit' | 'onChange'>): ImportRunner {
  let runner = runners.get(deps.db);
  if (runner) return runner;
  /** The imports being run, read once each. */
  const opened = new Map<string, Promise<OpenImport | null>>();

  const queue = createRowQueue<string, OpenImport | null>(deps, {
    name: 'imports',
    concurrency: 1,
    // Unused (no lease, see above); the chunk's transaction is the claim.
    leaseMs: 0,
    key: (id) => id,
    claim({ working }) {
      const running = importsRepo(deps.db).runningIds();
      // An import that ended elsewhere (the CLI finished it, a card change stopped it) lets go of its file.
      for (const id of opened.keys()) if (!running.includes(id) && !working.includes(id)) opened.delete(id);
      return running.filter((id) => !working.includes(id)).slice(0, 1);
    },
    async work(id) {
      const loading = opened.get(id);
      if (!loading) {
        const open = openImport(deps.db, id);
        opened.set(id, open);
        return open;
      }
      await yieldToEventLoop();
      await checkpointAfterChunk(deps.db);
      return loading;
    },
    record(id, outcome) {
      let more = false;
      if (outcome.status === 'rejected') {
        failImport(deps, id);
        deps.log.error('import failed', { importId: id, err: outcome.reason });
      } else if (outcome.value) {
        try {
          more = continueImport(deps, outcome.value);
        } catch (err) {
          // continueImport stopped the import with its reason, which this savepoint keeps.
          deps.log.error('import failed', { importId: id, err });
        }
      }
      if (!more) opened.delete(id);
    },
    backlog: () => importBacklog(deps.db),
  });

  runner = {
    wake() {
      if (deps.db.open) queue.wake();
    },
    stop: () => queue.stop(),
  };
  runners.set(deps.db, runner);
  return runner;
}
