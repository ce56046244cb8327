import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startJobs, type Job } from '../src/jobs/jobs';
import { silentLogger } from './support/fakes';

// The schedule begins a moment after the start (lib/after-start.ts), so that loading node-cron and
// ICU's date data does not hold the first requests. These tests run the real node-cron, with a
// short delay, on its every-second schedule.

function everySecond(): Job & { runs: number } {
  const job = { name: 'count', schedule: '* * * * * *', runs: 0, run: () => (job.runs += 1) };
  return job;
}

describe('startJobs', { timeout: 15_000 }, () => {
  it('runs nothing during the delay, then keeps each job to its schedule until stopped', async () => {
    const job = everySecond();
    const scheduler = startJobs([job], silentLogger, 1_300);
    // 1.15 s holds a second's turn, when a schedule begun at once would have run the job.
    await sleep(1_150);
    assert.equal(job.runs, 0, 'nothing runs before the delay is over');
    await sleep(2_500);
    assert.ok(job.runs >= 2, `an every-second job ran ${job.runs} times in the 2.35 s after the delay`);
    await scheduler.stop();
    const atStop = job.runs;
    await sleep(1_200);
    assert.equal(job.runs, atStop, 'a stopped schedule runs no more');
  });

  it('a stop during the delay means the schedule never begins', async () => {
    const job = everySecond();
    const scheduler = startJobs([job], silentLogger, 200);
    await scheduler.stop();
    await sleep(1_500);
    assert.equal(job.runs, 0);
  });
});
