// The load generator: autocannon (keep-alive connections, HdrHistogram latencies, a fixed overall
// rate when asked) in this process, against a server in another.
import autocannon from 'autocannon';
import type { LoadRequest } from './scenario';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; ignored when `amount` is given. */
  duration: number;
  /** Stop after this many responses instead of after `duration`. */
  amount?: number;
  /** Requests per second over all connections (a steady rate instead of as fast as possible). */
  overallRate?: number;
  /** The status a response must have to count as a success. */
  expectStatus: number;
  next(): LoadRequest;
  /** Ends the load early. */
  signal?: AbortSignal;
}

export interface LoadResult {
  /** Responses with the expected status per second. */
  rps: number;
  /** Every response received. */
  responses: number;
  ok: number;
  /** Responses with another status, socket errors and timeouts. */
  errors: number;
  /** Status codes seen other than the expected one (for the error message). */
  otherStatuses: Record<string, number>;
  p50: number;
  p99: number;
  seconds: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  // Without a callback autocannon returns an instance that is also the promise of its result.
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    ...(options.amount !== undefined ? { amount: options.amount } : {}),
    ...(options.overallRate !== undefined ? { overallRate: options.overallRate } : {}),
    timeout: 30,
    requests: [
      {
        setupRequest: (req: object) => {
          const next = options.next();
          return { ...req, method: next.method, path: next.path, headers: next.headers ?? {}, body: next.body ?? '' };
        },
      } as unknown as autocannon.Request,
    ],
  });
  options.signal?.addEventListener('abort', () => (instance as unknown as autocannon.Instance).stop(), { once: true });
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const ok = statuses[String(options.expectStatus)]?.count ?? 0;
  const responses = Object.values(statuses).reduce((sum, s) => sum + s.count, 0);
  const otherStatuses = Object.fromEntries(Object.entries(statuses).filter(([code]) => code !== String(options.expectStatus)).map(([code, s]) => [code, s.count]));
  return {
    // Over the whole run: what the server sustained, not the best second.
    rps: ok / seconds,
    responses,
    ok,
    errors: responses - ok + result.errors + result.timeouts,
    otherStatuses,
    p50: result.latency.p50,
    p99: result.latency.p99,
    seconds,
  };
}
