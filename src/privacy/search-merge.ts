import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkpoint } from '../db/checkpoints';
import type { Db } from '../db/connection';
import type { Logger } from '../lib/log';
import { eraseRepo } from './erase-repo';

// After an erasure the search index still holds the erased customer's words: FTS5 marks a deleted
// row (contentless_delete) and drops its words only when the segments holding them are merged. One
// 'optimize' merges everything at once, holding the server for most of a second at 100,000
// customers (a 40 MB index). Instead the index is merged a few pages at a time, each step its own
// short write in its own turn of the event loop, until a step finds nothing left to merge: then the
// index is one segment, without the deleted rows' words, and secure_delete has zeroed the pages it
// freed. It takes a second or two after the erasure's answer; requests are served between steps.

/** Pages of merged index one step writes: a few milliseconds of work. */
const PAGES_PER_STEP = 8;

const running = new WeakMap<Db, Promise<void>>();
/** When each database's index was last merged whole (this process); an erasure after it needs a merge. */
const mergedAt = new WeakMap<Db, number>();

export interface SearchMergeDeps {
  db: Db;
  log: Logger;
  clock: { now(): number };
}

/**
 * Merges the search index in steps until no deleted row's words remain; resolves when done (or
 * when the database closed meanwhile). One merge at a time per database: a call while one runs
 * joins it, and that run goes on until a step finds nothing, so it covers the later erasure too.
 */
export function mergeSearchIndex(deps: SearchMergeDeps): Promise<void> {
  const current = running.get(deps.db);
  if (current) return current;
  const run = mergeInSteps(deps);
  running.set(deps.db, run);
  return run;
}

async function mergeInSteps(deps: SearchMergeDeps): Promise<void> {
  const started = performance.now();
  const startedAt = deps.clock.now();
  const repo = eraseRepo(deps.db);
  let steps = 0;
  // The longest turn of the event loop a step took, for the log.
  let longestStep = 0;
  const timedStep = () => {
    const t = performance.now();
    try {
      return repo.mergeSearchStep(PAGES_PER_STEP);
    } finally {
      longestStep = Math.max(longestStep, performance.now() - t);
    }
  };
  const tenths = (ms: number) => Math.round(ms * 10) / 10;
  try {
    while (deps.db.open) {
      steps++;
      if (!timedStep()) {
        mergedAt.set(deps.db, startedAt);
        deps.log.info('search index merged', { steps, ms: Math.round(performance.now() - started), longestStepMs: tenths(longestStep) });
        return;
      }
      await nextTurn();
      if (!deps.db.open) return;
      // A merge writes pages as fast as an import does: left to the autocheckpoint, one step's
      // commit would copy 4 MB into the file and sync it. A checkpoint after each step copies only
      // that step's pages, off the event loop (db/checkpoints.ts).
      await checkpoint(deps.db);
    }
  } catch (err) {
    deps.log.error('search index merge failed; the next start or the nightly run merges it', { err, steps });
  } finally {
    running.delete(deps.db);
  }
}

/** A merge that is running, or none: for a shutdown or a test that must wait for it. */
export function searchMergeIdle(db: Db): Promise<void> {
  return running.get(db) ?? Promise.resolve();
}

/** How far back a start looks for an erasure whose merge a stop may have cut short. */
const AT_START_LOOK_BACK_MS = 7 * 86_400_000;

/**
 * Whether the index needs a merge: an erasure newer than the last whole merge of this process (one
 * cut short by a stop, a crash or an error). A process that has not merged yet (a start) counts any
 * erasure of the last 7 days: a stop within a second or two of an erasure is followed by a start.
 */
export function searchMergeDue(latestErasureAt: number | null, lastMergeStartedAt: number | undefined, now: number): boolean {
  if (latestErasureAt === null) return false;
  // A merge starts after the erasure that asked for it committed: one at the same instant is covered.
  return lastMergeStartedAt === undefined ? latestErasureAt >= now - AT_START_LOOK_BACK_MS : latestErasureAt > lastMergeStartedAt;
}

/** The job: merges when searchMergeDue says so (at start, and nightly after a merge that failed). */
export function mergeSearchIndexIfErased(deps: SearchMergeDeps): 'merging' | 'nothing erased since the last merge' {
  if (!searchMergeDue(eraseRepo(deps.db).latestErasureAt(), mergedAt.get(deps.db), deps.clock.now())) return 'nothing erased since the last merge';
  void mergeSearchIndex(deps);
  return 'merging';
}
