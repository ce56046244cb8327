// The webhook measurements: how fast a backlog drains while the API keeps serving, and how long
// an earn takes to reach the receiver at a steady rate.
import { apiPool, earnRequest } from './api-scenarios';
import type { AppUnderTest } from './bench-app';
import { runLoad, runPaced, type LoadResult } from './load';
import type { ReceiverProcess } from './processes';
import { percentile } from './report';

/** Below the server's default WEBHOOK_TIMEOUT_MS (5 s): a slow receiver, never a failed attempt. */
const SLOW_ANSWER_MS = 4000;

export interface DrainResult {
  backlog: number;
  drainMs: number;
  /** The API load served meanwhile (reads of customers). */
  api: LoadResult;
}

/**
 * Builds a backlog of `size` events: the receiver answers slowly (4 s, under the server's webhook
 * timeout, so every attempt succeeds) while `size` earns are sent; the server's queue grows.
 * Then the receiver turns fast and the clock runs until no delivery is pending, while GET
 * customer requests keep coming on `connections` connections.
 */
export async function measureDrain(target: AppUnderTest, receiver: ReceiverProcess, size: number, connections: number): Promise<DrainResult> {
  const app = target.bench;
  const pool = await apiPool(app);
  await target.queueEmpty();
  await receiver.command({ type: 'slow', delayMs: SLOW_ANSWER_MS });
  let i = 0;
  const earns = await runLoad({ url: app.url, connections, duration: 0, amount: size, expectStatus: 201, next: () => earnRequest(app, pool, i++) });
  if (earns.errors > 0) throw new Error(`building the backlog: ${earns.errors} earns failed (${JSON.stringify(earns.otherStatuses)})`);
  const backlog = target.pendingDeliveries();

  const apiLoad = new AbortController();
  let j = 0;
  const api = runLoad({
    url: app.url,
    connections: Math.max(1, Math.round(connections / 5)),
    duration: 120,
    expectStatus: 200,
    signal: apiLoad.signal,
    next: () => ({ method: 'GET', path: `/api/v1/customers/${pool.ids[j++ % pool.ids.length]}`, headers: { 'X-Api-Key': app.liveKey } }),
  });
  // Let the reads get going before the receiver recovers.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const drained = target.queueEmpty(120_000);
  await receiver.command({ type: 'fast' });
  let drainMs: number;
  try {
    drainMs = await drained;
  } finally {
    apiLoad.abort();
  }
  return { backlog, drainMs, api: await api };
}

export interface LatencyResult {
  earns: number;
  delivered: number;
  p50: number;
  p99: number;
  max: number;
}

/** Earns at a steady `rate` per second for `duration` s; latency = receiver got the event − the event's createdAt. */
export async function measureDeliveryLatency(target: AppUnderTest, receiver: ReceiverProcess, rate: number, duration: number): Promise<LatencyResult> {
  const app = target.bench;
  const pool = await apiPool(app);
  await target.queueEmpty();
  await receiver.command({ type: 'fast' });
  await receiver.command({ type: 'reset' });
  let i = 0;
  const earns = await runPaced({ url: app.url, rate, duration, expectStatus: 201, next: () => earnRequest(app, pool, i++) });
  await target.queueEmpty();
  const stats = await receiver.command({ type: 'stats' });
  if (stats.type !== 'stats') throw new Error('unexpected receiver answer');
  const l = stats.latencies;
  return { earns: earns.ok, delivered: l.length, p50: percentile(l, 50), p99: percentile(l, 99), max: Math.max(...l) };
}
