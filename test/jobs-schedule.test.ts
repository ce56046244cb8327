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

  it('a tick missed while the process was busy is a debug line of our log, never a console warning', async () => {
    const debug: string[] = [];
    const warned: unknown[] = [];
    const consoleWarn = console.warn;
    // Whichever way node-cron reports the missed ticks, the wait ends (the console's way fails below).
    let missed!: () => void;
    const seen = new Promise<void>((resolve) => (missed = resolve));
    console.warn = (...args: unknown[]) => {
      warned.push(args);
      missed();
    };
    const log = {
      ...silentLogger,
      debug: (msg: string) => {
        debug.push(msg);
        if (/missed execution/.test(msg)) missed();
      },
    };
    const scheduler = startJobs([{ name: 'every-second', schedule: '* * * * * *', run: () => undefined }], log);
    try {
      // Hold the event loop past several ticks, as a long synchronous task would.
      const until = Date.now() + 3_500;
      while (Date.now() < until);
      await seen;
    } finally {
      await scheduler.stop();
      console.warn = consoleWarn;
    }
    assert.deepEqual(warned, []);
    assert.ok(debug.some((m) => /^node-cron: missed execution/.test(m)), debug.join('\n'));
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
