import type { ScheduledTask } from 'node-cron';
import { afterStart, AFTER_START_MS } from '../lib/after-start';
import type { Logger } from '../lib/log';

/** One background job: a name for the logs, a cron schedule, and the work. */
export interface Job {
  name: string;
  schedule: string;
  /**
   * Whether a server start runs it once before keeping to the schedule, to catch up on what fell
   * due while it was down (the default). Not for upkeep that can wait for its hour: the start
   * would hold its first requests for it.
   */
  catchUpAtStart?: boolean;
  run(): unknown | Promise<unknown>;
}

/** Runs one job now; a failure is logged, never thrown, so one bad sweep never stops the server. */
export async function runJob(job: Job, log: Logger): Promise<void> {
  try {
    const result = await job.run();
    log.debug('job finished', { job: job.name, result });
  } catch (err) {
    log.error('job failed', { job: job.name, err });
  }
}

/**
 * Keeps the jobs to their schedules from `delayMs` on, not at once (lib/after-start.ts says why).
 * Nothing falls behind meanwhile: the start's catch-up run has just done what was due, and the most
 * frequent job runs once a second. stop() ends them, or the wait.
 */
export function startJobs(jobs: readonly Job[], log: Logger, delayMs = AFTER_START_MS): { stop(): Promise<void> } {
  let tasks: ScheduledTask[] = [];
  let stopped = false;
  const begin = async () => {
    const { default: cron } = await import('node-cron');
    if (stopped) return;
    tasks = jobs.map((job) => cron.schedule(job.schedule, () => runJob(job, log), { name: job.name, noOverlap: true }));
  };
  const wait = afterStart(() => void begin().catch((err: unknown) => log.error('the job schedule did not start', { err })), delayMs);
  return {
    async stop() {
      stopped = true;
      wait.cancel();
      await Promise.all(tasks.map((task) => task.stop()));
    },
  };
}
