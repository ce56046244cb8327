// `npm run bench:pair`: two servers loaded at the same time, to measure a change smaller than this
// machine's drift. Runs seconds apart (`npm run bench`) scatter by a third on this shared host;
// two servers under load at once meet the same drift, so the ratio of their CPU time per answer
// holds to a few per cent from round to round. Each server gets half the connections; their rates
// then share the cores and the one load generator, so the CPU per answer is the measure, not the
// rate. A server's CPU is read once the webhook deliveries its run queued are sent: the whole
// process's, and its main thread's alone, which answers the requests (work moved to another
// thread shows there, where the process's total may even grow). Both servers and the load
// generator share the cores, so neither tells what one server alone gains in rate from work moved
// to another thread: measure that with `npm run bench`, one server at a time (issue 13's round 10).
//
//   --a <bundle|floor>   the first server: a bundle (a copy of an earlier dist/wallet-loyalty.mjs
//                        inside the project) or `floor`, the scenario's floor (bench/floor-server.ts)
//   --b <bundle>         the second server (default: dist/wallet-loyalty.mjs, rebuilt if stale)
//   --a-node-arg, --b-node-arg <flag>   a node flag after npm start's (repeatable), e.g.
//                        --a-node-arg=--max-semi-space-size=2 to measure a flag
//   --only <a,b,…>       API scenarios whose name contains one of the texts (default: customer,earn)
//   --rounds <n> (5)     --duration <s> (8)     --warmup <s> (2)     --connections <n> per server (25)
//   --keep               keep the temp folder (databases, server logs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { apiScenarios } from './api-scenarios';
import { setUpApp, type AppUnderTest } from './bench-app';
import { runLoad, type LoadResult } from './load';
import { wholeNumber } from './options';
import { buildBundles, FLOOR_REQUESTS, startFloor, startReceiver, type FloorProcess } from './processes';
import { median } from './report';
import { requestsOf, type LoadRequest, type Scenario } from './scenario';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    'a-node-arg': { type: 'string', multiple: true },
    'b-node-arg': { type: 'string', multiple: true },
    only: { type: 'string', default: 'customers/{ref},earn (webhook' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '25' },
    keep: { type: 'boolean', default: false },
  },
});
const number = (name: 'rounds' | 'duration' | 'warmup' | 'connections', min: number) => wholeNumber(args, name, min);
const rounds = number('rounds', 1);
const duration = number('duration', 1);
const warmup = number('warmup', 0);
const connections = number('connections', 1);
if (!args.a) throw new Error('--a <bundle|floor> is required: the server to compare with');
const only = args.only.toLowerCase().split(',').map((t) => t.trim()).filter(Boolean);
const scenarios = apiScenarios.filter((s) => only.some((text) => s.name.toLowerCase().includes(text)));
if (scenarios.length === 0) throw new Error(`no API scenario matches --only "${args.only}"`);

