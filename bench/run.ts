// `npm run bench`: measures the bundled server as an operator runs it (dist/wallet-loyalty.mjs in a
// child process, webhook delivery and pass-update workers and cron jobs on, one webhook endpoint on
// a receiver in another process) against the stack's floor measured in the same run, and prints
// the table and the targets of issue 13 as ratios. It stops by itself.
//
//   --only <text>       scenarios (and phases: floor, drain, latency, cold start) whose name contains it
//   --duration <s>      seconds per measured run (8)       --warmup <s>  seconds of warm-up before each (2)
//   --connections <n>   concurrent connections (50)        --rounds <n>  repeat the scenarios, report medians (1)
//   --customers <n>     also run every scenario on a database filled with n customers, compared with empty
//   --cpu-prof <dir>    write the server's CPU profile (node --cpu-prof) there when it stops
//   --keep              keep the temp folder (databases, server logs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setUpApp, type AppUnderTest } from './bench-app';
import { runLoad, type LoadResult } from './load';
import { buildBundles, startFloor, startReceiver, type FloorProcess } from './processes';
import { extraTable, median, pct, resultsTable, targetsTable, type Row, type Target } from './report';
import type { LoadRequest, Scenario } from './scenario';
import { SCENARIOS } from './scenarios';
import { measureDeliveryLatency, measureDrain } from './webhook-phases';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    customers: { type: 'string', default: '0' },
    'cpu-prof': { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const number = (name: keyof typeof args, min: number) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}`);
  return n;
};
const duration = number('duration', 1);
const warmup = number('warmup', 0);
const connections = number('connections', 1);
const rounds = number('rounds', 1);
const customers = number('customers', 0);
const BACKLOG = 10_000;
const LATENCY_RATE = 200;

const picked = (name: string) => !args.only || name.toLowerCase().includes(args.only.toLowerCase());
const scenarios = SCENARIOS.filter((s) => picked(s.name));
const phases = { drain: picked('webhook drain'), latency: picked('change-to-delivery latency'), coldStart: picked('cold start') };
if (scenarios.length === 0 && !phases.drain && !phases.latency && !phases.coldStart) throw new Error(`nothing matches --only "${args.only}"`);

// A generous bound for the largest run: the bench must end by itself whatever happens.
const deadlineMs = (60 + (warmup + duration + 40) * (scenarios.length * (customers ? 2 : 1) + 2) * rounds + customers / 2000 + 300) * 1000;
setTimeout(() => {
  process.stderr.write(`bench: stopped after ${Math.round(deadlineMs / 1000)} s\n`);
  process.exit(2);
}, deadlineMs).unref();
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

const log = (message: string) => process.stderr.write(`${message}\n`);
const dir = mkdtempSync(path.join(tmpdir(), 'wl-bench-'));
process.on('exit', () => {
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
});

/** Warm-up, then the measured run, sampling the server's RSS meanwhile. */
async function measure(url: string, scenarioName: string, expectStatus: number, next: () => LoadRequest, memory: () => { rss: number }): Promise<LoadResult & { rssMb: number }> {
  if (warmup > 0) await runLoad({ url, connections, duration: warmup, expectStatus, next });
  let rssMb = memory().rss;
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, memory().rss)), 100);
  try {
    const result = await runLoad({ url, connections, duration, expectStatus, next });
    if (result.errors > 0) log(`  ${scenarioName}: ${result.errors} errors (statuses ${JSON.stringify(result.otherStatuses)})`);
    return { ...result, rssMb: Math.max(rssMb, memory().rss) };
  } finally {
    clearInterval(sampler);
  }
}

type Measured = LoadResult & { rssMb: number; drainAfterS?: number };

async function runScenario(target: AppUnderTest, scenario: Scenario, states: Map<Scenario, unknown>): Promise<Measured> {
  const app = target.bench;
  if (!states.has(scenario)) states.set(scenario, await scenario.prepare?.(app));
  const state = states.get(scenario);
  let i = 0;
  const next = () => scenario.request(app, state, i++);
  await target.queueEmpty();
  const result: Measured = await measure(app.url, `${scenario.name} (${target.label})`, scenario.expectStatus, next, () => target.process.memory());
  // What the load left in the webhook queue: how long the workers need for it after the load.
  if (target.pendingDeliveries() > 0) result.drainAfterS = (await target.queueEmpty()) / 1000;
  return result;
}

async function main() {
  log(`bench: building the bundle; temp folder ${dir}`);
  const bundles = await buildBundles();
  const receiver = await startReceiver(bundles.receiver);
  const floorsNeeded = new Set(scenarios.map((s) => s.floor));
  const floors = new Map<'read' | 'write', FloorProcess>();
  for (const mode of floorsNeeded) floors.set(mode, await startFloor(bundles.floor, mode, path.join(dir, `floor-${mode}`)));
  const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : [];
  const empty = await setUpApp({ label: 'empty', bundle: bundles.app, dataDir: path.join(dir, 'empty'), receiverUrl: receiver.url, customers: 0, nodeArgs, log });
  const filled = customers > 0 && scenarios.length > 0 ? await setUpApp({ label: 'filled', bundle: bundles.app, dataDir: path.join(dir, 'filled'), receiverUrl: receiver.url, customers, log }) : null;
  const targets = [empty, ...(filled ? [filled] : [])];
  const states = new Map<AppUnderTest, Map<Scenario, unknown>>(targets.map((t) => [t, new Map()]));

  const floorRuns = new Map<string, Measured[]>();
  const runs = new Map<string, Measured[]>();
  const add = (map: Map<string, Measured[]>, key: string, m: Measured) => map.set(key, [...(map.get(key) ?? []), m]);
  for (let round = 1; round <= rounds; round++) {
    for (const [mode, floor] of floors) {
      log(`round ${round}: ${mode} floor`);
      const next = mode === 'read' ? () => ({ method: 'GET', path: '/' }) : () => ({ method: 'POST', path: '/', headers: { 'Content-Type': 'application/json' }, body: '{"customer":"floor","amount":4.5,"currency":"EUR"}' });
      add(floorRuns, mode, await measure(floor.url, `${mode} floor`, mode === 'read' ? 200 : 201, next, floor.memory));
    }
    for (const scenario of scenarios) {
      for (const target of targets) {
        log(`round ${round}: ${scenario.name} (${target.label})`);
        add(runs, `${target.label}:${scenario.name}`, await runScenario(target, scenario, states.get(target)!));
      }
    }
  }

  // The median run of each scenario (by requests/s): its latency and memory go with it.
  const pick = (list: Measured[]) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor((list.length - 1) / 2)]!;
  const floorRps = new Map([...floorRuns].map(([mode, list]) => [mode, median(list.map((m) => m.rps))]));
  const rows: Row[] = [];
  const toRow = (name: string, m: Measured, ratio: number | null): Row => ({ scenario: name, rps: m.rps, p50: m.p50, p99: m.p99, errors: m.errors, ratio, rssMb: m.rssMb, drainAfterS: m.drainAfterS });
  if (floorRuns.has('read')) rows.push(toRow('bare Koa JSON GET (floor)', pick(floorRuns.get('read')!), null));
  if (floorRuns.has('write')) rows.push(toRow('Koa + JSON body + one SQLite WAL write transaction (floor)', pick(floorRuns.get('write')!), null));
  for (const scenario of scenarios) {
    const m = pick(runs.get(`empty:${scenario.name}`)!);
    const row = toRow(scenario.name, m, median(runs.get(`empty:${scenario.name}`)!.map((r) => r.rps)) / floorRps.get(scenario.floor)!);
    if (filled) {
      const f = pick(runs.get(`filled:${scenario.name}`)!);
      row.filled = { rps: f.rps, p99: f.p99, ratioToEmpty: f.rps / m.rps };
    }
    rows.push(row);
  }

  const drain = phases.drain ? (log('webhook drain'), await measureDrain(empty, receiver, BACKLOG, connections)) : null;
  const latency = phases.latency ? (log('change-to-delivery latency'), await measureDeliveryLatency(empty, receiver, LATENCY_RATE, duration)) : null;
  const peakRss = Math.max(...targets.map((t) => t.process.memory().peak));
  const coldStarts: number[] = [];
  if (phases.coldStart) {
    log('cold start');
    coldStarts.push(empty.process.coldStartMs);
    for (let k = 0; k < 4; k++) coldStarts.push(await empty.restart());
  }
  const filledColdStart = filled && phases.coldStart ? await filled.restart() : null;
  for (const t of targets) await t.stop();
  for (const floor of floors.values()) await floor.stop();
  await receiver.stop();

  const rowOf = (name: string) => rows.find((r) => r.scenario === name);
  const ratioTarget = (name: string, label: string): Target => {
    const row = rowOf(name);
    const scenario = SCENARIOS.find((s) => s.name === name)!;
    return { name: `${label} ≥ ${pct(scenario.minRatio!)} of the ${scenario.floor} floor`, measured: row ? pct(row.ratio!) : '', pass: row ? row.ratio! >= scenario.minRatio! : null };
  };
  const worstFilled = rows.filter((r) => r.filled).map((r) => r.filled!.ratioToEmpty);
  const targetRows: Target[] = [
    ratioTarget('POST earn (webhook endpoint on)', 'earn with a webhook endpoint'),
    ratioTarget('GET /v1/customers/{ref}', 'GET customer'),
    {
      name: `a ${BACKLOG.toLocaleString('en-US')}-event backlog drains in ≤ 10 s while the API serves`,
      measured: drain ? `${(drain.drainMs / 1000).toFixed(1)} s for ${drain.backlog.toLocaleString('en-US')} (${Math.round(drain.backlog / (drain.drainMs / 1000)).toLocaleString('en-US')}/s); API meanwhile ${Math.round(drain.api.rps).toLocaleString('en-US')} req/s, p99 ${Math.round(drain.api.p99)} ms` : '',
      pass: drain ? drain.drainMs <= 10_000 && drain.api.errors === 0 : null,
    },
    {
      name: `change-to-delivery p99 ≤ 100 ms at ${LATENCY_RATE} earns/s`,
      measured: latency ? `p99 ${latency.p99} ms (p50 ${latency.p50}, max ${latency.max}; ${latency.delivered} of ${latency.earns} events)` : '',
      pass: latency ? latency.p99 <= 100 && latency.delivered >= latency.earns : null,
    },
    { name: 'server RSS ≤ 120 MB under all of it (peak)', measured: `${Math.round(peakRss)} MB`, pass: peakRss <= 120 },
    {
      name: 'cold start ≤ 400 ms (process start → first successful request)',
      measured: coldStarts.length ? `${Math.round(median(coldStarts))} ms median of ${coldStarts.length}${filledColdStart !== null ? `; ${Math.round(filledColdStart)} ms at ${customers.toLocaleString('en-US')} customers` : ''}` : '',
      pass: coldStarts.length ? median(coldStarts) <= 400 && (filledColdStart === null || filledColdStart <= 400) : null,
    },
    {
      name: 'at 1,000,000 customers every scenario within 20 % of an empty database',
      measured: worstFilled.length ? `worst ${pct(Math.min(...worstFilled))} of empty at ${customers.toLocaleString('en-US')} customers` : 'run with --customers 1000000',
      pass: worstFilled.length && customers >= 1_000_000 ? Math.min(...worstFilled) >= 0.8 : null,
    },
  ];

  const out = [
    `Wallet Loyalty bench: node ${process.version}, ${connections} connections, ${warmup} s warm-up + ${duration} s per run, ${rounds} round(s)${rounds > 1 ? ' (medians)' : ''}`,
    `server: ${path.relative(process.cwd(), bundles.app)} serve (workers and cron jobs on, LOG_LEVEL info, rate limits raised), one webhook endpoint on a receiver process`,
    '',
    resultsTable(rows, filled ? customers : 0),
    '',
    targetsTable(targetRows),
  ];
  if (drain || latency) {
    out.push(
      '',
      extraTable('webhooks', [
        ...(drain ? ([['backlog drain', `${drain.backlog} deliveries in ${(drain.drainMs / 1000).toFixed(2)} s; GET customer meanwhile ${Math.round(drain.api.rps)} req/s, p99 ${drain.api.p99} ms, ${drain.api.errors} errors`]] as [string, string][]) : []),
        ...(latency ? ([['change-to-delivery', `${latency.earns} earns at ${LATENCY_RATE}/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms`]] as [string, string][]) : []),
      ]),
    );
  }
  console.log(out.join('\n'));
  if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
}

await main();
process.exit();
