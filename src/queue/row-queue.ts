import { setMaxListeners } from 'node:events';
import type { Db } from '../db/connection';
import { inTransaction } from '../db/transaction';
import type { Clock } from '../lib/clock';
import { InFlightList } from '../lib/in-flight-list';
import type { Logger } from '../lib/log';

// The one loop behind every background queue (webhook deliveries, emails, wallet pass updates, the
// import runner). The rows in the database are the queue: a row is claimed with a lease in a short
// transaction, worked outside any transaction (the network, a file), and its outcome recorded in
// another short transaction, with the next attempt's time when it failed (queue/retry.ts). Nothing
// lives only in memory: after a crash, a row whose lease ran out is claimed again by the next sweep.
// What to claim, what the work is and how an outcome is written belong to the feature, passed in
// as a QueueDefinition; its SQL stays in the feature's repo.

export interface QueueDeps {
  db: Db;
  clock: Clock;
  log: Logger;
}

export interface QueueDefinition<Row, Result> {
  /** Names the queue in the log. */
  name: string;
  /** Rows worked at once. */
  concurrency: number;
  /** How long a claim holds its rows: longer than the work can take, so that it only runs out when the worker died. */
  leaseMs: number;
  /** How long stop() waits for the work in flight before it aborts it (and as long again for the aborted work to end). */
  stopGraceMs?: number;
  /** The row's identity: a row is never worked twice at once by one queue. */
  key(row: Row): string;
  /**
   * Up to `limit` due rows, none of `working` (the rows this queue has in flight), each leased until
   * `leaseUntil`. Runs inside the queue's transaction.
   */
  claim(input: { now: number; leaseUntil: number; limit: number; working: readonly Row[] }): Row[];
  /** Optional, before a sweep's transaction: false when the rows in flight leave no room for more (the claim is skipped). */
  hasRoom?(working: readonly Row[]): boolean;
  /** The work, outside any transaction. `signal` aborts when a stop's grace is over. */
  work(row: Row, signal: AbortSignal): Promise<Result>;
  /**
   * Writes the work's outcome (a rejection included) and, for a failure, the row's next attempt.
   * Runs inside the queue's transaction, in a savepoint of its own: a throw undoes this row's
   * writes only, and its lease brings it back.
   */
  record(row: Row, outcome: PromiseSettledResult<Result>, now: number): void;
  /** Rows waiting to be worked, due now or later. */
  backlog(): number;
  /** Runs once the stop is over: close connections. */
  close?(): void | Promise<void>;
}

export interface RowQueue {
  /** Rows were committed: claim what is due now (coalesced; never inside the caller's transaction). */
  wake(): void;
  /** Claims every due row there is room for and starts its work; returns how many started. */
  sweep(): number;
  /** Sweeps until nothing is due and nothing is in flight; resolves with how many outcomes were recorded meanwhile. */
  drain(): Promise<number>;
  /** Whether work is in flight, waits to be recorded, or a wake-up is pending. */
  busy(): boolean;
  /** Resolves once the queue is not busy. */
  idle(): Promise<void>;
  /**
   * Takes no new work; waits up to `graceMs` for the work in flight, then aborts it; records every
   * outcome that arrives before it resolves, so what was done is never done again after a restart.
   */
  stop(graceMs?: number): Promise<void>;
  /** Rows waiting to be worked (the definition's count). */
  backlog(): number;
}

interface InFlight<Row> {
  key: string;
  row: Row;
  /** Settles once the outcome was recorded (or could not be). */
  done: Promise<void>;
}

interface Finished<Row, Result> {
  key: string;
  row: Row;
  outcome: PromiseSettledResult<Result>;
  recorded: () => void;
}

