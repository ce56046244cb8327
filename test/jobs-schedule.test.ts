import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import cron from 'node-cron';
import { runJob, startJobs, type Job } from '../src/jobs/jobs';
import { serverJobs } from '../src/jobs/list';
import { NO_WORKERS, startTestApp } from './support/app';
import { silentLogger } from './support/fakes';

// The schedule is node-cron's; what is ours is the list of jobs and that a failing job is logged,
// never thrown. No test here waits for the wall clock.

describe('the server jobs', () => {
  it('each has a unique name and a schedule node-cron accepts', async () => {
    const app = await startTestApp();
    try {
      const jobs = serverJobs(app.deps, NO_WORKERS);
      assert.ok(jobs.length >= 7);
      assert.equal(new Set(jobs.map((j) => j.name)).size, jobs.length);
      for (const job of jobs) assert.ok(cron.validate(job.schedule), `${job.name}: ${job.schedule}`);
      const scheduler = startJobs(jobs, silentLogger);
      await scheduler.stop();
    } finally {
      await app.close();
    }
  });

  it('a job that fails is logged and does not throw', async () => {
    const errors: unknown[] = [];
    const log = { ...silentLogger, error: (msg: string, fields?: Record<string, unknown>) => errors.push({ msg, fields }) };
    const failing: Job = { name: 'broken', schedule: '* * * * *', run: () => Promise.reject(new Error('boom')) };
    await runJob(failing, log);
    assert.equal(errors.length, 1);
    assert.match(JSON.stringify(errors[0]), /broken/);
  });
});
