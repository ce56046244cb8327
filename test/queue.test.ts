import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, type Db } from '../src/db/open';
import { createRowQueue, type QueueDefinition, type RowQueue } from '../src/queue/row-queue';
import { nextAttemptAt, retryDelay, type RetryPolicy } from '../src/queue/retry';
import { createFakeClock, silentLogger, type FakeClock } from './support/fakes';

// The row queue on a table of its own: what every queue (webhooks, mail, pass updates, imports)
// relies on, driven by the fake clock. Each test has a fresh database.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-queue-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Task {
  id: string;
  attempts: number;
}

interface TaskRow extends Task {
  status: 'pending' | 'done' | 'failed';
  nextAttemptAt: number | null;
  leaseUntil: number | null;
  error: string | null;
}

/** A fresh database with a queue table shaped like the real ones: status, attempts, due time, lease. */
function tasksDb(): Db {
  const db = openDatabase(path.join(dir, `${Math.random().toString(36).slice(2)}.db`));
  db.exec(`CREATE TABLE tasks (id TEXT PRIMARY KEY, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER, lease_until INTEGER, error TEXT)`);
  return db;
}

const add = (db: Db, id: string, dueAt: number) => db.prepare("INSERT INTO tasks (id, status, next_attempt_at) VALUES (?, 'pending', ?)").run(id, dueAt);
const row = (db: Db, id: string) =>
  db.prepare('SELECT id, status, attempts, next_attempt_at AS nextAttemptAt, lease_until AS leaseUntil, error FROM tasks WHERE id = ?').get(id) as TaskRow;

/** A definition over `tasks`, as a feature writes one: its claim and record are its repo's SQL. */
function tasksQueue(db: Db, clock: FakeClock, work: (task: Task, signal: AbortSignal) => Promise<void>, extra: Partial<QueueDefinition<Task, void>> & { policy?: RetryPolicy } = {}): RowQueue {
  const policy = extra.policy ?? { delaysMs: [1_000, 5_000] };
  return createRowQueue<Task, void>({ db, clock, log: silentLogger }, {
    name: 'tasks',
    concurrency: 2,
    leaseMs: 10_000,
    key: (t) => t.id,
    claim({ now, leaseUntil, limit, working }) {
      const due = db
        .prepare(
          `SELECT id, attempts FROM tasks WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
           AND id NOT IN (SELECT value FROM json_each(@working)) ORDER BY next_attempt_at, id LIMIT @limit`,
        )
        .all({ now, limit, working: JSON.stringify(working.map((t) => t.id)) }) as Task[];
      for (const t of due) db.prepare('UPDATE tasks SET lease_until = ? WHERE id = ?').run(leaseUntil, t.id);
      return due;
    },
    work,
    record(task, outcome, now) {
      const attempts = task.attempts + 1;
      const error = outcome.status === 'rejected' ? String((outcome.reason as Error).message) : null;
      const next = error === null ? null : nextAttemptAt(policy, attempts, now);
      const status = error === null ? 'done' : next === null ? 'failed' : 'pending';
      db.prepare('UPDATE tasks SET status = ?, attempts = ?, next_attempt_at = ?, lease_until = NULL, error = ? WHERE id = ?').run(status, attempts, next, error, task.id);
    },
    backlog: () => (db.prepare("SELECT count(*) AS n FROM tasks WHERE status = 'pending'").get() as { n: number }).n,
    ...extra,
  });
}

