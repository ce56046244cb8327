// `npm run bench`: measures the bundled server as an operator runs it (dist/wallet-loyalty.mjs in a
// child process, webhook delivery and pass-update workers and cron jobs on, one webhook endpoint on
// a receiver in another process) against the stack's floor measured in the same run, and prints
// the table and the targets of issue 13 as ratios. It stops by itself.
//
//   --only <a,b,…>      scenarios (and phases: webhook drain, change-to-delivery latency, cold
//                       start, database maintenance) whose name contains one of the texts
//   --duration <s>      seconds per measured run (8)       --warmup <s>  warm-up before each run (2)
//   --connections <n>   concurrent connections (50)        --rounds <n>  repeat, report medians (1)
//   --customers <n>     also run every scenario on a database filled with n customers, compared with empty
//   --baseline <file>   also run everything on another bundle (a copy of an earlier
//                       dist/wallet-loyalty.mjs inside the project), interleaved, and compare
//   --bundle <file>     measure that bundle instead of dist/wallet-loyalty.mjs
//   --cpu-prof <dir>    write the server's CPU profile (node --cpu-prof) there when it stops
//   --node-arg <flag>   pass a flag to the servers' node (repeatable), e.g. --node-arg=--max-semi-space-size=8
//   --keep              keep the temp folder (databases, server logs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setUpApp, type AppUnderTest } from './bench-app';
import { runLoad, type LoadResult } from './load';
import { measureMaintenance, type MaintenanceMeasurement } from './maintenance';
import { serverLogSummary } from './server-log';
import { wholeNumber } from './options';
import { buildBundles, FLOOR_REQUESTS, SERVER_NODE_FLAGS, startFloor, startReceiver, type FloorProcess } from './processes';
import { extraTable, median, resultsTable, targetsTable, type Comparison, type Row } from './report';
import { requestsOf, type LoadRequest, type Scenario } from './scenario';
import { SCENARIOS } from './scenarios';
import { BACKLOG, judge, LATENCY_RATE } from './targets';
import { measureDeliveryLatency, measureDrain, type DrainResult, type LatencyResult } from './webhook-phases';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    customers: { type: 'string', default: '0' },
    baseline: { type: 'string' },
    bundle: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'node-arg': { type: 'string', multiple: true },
    keep: { type: 'boolean', default: false },
  },
});
const number = (name: keyof typeof args, min: number) => wholeNumber(args, name, min);
const duration = number('duration', 1);
const warmup = number('warmup', 0);
const connections = number('connections', 1);
const rounds = number('rounds', 1);
const customers = number('customers', 0);

const only = args.only?.toLowerCase().split(',').map((t) => t.trim()).filter(Boolean);
const picked = (name: string) => !only || only.some((text) => name.toLowerCase().includes(text));
const scenarios = SCENARIOS.filter((s) => picked(s.name));
const phases = { drain: picked('webhook drain'), latency: picked('change-to-delivery latency'), coldStart: picked('cold start'), maintenance: picked('database maintenance') };
// The maintenance runs on the filled database only.
if (scenarios.length === 0 && !phases.drain && !phases.latency && !phases.coldStart && !(phases.maintenance && customers > 0)) {
  throw new Error(phases.maintenance ? 'the database maintenance runs on the filled database: add --customers N' : `nothing matches --only "${args.only}"`);
}

// A generous bound for the largest run: the bench must end by itself whatever happens.
const servers = 1 + (customers ? 1 : 0) + (args.baseline ? 1 : 0);
const deadlineMs = (120 + (warmup + duration + 60) * (scenarios.length * servers + 2) * rounds + 200 * servers + customers / 1000) * 1000;
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

type Measured = LoadResult & { rssMb: number; cpuUsPerRequest: number; drainAfterS?: number };

interface Measurable {
  memory(): { rss: number };
  cpuSeconds(): number;
}

/**
 * Warm-up, then the measured run, sampling the server's RSS meanwhile. The server's CPU time per
 * answer tells what the rate alone cannot: whether the server or the load generator (sharing the
 * machine's cores) was the limit.
 */
async function measure(url: string, name: string, expectStatus: number, next: () => LoadRequest, server: Measurable): Promise<Measured> {
  if (warmup > 0) await runLoad({ url, connections, duration: warmup, expectStatus, next });
  let rssMb = server.memory().rss;
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, server.memory().rss)), 100);
  try {
    const cpuBefore = server.cpuSeconds();
    const result = await runLoad({ url, connections, duration, expectStatus, next });
    const cpuUsPerRequest = ((server.cpuSeconds() - cpuBefore) * 1e6) / Math.max(1, result.responses);
    if (result.errors > 0) log(`  ${name}: ${result.errors} errors (statuses ${JSON.stringify(result.otherStatuses)})`);
    return { ...result, rssMb: Math.max(rssMb, server.memory().rss), cpuUsPerRequest };
  } finally {
    clearInterval(sampler);
  }
}