export function createRowQueue<Row, Result>(deps: QueueDeps, def: QueueDefinition<Row, Result>): RowQueue {
  const { db, clock, log } = deps;
  const inFlight = new InFlightList<InFlight<Row>>();
  const entryOf = (key: string) => inFlight.find((entry) => entry.key === key);
  const release = (key: string) => {
    const entry = entryOf(key);
    if (entry) inFlight.delete(entry);
  };
  const shutdown = new AbortController();
  // Every piece of work in flight may listen on this one signal: that many listeners is the design,
  // not a leak, so Node's default of 10 must not print a "possible memory leak" warning.
  setMaxListeners(def.concurrency + 1, shutdown.signal);
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  let wakeup = false;
  let finished: Finished<Row, Result>[] = [];
  let idleWaiters: (() => void)[] = [];
  let stopping: Promise<void> | null = null;
  let recordedCount = 0;

  const busy = () => inFlight.size > 0 || wakeup || finished.length > 0;
  const working = () => [...inFlight].map((entry) => entry.row);

  function notifyIfIdle() {
    if (busy()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Inside a transaction: due rows for the free slots, leased. */
  function claimRows(now: number): Row[] {
    const limit = def.concurrency - inFlight.size;
    if (limit <= 0) return [];
    const rows = def.claim({ now, leaseUntil: now + def.leaseMs, limit, working: working() });
    return rows.filter((row) => !entryOf(def.key(row)));
  }

  function sweep(): number {
    if (state !== 'running' || inFlight.size >= def.concurrency) return 0;
    if (def.hasRoom && !def.hasRoom(working())) return 0;
    let claimed: Row[];
    try {
      claimed = inTransaction(db, () => claimRows(clock.now()));
    } catch (err) {
      log.error(`${def.name}: claiming due rows failed`, { err });
      return 0;
    }
    for (const row of claimed) start(row);
    return claimed.length;
  }

  function start(row: Row) {
    const key = def.key(row);
    const done = (async () => def.work(row, shutdown.signal))()
      .then(
        (value): PromiseSettledResult<Result> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<Result> => ({ status: 'rejected', reason }),
      )
      .then((outcome) => new Promise<void>((recorded) => recordSoon({ key, row, outcome, recorded })));
    inFlight.add({ key, row, done });
  }

  // Outcomes wait here for the next turn of the event loop. Then ONE transaction records them all
  // (each in a savepoint) and claims the rows that take their slots: through a backlog, a row costs
  // a share of one commit instead of a commit to claim it and one to record it.
  function recordSoon(entry: Finished<Row, Result>) {
    if (finished.length === 0) setImmediate(flush);
    finished.push(entry);
  }

  function flush() {
    const batch = finished;
    finished = [];
    if (state === 'stopped') {
      // The stop is over and the database may be closed: the leases bring these rows back.
      log.warn(`${def.name}: work ended after the stop; its rows are taken up again once their leases end`, { rows: batch.map((f) => f.key) });
      for (const f of batch) release(f.key);
      for (const f of batch) f.recorded();
      return;
    }
    const unrecorded = new Set<string>();
    let claimed: Row[] = [];
    try {
      claimed = inTransaction(db, () => {
        const now = clock.now();
        for (const f of batch) {
          try {
            inTransaction(db, () => def.record(f.row, f.outcome, now));
          } catch (err) {
            unrecorded.add(f.key);
            log.error(`${def.name}: an outcome could not be recorded; the row is taken up again once its lease ends`, { row: f.key, err });
          }
        }
        // A recorded row's slot is free for the claim; one that could not be recorded stays out of it.
        for (const f of batch) if (!unrecorded.has(f.key)) release(f.key);
        return state === 'running' ? claimRows(now) : [];
      });
      recordedCount += batch.length - unrecorded.size;
    } catch (err) {
      log.error(`${def.name}: outcomes could not be recorded; their rows are taken up again once their leases end`, { rows: batch.map((f) => f.key), err });
    }
    for (const f of batch) release(f.key);
    for (const f of batch) f.recorded();
    for (const row of claimed) start(row);
    notifyIfIdle();
  }

  /** Whether everything in flight settled (was recorded) within `ms`. */
  async function settledWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const all = Promise.allSettled([...inFlight].map((entry) => entry.done)).then(() => true as const);
    const result = await Promise.race([all, late]);
    clearTimeout(timer);
    return result;
  }

  async function idle(): Promise<void> {
    // A commit queues its wake-up as a microtask; let any such wake-up land first.
    await Promise.resolve();
    if (!busy()) return;
    await new Promise<void>((resolve) => idleWaiters.push(resolve));
  }

  return {
    // Coalesced into one sweep after the code that woke it, in the same turn of the event loop:
    // the wake-up already comes after the commit (db/after-commit.ts).
    wake() {
      if (state !== 'running' || wakeup) return;
      wakeup = true;
      queueMicrotask(() => {
        wakeup = false;
        sweep();
        notifyIfIdle();
      });
    },
    sweep,
    async drain() {
      const before = recordedCount;
      for (;;) {
        const started = sweep();
        if (started === 0 && !busy()) return recordedCount - before;
        await idle();
      }
    },
    busy,
    idle,
    stop(graceMs = def.stopGraceMs ?? 5_000) {
      stopping ??= (async () => {
        state = 'stopping';
        if (inFlight.size > 0) log.info(`${def.name}: stopping; waiting for the work in flight`, { inFlight: inFlight.size, graceMs });
        if (!(await settledWithin(graceMs))) {
          // The work is cut off; its outcome (an interruption, usually a failure with its retry) is still recorded.
          shutdown.abort();
          if (!(await settledWithin(graceMs))) log.warn(`${def.name}: work did not end when aborted; its rows are taken up again once their leases end`, { inFlight: inFlight.size });
        }
        state = 'stopped';
        await def.close?.();
        notifyIfIdle();
      })();
      return stopping;
    },
    backlog: () => def.backlog(),
  };
}
