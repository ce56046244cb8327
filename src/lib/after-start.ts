/**
 * How long after a start the server begins the work it does not need for its first answers: the
 * job schedule (jobs/jobs.ts: node-cron and ICU's date data, 45-60 ms) and the WAL checkpoint
 * thread (db/checkpoints.ts: a worker thread boots its own Node, ~15 ms of the main thread and
 * ~40 ms of another core). Begun at once, each took CPU the first requests were waiting for
 * (issue 13's cold start).
 */
export const AFTER_START_MS = 1000;

/**
 * Runs `begin` `delayMs` from now, unless cancelled first. The wait never keeps the process
 * alive by itself.
 */
export function afterStart(begin: () => void, delayMs = AFTER_START_MS): { cancel(): void } {
  const wait = setTimeout(begin, delayMs).unref();
  return { cancel: () => clearTimeout(wait) };
}