const log = (message: string) => process.stderr.write(`${message}\n`);
const dir = mkdtempSync(path.join(tmpdir(), 'wl-pair-'));
process.on('exit', () => {
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
// The bench must end by itself whatever happens.
setTimeout(
  () => {
    log('bench:pair: stopped after its time');
    process.exit(2);
  },
  (180 + rounds * scenarios.length * (warmup + duration + 60)) * 1000,
).unref();

/** One side of a pair, for one scenario: where to send its requests and whose CPU to read. */
interface Side {
  label: string;
  url: string;
  expectStatus: number;
  next(): LoadRequest;
  cpuSeconds(): number;
  mainThreadCpuSeconds(): number;
  /** Waits until the webhook deliveries the last run queued are sent (nothing for a floor). */
  settle(): Promise<void>;
}

interface Measured {
  load: LoadResult;
  cpuUsPerAnswer: number;
  /** The main thread's alone: the one that answers the requests. */
  mainUsPerAnswer: number;
}

async function main() {
  const bundles = await buildBundles(args.b && path.resolve(args.b));
  const receiver = await startReceiver(bundles.receiver);
  const floors = new Map<'read' | 'write', FloorProcess>();
  const apps: AppUnderTest[] = [];
  const setUp = async (label: string, bundle: string, nodeArgs: string[] = []) => {
    const app = await setUpApp({ label, bundle, dataDir: path.join(dir, label), receiverUrl: receiver.url, customers: 0, nodeArgs, log });
    apps.push(app);
    return app;
  };
  const b = await setUp('b', bundles.app, args['b-node-arg']);
  const a = args.a === 'floor' ? null : await setUp('a', path.resolve(args.a!), args['a-node-arg']);
  const floorOf = async (mode: 'read' | 'write') => {
    if (!floors.has(mode)) floors.set(mode, await startFloor(bundles.floor, mode, path.join(dir, `floor-${mode}`)));
    return floors.get(mode)!;
  };

  const states = new Map<AppUnderTest, Map<Scenario, unknown>>();
  async function appSide(app: AppUnderTest, scenario: Scenario): Promise<Side> {
    const byScenario = states.get(app) ?? new Map<Scenario, unknown>();
    states.set(app, byScenario);
    if (!byScenario.has(scenario)) byScenario.set(scenario, await scenario.prepare?.(app.bench));
    const state = byScenario.get(scenario);
    return {
      label: app.label,
      url: app.bench.url,
      expectStatus: scenario.expectStatus,
      next: requestsOf(app.bench, scenario, state),
      cpuSeconds: () => app.process.cpuSeconds(),
      mainThreadCpuSeconds: () => app.process.mainThreadCpuSeconds(),
      settle: async () => void (await app.queueEmpty()),
    };
  }
  async function floorSide(scenario: Scenario): Promise<Side> {
    const floor = await floorOf(scenario.floor);
    const request = FLOOR_REQUESTS[scenario.floor];
    return { label: 'floor', url: floor.url, expectStatus: request.status, next: request.next, cpuSeconds: () => floor.cpuSeconds(), mainThreadCpuSeconds: () => floor.mainThreadCpuSeconds(), settle: async () => {} };
  }

  /** Both sides under load at once: the warm-up, then the measured run, each side's CPU read around it. */
  async function measurePair(sides: [Side, Side]): Promise<[Measured, Measured]> {
    await Promise.all(sides.map((s) => s.settle()));
    if (warmup > 0) await Promise.all(sides.map((s) => runLoad({ url: s.url, connections, duration: warmup, expectStatus: s.expectStatus, next: s.next })));
    const before = sides.map((s) => [s.cpuSeconds(), s.mainThreadCpuSeconds()] as const);
    const loads = await Promise.all(sides.map((s) => runLoad({ url: s.url, connections, duration, expectStatus: s.expectStatus, next: s.next })));
    // The deliveries an earn queued and the load left waiting belong to its cost too.
    await Promise.all(sides.map((s) => s.settle()));
    const perAnswer = (seconds: number, k: number) => (seconds * 1e6) / Math.max(1, loads[k]!.responses);
    const measured = sides.map((s, k) => ({
      load: loads[k]!,
      cpuUsPerAnswer: perAnswer(s.cpuSeconds() - before[k]![0], k),
      mainUsPerAnswer: perAnswer(s.mainThreadCpuSeconds() - before[k]![1], k),
    }));
    for (const [k, m] of measured.entries()) if (m.load.errors > 0) log(`  ${sides[k]!.label}: ${m.load.errors} errors (statuses ${JSON.stringify(m.load.otherStatuses)})`);
    return measured as [Measured, Measured];
  }

  const results = new Map<Scenario, [Measured, Measured][]>();
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const sides: [Side, Side] = [a ? await appSide(a, scenario) : await floorSide(scenario), await appSide(b, scenario)];
      const pair = await measurePair(sides);
      results.set(scenario, [...(results.get(scenario) ?? []), pair]);
      const [ma, mb] = pair;
      log(
        `round ${round}: ${scenario.name}: a ${Math.round(ma.load.rps)} req/s ${Math.round(ma.cpuUsPerAnswer)} µs | ` +
          `b ${Math.round(mb.load.rps)} req/s ${Math.round(mb.cpuUsPerAnswer)} µs | b/a CPU per answer ${(mb.cpuUsPerAnswer / ma.cpuUsPerAnswer).toFixed(3)}, ` +
          `main thread's ${(mb.mainUsPerAnswer / ma.mainUsPerAnswer).toFixed(3)}`,
      );
    }
  }
  for (const app of apps) await app.stop();
  for (const floor of floors.values()) await floor.stop();
  await receiver.stop();

  const flags = (list: string[] | undefined) => (list?.length ? ` (${list.join(' ')})` : '');
  const lines = [
    `Paired runs: a = ${args.a === 'floor' ? "each scenario's floor" : path.relative(process.cwd(), path.resolve(args.a!))}${flags(args['a-node-arg'])}, b = ${path.relative(process.cwd(), bundles.app)}${flags(args['b-node-arg'])}; both loaded at once, ${connections} connections each, ${warmup} s warm-up + ${duration} s, ${rounds} round(s)`,
    '',
    '| scenario | a: CPU µs per answer | b: CPU µs per answer | b / a (median) | b / a per round | main thread: a µs | b µs | b / a (median) | b / a per round | a req/s | b req/s |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const scenario of scenarios) {
    const pairs = results.get(scenario)!;
    const columns = (key: 'cpuUsPerAnswer' | 'mainUsPerAnswer') => {
      const ratios = pairs.map(([ma, mb]) => mb[key] / ma[key]);
      return [Math.round(median(pairs.map(([ma]) => ma[key]))), Math.round(median(pairs.map(([, mb]) => mb[key]))), median(ratios).toFixed(3), ratios.map((r) => r.toFixed(2)).join(', ')];
    };
    const cells = [
      scenario.name,
      ...columns('cpuUsPerAnswer'),
      ...columns('mainUsPerAnswer'),
      Math.round(median(pairs.map(([ma]) => ma.load.rps))).toLocaleString('en-US'),
      Math.round(median(pairs.map(([, mb]) => mb.load.rps))).toLocaleString('en-US'),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    log(`bench:pair failed: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
