// The load generators, in this process against a server in another: autocannon (keep-alive
// connections, as fast as the server answers, HdrHistogram latencies) and a steady-rate pacer.
import http from 'node:http';
import autocannon from 'autocannon';
import { percentile } from './report';
import type { LoadRequest } from './scenarios';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; ignored when `amount` is given. */
  duration: number;
  /** Stop after this many responses instead of after `duration`. */
  amount?: number;
  /** The status a response must have to count as a success. */
  expectStatus: number;
  next(): LoadRequest;
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

/**
 * A steady rate: request i leaves at start + i/rate whatever the answers before it (an open loop,
 * as a till fleet sends), over kept-alive connections. autocannon's overallRate sends each
 * second's budget at the start of the second, which measures bursts, not a steady rate.
 */
export async function runPaced(options: { url: string; rate: number; duration: number; expectStatus: number; next(): LoadRequest }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const total = Math.round(options.rate * options.duration);
  const latencies: number[] = [];
  const statuses = new Map<string, number>();
  let errors = 0;
  const one = (req: LoadRequest) =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      const r = http.request(options.url + req.path, { method: req.method, headers: { ...req.headers, ...(req.body ? { 'Content-Length': Buffer.byteLength(req.body) } : {}) }, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - sent);
          statuses.set(String(res.statusCode), (statuses.get(String(res.statusCode)) ?? 0) + 1);
          resolve();
        });
      });
      r.on('error', () => {
        errors++;
        resolve();
      });
      r.end(req.body);
    });
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / options.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(one(options.next()));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const ok = statuses.get(String(options.expectStatus)) ?? 0;
  const responses = [...statuses.values()].reduce((a, b) => a + b, 0);
  return {
    rps: ok / seconds,
    responses,
    ok,
    errors: responses - ok + errors,
    otherStatuses: Object.fromEntries([...statuses].filter(([code]) => code !== String(options.expectStatus))),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    seconds,
  };
}
