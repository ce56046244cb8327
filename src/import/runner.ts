import type { AppDeps } from '../deps';
import type { Db } from '../db/connection';
import { importsRepo } from './repo';
import { runImport } from './service';

// The server's import worker: runs started imports one after another, chunk by chunk, whether or
// not the browser that started one is still open. Woken when an import starts and by its job
// every minute, which also picks up, after a restart, an import that was running: it goes on
// from the first row its last committed chunk did not write.

export interface ImportRunner {
  wake(): void;
  /** Lets the chunk in progress commit, then stops; the import goes on at the next start. */
  stop(): Promise<void>;
}

const runners = new WeakMap<Db, ImportRunner>();

/** The one runner of this database connection (the console starts imports through it; main.ts stops it). */
export function importRunner(deps: Pick<AppDeps, 'db' | 'clock' | 'log' | 'config' | 'afterCommit' | 'onChange'>): ImportRunner {
  let runner = runners.get(deps.db);
  if (runner) return runner;
  let loop: Promise<void> | null = null;
  let stopping = false;
  let again = false;
  // An import that failed (a bug, not a refused row) is not retried in a loop: it waits for the next start.
  const failed = new Set<string>();

  const drain = async () => {
    do {
      again = false;
      for (const id of importsRepo(deps.db).runningIds()) {
        if (stopping || !deps.db.open) return;
        if (failed.has(id)) continue;
        try {
          await runImport(deps, id, () => stopping);
        } catch (err) {
          failed.add(id);
          deps.log.error('import failed', { importId: id, err });
        }
      }
    } while (again && !stopping && deps.db.open);
  };

  runner = {
    wake() {
      if (stopping || !deps.db.open) return;
      if (loop) {
        again = true;
        return;
      }
      loop = drain().finally(() => (loop = null));
    },
    async stop() {
      stopping = true;
      await loop;
    },
  };
  runners.set(deps.db, runner);
  return runner;
}
