import cron from 'node-cron';
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

/** Keeps the jobs to their schedules until stop() ends them. */
export function startJobs(jobs: readonly Job[], log: Logger): { stop(): Promise<void> } {
  const tasks = jobs.map((job) => cron.schedule(job.schedule, () => runJob(job, log), { name: job.name, noOverlap: true, logger: cronLogger(log, job.name) }));
  return {
    async stop() {
      await Promise.all(tasks.map((task) => task.stop()));
    },
  };
}

/**
 * node-cron's own messages, in our log instead of on the console. Its warnings are a tick missed
 * while the process was busy, or a tick skipped because the job's last run had not ended: both
 * harmless, since every job catches up on what fell due at its next run, so they are debug lines
 * and never alarm an operator of a loaded machine. Its errors stay errors.
 */
function cronLogger(log: Logger, job: string) {
  const text = (message: string | Error) => (message instanceof Error ? message.message : message);
  return {
    info: (message: string) => log.debug(`node-cron: ${message}`, { job }),
    warn: (message: string) => log.debug(`node-cron: ${message}`, { job }),
    debug: (message: string | Error) => log.debug(`node-cron: ${text(message)}`, { job }),
    error: (message: string | Error, err?: Error) => log.error(`node-cron: ${text(message)}`, { job, err: err ?? message }),
  };
}