/** A promise the test settles by hand. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the row queue', () => {
  it('a row claimed by a worker that died is left alone while its lease lasts, and worked once it ends', async () => {
    const db = tasksDb();
    const clock = createFakeClock();
    add(db, 't1', clock.now());
    // The first worker claims the row and dies mid-work: its work never ends, nothing is recorded.
    const dead = tasksQueue(db, clock, () => new Promise<void>(() => {}));
    assert.equal(dead.sweep(), 1);
    assert.equal(row(db, 't1').leaseUntil, clock.now() + 10_000);

    const worked: string[] = [];
    const restarted = tasksQueue(db, clock, async (t) => void worked.push(t.id));
    assert.equal(restarted.sweep(), 0, 'under a live lease');
    clock.advance(9_999);
    assert.equal(restarted.sweep(), 0, 'one millisecond before the lease ends');
    clock.advance(1);
    assert.equal(restarted.sweep(), 1, 'the lease ended');
    await restarted.idle();
    assert.deepEqual(worked, ['t1']);
    assert.deepEqual([row(db, 't1').status, row(db, 't1').attempts, row(db, 't1').leaseUntil], ['done', 1, null]);
    await restarted.stop();
    db.close();
  });

  it('stop() takes no new work, waits for the work in flight and records its outcome before it resolves', async () => {
    const db = tasksDb();
    const clock = createFakeClock();
    add(db, 'mid', clock.now());
    const started = deferred();
    const release = deferred();
    let inTransaction: boolean | undefined;
    const queue = tasksQueue(db, clock, async () => {
      inTransaction = db.inTransaction;
      started.resolve();
      await release.promise;
    });
    queue.wake();
    await started.promise;
    assert.equal(inTransaction, false, 'the work runs outside any transaction');

    let stopped = false;
    const stopping = queue.stop(60_000).then(() => (stopped = true));
    add(db, 'late', clock.now());
    assert.equal(queue.sweep(), 0, 'a stopping queue claims nothing');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stopped, false, 'the stop waits for the work in flight');
    assert.equal(row(db, 'mid').status, 'pending');

    release.resolve(); // the work completes during the stop
    await stopping;
    assert.deepEqual([row(db, 'mid').status, row(db, 'mid').attempts, row(db, 'mid').leaseUntil], ['done', 1, null], 'recorded: a restart does not do it again');
    assert.deepEqual([row(db, 'late').status, row(db, 'late').attempts], ['pending', 0]);
    db.close();
  });

  it('past its grace, stop() aborts the work and records the interruption as a failed attempt with its retry', async () => {
    const db = tasksDb();
    const clock = createFakeClock();
    add(db, 'slow', clock.now());
    const started = deferred();
    const queue = tasksQueue(db, clock, (_task, signal) => {
      started.resolve();
      return new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('interrupted by the shutdown'))));
    });
    queue.wake();
    await started.promise;
    await queue.stop(10);
    const stopped = row(db, 'slow');
    assert.deepEqual([stopped.status, stopped.attempts, stopped.error, stopped.nextAttemptAt], ['pending', 1, 'interrupted by the shutdown', clock.now() + 1_000]);
    db.close();
  });

  it('a failing row is next due exactly at the policy’s delays, then given up', async () => {
    const db = tasksDb();
    const clock = createFakeClock();
    const start = clock.now();
    add(db, 'flaky', start);
    // p-retry's options: 1 s, 2 s, 4 s → capped at 3 s; three retries, then the row is given up.
    const policy: RetryPolicy = { retries: 3, minTimeout: 1_000, factor: 2, maxTimeout: 3_000 };
    let attempts = 0;
    const queue = tasksQueue(db, clock, async () => {
      attempts++;
      throw new Error(`refused ${attempts}`);
    }, { policy });

    assert.equal(await queue.drain(), 1);
    const expected = [1_000, 2_000, 3_000];
    for (const [i, wait] of expected.entries()) {
      const failedAt = clock.now();
      assert.equal(row(db, 'flaky').nextAttemptAt, failedAt + wait, `wait after attempt ${i + 1}`);
      clock.advance(wait - 1);
      assert.equal(await queue.drain(), 0, `attempt ${i + 2} not before it is due`);
      clock.advance(1);
      assert.equal(await queue.drain(), 1, `attempt ${i + 2} once it is due`);
    }
    assert.deepEqual([row(db, 'flaky').status, row(db, 'flaky').attempts, row(db, 'flaky').nextAttemptAt, row(db, 'flaky').error], ['failed', 4, null, 'refused 4']);
    assert.equal(clock.now() - start, 1_000 + 2_000 + 3_000);
    await queue.stop();
    db.close();
  });

  it('retry delays: a listed schedule one wait per retry; p-retry’s options as p-retry computes them', () => {
    const listed = { delaysMs: [60_000, 600_000, 3_600_000] };
    assert.deepEqual([1, 2, 3, 4].map((n) => retryDelay(listed, n)), [60_000, 600_000, 3_600_000, null]);
    const backoff = { retries: 11, minTimeout: 30_000, factor: 2, maxTimeout: 3_600_000 };
    assert.deepEqual([1, 2, 3, 4, 8, 11, 12].map((n) => retryDelay(backoff, n)), [30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, null]);
    assert.equal(nextAttemptAt(backoff, 1, 1_000), 31_000);
  });

  it('outcomes of one turn are recorded in one transaction; one that cannot be written fails alone and comes back after its lease', async () => {
    const db = tasksDb();
    const clock = createFakeClock();
    for (const id of ['a', 'b', 'c']) add(db, id, clock.now());
    // A second connection sees only what is committed: from inside the record of `c`, it tells
    // whether `a`'s outcome was committed on its own or waits in the same transaction.
    const reader = new Database(db.name, { readonly: true });
    let aSeenFromOutside: string | undefined;
    const queue = tasksQueue(db, clock, async () => {}, {
      concurrency: 3,
      record(task) {
        if (task.id === 'b') throw new Error('cannot be written');
        db.prepare("UPDATE tasks SET status = 'done', attempts = attempts + 1, lease_until = NULL WHERE id = ?").run(task.id);
        if (task.id === 'c') aSeenFromOutside = (reader.prepare('SELECT status FROM tasks WHERE id = ?').get('a') as { status: string }).status;
      },
    });
    assert.equal(queue.sweep(), 3);
    await queue.idle();
    assert.equal(aSeenFromOutside, 'pending', 'a, b and c are recorded in one transaction');
    reader.close();
    assert.deepEqual(['a', 'b', 'c'].map((id) => row(db, id).status), ['done', 'pending', 'done']);
    assert.equal(row(db, 'b').leaseUntil, clock.now() + 10_000, 'b keeps its lease');
    assert.equal(queue.sweep(), 0);
    clock.advance(10_000);
    assert.equal(queue.sweep(), 1, 'b is taken up again once its lease ends');
    await queue.stop();
    db.close();
  });

  it('works at most `concurrency` rows at once, the rest as slots free up; backlog counts what waits', async () => {
    const db = tasksDb();
    const clock = createFakeClock();
    for (let i = 0; i < 5; i++) add(db, `r${i}`, clock.now());
    add(db, 'later', clock.now() + 60_000);
    let running = 0;
    let most = 0;
    const queue = tasksQueue(db, clock, async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
    });
    assert.equal(queue.backlog(), 6);
    assert.equal(await queue.drain(), 5);
    assert.equal(most, 2);
    assert.equal(queue.backlog(), 1, 'the row due later still waits');
    await queue.stop();
    db.close();
  });
});
