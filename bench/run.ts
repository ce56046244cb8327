// `npm run bench`: starts the server on a temp database (child process, 127.0.0.1 only), fires a
// bounded number of requests per scenario and prints requests/s, latency percentiles and the
// server's RSS. It stops by itself. Options: --only <text>  --requests <n>  --concurrency <n>
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { parseArgs } from 'node:util';
import type { BenchMessage, BenchOrg, ServerMessage } from './protocol';

export interface BenchContext {
  url: string;
  org: BenchOrg;
  key(deviceName: 'bench live' | 'bench test'): string;
  card(ref: 'stamps' | 'points'): string;
}

export interface BenchRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One measured workload. Add a scenario by adding an entry to SCENARIOS. */
export interface Scenario {
  name: string;
  requests: number;
  concurrency: number;
  /** The status every measured response must have; anything else is counted as an error. */
  expectStatus: number;
  /** Runs once before the warm-up (e.g. enroll the customers that earn will use). */
  prepare?(ctx: BenchContext): Promise<void>;
  /** The i-th request (0-based). */
  request(ctx: BenchContext, i: number): BenchRequest;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'GET /api/v1/cards (live key)',
    requests: 5000,
    concurrency: 20,
    expectStatus: 200,
    request: (ctx) => ({ method: 'GET', path: '/api/v1/cards', headers: { 'X-Api-Key': ctx.key('bench live') } }),
  },
  {
    // Each request creates a customer: the transaction writes the customer, its event and its idempotency record.
    name: 'POST /api/v1/customers (new customer, Idempotency-Key)',
    requests: 3000,
    concurrency: 20,
    expectStatus: 201,
    request: (ctx, i) => ({
      method: 'POST',
      path: '/api/v1/customers',
      headers: { 'X-Api-Key': ctx.key('bench live'), 'Idempotency-Key': `enroll-${RUN}-${i}` },
      body: { externalCustomerId: `bench-${RUN}-${i}`, cardId: ctx.card('points'), email: `c${i}-${RUN}@bench.example` },
    }),
  },
  {
    // The hot path at a till: an award on one of a hundred existing customers (ledger row, balance, event).
    name: 'POST /api/v1/customers/{ref}/earn (points)',
    requests: 5000,
    concurrency: 20,
    expectStatus: 201,
    async prepare(ctx) {
      for (let c = 0; c < EARN_CUSTOMERS; c++) {
        const status = await send(ctx.url, {
          method: 'POST',
          path: '/api/v1/customers',
          headers: { 'X-Api-Key': ctx.key('bench live') },
          body: { externalCustomerId: `earner-${RUN}-${c}`, cardId: ctx.card('points') },
        });
        if (status !== 201) throw new Error(`preparing earn customers failed with ${status}`);
      }
    },
    request: (ctx, i) => ({
      method: 'POST',
      path: `/api/v1/customers/earner-${RUN}-${i % EARN_CUSTOMERS}/earn`,
      headers: { 'X-Api-Key': ctx.key('bench live') },
      body: { type: 'points', from: 'spend', spend: { amount: 4.5, currency: 'EUR' } },
    }),
  },
  {
    name: 'GET /api/v1/customers/{ref} (by email)',
    requests: 5000,
    concurrency: 20,
    expectStatus: 200,
    request: (ctx, i) => ({
      method: 'GET',
      path: `/api/v1/customers/email:c${i % 3000}-${RUN}@bench.example`,
      headers: { 'X-Api-Key': ctx.key('bench live') },
    }),
  },
];

/** Ids of this run, so scenarios that create customers never collide with the warm-up's. */
const RUN = Date.now().toString(36);
const EARN_CUSTOMERS = 100;

const WARMUP_REQUESTS = 200;
/** A run that takes longer than this is stopped: the bench must always end by itself. */
const DEADLINE_MS = 5 * 60_000;

interface Result {
  scenario: string;
  requests: number;
  concurrency: number;
  errors: number;
  seconds: number;
  'req/s': number;
  'p50 ms': number;
  'p95 ms': number;
  'p99 ms': number;
  'server RSS MB': number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(url: string, req: BenchRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string | number> = { ...req.headers };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const r = http.request(url + req.path, { method: req.method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)]! * 100) / 100;
}

/** Sends `total` requests with `concurrency` in flight; returns each latency in ms and the error count. */
async function fire(ctx: BenchContext, scenario: Scenario, total: number, concurrency: number): Promise<{ latencies: number[]; errors: number; seconds: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      const status = await send(ctx.url, scenario.request(ctx, i)).catch(() => 0);
      latencies.push(performance.now() - t0);
      if (status !== scenario.expectStatus) errors++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

function startServer(): Promise<{ child: ChildProcess; url: string; org: BenchOrg }> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./server.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited early (code ${code})`)));
    child.on('message', (m: ServerMessage) => {
      if (m.type === 'ready') resolve({ child, url: m.url, org: m.org });
    });
  });
}

function serverRss(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: ServerMessage) => {
      if (m.type !== 'rss') return;
      child.off('message', onMessage);
      resolve(m.rss);
    };
    child.on('message', onMessage);
    child.send({ type: 'rss' } satisfies BenchMessage);
  });
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' }, requests: { type: 'string' }, concurrency: { type: 'string' } } });
  const chosen = SCENARIOS.filter((s) => !values.only || s.name.includes(values.only));
  if (chosen.length === 0) throw new Error(`no scenario matches "${values.only}"`);

  const deadline = setTimeout(() => {
    process.stderr.write(`bench: stopped after ${DEADLINE_MS / 1000} s\n`);
    process.exit(2);
  }, DEADLINE_MS);
  deadline.unref();

  const { child, url, org } = await startServer();
  const ctx: BenchContext = {
    url,
    org,
    key: (deviceName) => org.keys.find((k) => k.deviceName === deviceName)!.key,
    card: (ref) => org.cards.find((c) => c.ref === ref)!.cardId,
  };
  const results: Result[] = [];
  try {
    for (const scenario of chosen) {
      const total = values.requests ? Number(values.requests) : scenario.requests;
      const concurrency = values.concurrency ? Number(values.concurrency) : scenario.concurrency;
      await scenario.prepare?.(ctx);
      await fire(ctx, scenario, Math.min(WARMUP_REQUESTS, total), concurrency);
      const run = await fire(ctx, scenario, total, concurrency);
      const sorted = [...run.latencies].sort((a, b) => a - b);
      results.push({
        scenario: scenario.name,
        requests: total,
        concurrency,
        errors: run.errors,
        seconds: Math.round(run.seconds * 100) / 100,
        'req/s': Math.round(total / run.seconds),
        'p50 ms': percentile(sorted, 50),
        'p95 ms': percentile(sorted, 95),
        'p99 ms': percentile(sorted, 99),
        'server RSS MB': Math.round((await serverRss(child)) / 1024 / 1024),
      });
    }
  } finally {
    child.removeAllListeners('exit');
    child.send({ type: 'stop' } satisfies BenchMessage);
    agent.destroy();
  }
  console.log(`Wallet Loyalty bench — Node ${process.version}, server on ${url} (after ${WARMUP_REQUESTS} warm-up requests per scenario)`);
  console.table(results);
  if (results.some((r) => r.errors > 0)) process.exitCode = 1;
}

await main();