async function runScenario(target: AppUnderTest, scenario: Scenario, states: Map<Scenario, unknown>): Promise<Measured> {
  const app = target.bench;
  if (!states.has(scenario)) states.set(scenario, await scenario.prepare?.(app));
  const state = states.get(scenario);
  await target.queueEmpty();
  const result: Measured = await measure(app.url, `${scenario.name} (${target.label})`, scenario.expectStatus, requestsOf(app, scenario, state), target.process);
  // What the load left in the webhook queue: how long the workers need for it after the load.
  if (target.pendingDeliveries() > 0) result.drainAfterS = (await target.queueEmpty()) / 1000;
  return result;
}

interface WebhookResults {
  drain: DrainResult | null;
  latency: LatencyResult | null;
}

async function main() {
  log(`bench: building the bundle; temp folder ${dir}`);
  const bundles = await buildBundles(args.bundle && path.resolve(args.bundle));
  const receiver = await startReceiver(bundles.receiver);
  const floors = new Map<'read' | 'write', FloorProcess>();
  for (const mode of new Set(scenarios.map((s) => s.floor))) floors.set(mode, await startFloor(bundles.floor, mode, path.join(dir, `floor-${mode}`)));
  const nodeArgs = [...(args['node-arg'] ?? []), ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : [])];
  const setUp = (label: string, bundle: string, n: number) => setUpApp({ label, bundle, dataDir: path.join(dir, label), receiverUrl: receiver.url, customers: n, nodeArgs, log });
  const main = await setUp('empty', bundles.app, 0);
  const filledLabel = `at ${customers.toLocaleString('en-US')} customers`;
  const filled = customers > 0 && (scenarios.length > 0 || phases.maintenance) ? await setUp(filledLabel, bundles.app, customers) : null;
  const baseline = args.baseline ? await setUp('baseline', path.resolve(args.baseline), 0) : null;
  const others = [filled, baseline].filter((t): t is AppUnderTest => t !== null);
  const states = new Map<AppUnderTest, Map<Scenario, unknown>>([main, ...others].map((t) => [t, new Map()]));

  // Each scenario right after a run of its floor: this machine's speed drifts between minutes (a
  // shared host; bare Koa measured 31 to 57 µs of CPU per answer in one hour), so a ratio is taken
  // of two runs side by side, and over several rounds the median ratio stands.
  const floorRuns = new Map<string, Measured[]>();
  const runs = new Map<string, Measured[]>();
  const ratios = new Map<string, number[]>();
  const add = <T>(map: Map<string, T[]>, key: string, m: T) => map.set(key, [...(map.get(key) ?? []), m]);
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const floor = floors.get(scenario.floor)!;
      const f = FLOOR_REQUESTS[scenario.floor];
      log(`round ${round}: ${scenario.floor} floor`);
      const floorRun = await measure(floor.url, f.name, f.status, f.next, floor);
      add(floorRuns, scenario.floor, floorRun);
      const thisRound = new Map<AppUnderTest, Measured>();
      for (const target of [main, ...others]) {
        log(`round ${round}: ${scenario.name} (${target.label})`);
        const run = await runScenario(target, scenario, states.get(target)!);
        add(runs, `${target.label}:${scenario.name}`, run);
        thisRound.set(target, run);
        if (target === main) add(ratios, scenario.name, run.rps / floorRun.rps);
      }
      // The filled database and the baseline are compared with the empty one's run of the same
      // round, seconds apart, as each scenario with its floor: runs minutes apart differ by the drift.
      const m = thisRound.get(main)!;
      if (filled) add(ratios, `${filled.label}:${scenario.name}`, thisRound.get(filled)!.rps / m.rps);
      if (baseline) add(ratios, `${baseline.label}:${scenario.name}`, m.rps / thisRound.get(baseline)!.rps);
    }
  }

  // The median run (by requests/s) stands for each scenario: its latency and memory go with it.
  const pick = (list: Measured[]) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor((list.length - 1) / 2)]!;
  const toRow = (name: string, m: Measured, ratio: number | null): Row => ({ scenario: name, rps: m.rps, p50: m.p50, p99: m.p99, errors: m.errors, ratio, rssMb: m.rssMb, cpuUsPerRequest: m.cpuUsPerRequest, drainAfterS: m.drainAfterS, compared: {} });
  const rows: Row[] = [...floorRuns].map(([mode, list]) => toRow(FLOOR_REQUESTS[mode as 'read' | 'write'].name, pick(list), null));
  for (const scenario of scenarios) {
    const m = pick(runs.get(`empty:${scenario.name}`)!);
    const row = toRow(scenario.name, m, median(ratios.get(scenario.name)!));
    for (const other of others) {
      const o = pick(runs.get(`${other.label}:${scenario.name}`)!);
      // Filled: its share of the empty database's rate. Baseline: how much faster this bundle is.
      // Each the median of the rounds' ratios.
      row.compared[other.label] = { rps: o.rps, p99: o.p99, ratio: median(ratios.get(`${other.label}:${scenario.name}`)!) };
    }
    rows.push(row);
  }

  const webhooks = new Map<AppUnderTest, WebhookResults>();
  for (const target of [main, ...(baseline ? [baseline] : [])]) {
    const drain = phases.drain ? (log(`webhook drain (${target.label})`), await measureDrain(target, receiver, BACKLOG, connections)) : null;
    const latency = phases.latency ? (log(`change-to-delivery latency (${target.label})`), await measureDeliveryLatency(target, receiver, LATENCY_RATE, duration)) : null;
    webhooks.set(target, { drain, latency });
  }
  // Before the cold-start restarts: each new process starts its own peak.
  const peakRssMb = Math.max(main.process.memory().peak, filled?.process.memory().peak ?? 0);
  const baselinePeak = baseline?.process.memory().peak;
  const coldStarts = new Map<AppUnderTest, number[]>();
  if (phases.coldStart) {
    for (const target of [main, ...others]) {
      log(`cold start (${target.label})`);
      const times = [target.process.coldStartMs];
      // Four restarts each: a single start swings by 100 ms with this machine's drift. The filled
      // database's first start is left out of its median (it follows the fill's writes).
      for (let k = 0; k < 4; k++) times.push(await target.restart());
      coldStarts.set(target, times);
    }
  }
  for (const t of [main, ...others]) await t.stop();
  for (const floor of floors.values()) await floor.stop();
  await receiver.stop();
  // The hourly job held a big database's event loop for a second until round 14: it now runs in slices.
  let maintenance: MaintenanceMeasurement | null = null;
  if (filled && phases.maintenance) {
    log(`database maintenance (${filled.label})`);
    maintenance = await measureMaintenance(filled.process.dbFile);
  }

  const comparisons: Comparison[] = [
    ...(filled ? [{ label: filledLabel, ratioLabel: 'of empty' }] : []),
    ...(baseline ? [{ label: 'baseline', ratioLabel: 'this / baseline' }] : []),
  ];
  const targets = judge({
    rows,
    ...webhooks.get(main)!,
    peakRssMb,
    coldStartsMs: coldStarts.get(main) ?? [],
    filledColdStart: filled && coldStarts.has(filled) ? { ms: median(coldStarts.get(filled)!.slice(1)), customers } : null,
    filledLabel: filled ? filledLabel : null,
    customers,
  });
  const out = [
    `Wallet Loyalty bench: node ${process.version}, ${connections} connections, ${warmup} s warm-up + ${duration} s per run, ${rounds} round(s)${rounds > 1 ? ' (medians)' : ''}`,
    `server: node ${SERVER_NODE_FLAGS.join(' ')} ${path.relative(process.cwd(), bundles.app)} serve (as npm start runs it; workers and cron jobs on, LOG_LEVEL info, rate limits raised), one webhook endpoint on a receiver process`,
    '',
    resultsTable(rows, comparisons),
    '',
    targetsTable(targets),
  ];
  const extra: [string, string][] = [];
  for (const [target, { drain, latency }] of webhooks) {
    if (drain) extra.push([`backlog drain (${target.label})`, `${drain.backlog} deliveries in ${(drain.drainMs / 1000).toFixed(2)} s; GET customer meanwhile ${Math.round(drain.api.rps)} req/s, p99 ${drain.api.p99} ms, ${drain.api.errors} errors`]);
    if (latency) extra.push([`change-to-delivery (${target.label})`, `${latency.earns} earns at ${LATENCY_RATE}/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms`]);
  }
  if (rounds > 1) {
    for (const other of others) {
      const perRound = scenarios.map((sc) => `${sc.name} ${ratios.get(`${other.label}:${sc.name}`)!.map((r) => `${Math.round(r * 100)}`).join('/')}`);
      extra.push([`${other.label}, ${comparisons.find((c) => c.label === other.label)!.ratioLabel}, by round (%)`, perRound.join('; ')]);
    }
  }
  if (maintenance) extra.push([`hourly database maintenance (${filledLabel})`, `${maintenance.slices} ANALYZE slices in ${Math.round(maintenance.totalMs)} ms; longest event-loop hold ${Math.round(maintenance.longestHoldMs)} ms${maintenance.longestSlice ? ` (longest slice: ${maintenance.longestSlice.statement}, ${Math.round(maintenance.longestSlice.ms)} ms)` : ''}`]);
  for (const t of [main, ...others]) extra.push([`server warnings and errors (${t.label})`, serverLogSummary(t.process.logFile)]);
  for (const [target, times] of coldStarts) extra.push([`cold start (${target.label})`, times.map((t) => `${Math.round(t)} ms`).join(', ')]);
  if (baselinePeak !== undefined) extra.push(['peak RSS (baseline)', `${Math.round(baselinePeak)} MB (this bundle: ${Math.round(peakRssMb)} MB)`]);
  if (extra.length) out.push('', extraTable('details', extra));
  console.log(out.join('\n'));
  if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
}

await main();
process.exit();
