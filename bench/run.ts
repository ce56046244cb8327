// `npm run bench`: measures the bundled server as an operator runs it (`node
// dist/wallet-loyalty.mjs serve`, default Node flags, its workers and cron jobs on, one webhook
// endpoint on a receiver in another process) against the stack's floor measured in the same run,
// and prints the table and the targets with PASS/FAIL. docs/performance.md says how to read it.
//
//   --duration <s>      seconds per measured run (8)      --warmup <s>  warm-up before each run (2)
//   --connections <n>   concurrent connections (50)
//   --bundle <file>     measure that bundle instead of building dist/wallet-loyalty.mjs
//   --baseline <file>   also run another bundle (an earlier dist/wallet-loyalty.mjs), interleaved, and compare
//   --frames            only count the WAL frames an earn writes (quick; with --baseline too)
//   --pi                a Raspberry Pi-class CPU instead: the server limited to 30 % of one core by a
//                       cgroup quota (root only): earns at a counter's pace, the most it takes, its cold start
//   --keep              keep the temp folder (databases, server logs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { setUpApp, type AppUnderTest } from './app';
import { createCpuQuota, type CpuQuota } from './cpu-quota';
import { runLoad, runPaced, type LoadResult } from './load';
import { buildBundles, FLOOR_REQUESTS, killChildren, startFloor, startReceiver, type FloorProcess, type Measurable, type ReceiverProcess } from './processes';
import { int, median, ms, pct, table, targetsTable, type Target } from './report';
import { earnRequest, requestsOf, SCENARIOS, type LoadRequest, type Scenario } from './scenarios';
import { serverLogSummary } from './server-log';
import { countWalFrames, type FrameCount } from './wal-frames';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    bundle: { type: 'string' },
    baseline: { type: 'string' },
    frames: { type: 'boolean', default: false },
    pi: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
function wholeNumber(name: 'duration' | 'warmup' | 'connections', min: number): number {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`bench: --${name} must be a whole number ≥ ${min}\n`);
    process.exit(2);
  }
  return n;
}
const duration = wholeNumber('duration', 1);
const warmup = wholeNumber('warmup', 0);
const connections = wholeNumber('connections', 1);

/** The webhook backlog the drain target speaks of. */
const BACKLOG = 10_000;
/** Below the server's 5 s webhook timeout: a slow receiver, never a failed attempt. */
const SLOW_ANSWER_MS = 4000;
const COLD_STARTS = 5;
/** Earns per WAL frame count: enough that a page split, or a write of a cron job, is a small fraction of a frame per earn. */
const FRAME_EARNS = 1000;
/** What one earn may write to the WAL (no webhook endpoint): pages of wear on an SD card. */
const MAX_FRAMES_PER_EARN = 6;
/** `--pi`: a counter's pace, 5 earns a second, for 20 s. */
const COUNTER_RATE = 5;
const COUNTER_SECONDS = 20;

const log = (message: string) => process.stderr.write(`${message}\n`);

// --pi needs the cgroup before anything starts: without it, one line and a non-zero exit.
let quota: CpuQuota | null = null;
if (args.pi) {
  try {
    quota = createCpuQuota();
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

// A generous bound: the bench must end by itself whatever happens.
const servers = args.baseline ? 2 : 1;
const deadlineS = 300 + servers * (args.pi ? 120 + COUNTER_SECONDS + 2 * (warmup + duration) : 300 + SCENARIOS.length * 2 * (warmup + duration + 30));
setTimeout(() => {
  log(`bench: stopped after ${deadlineS} s`);
  process.exit(2);
}, deadlineS * 1000).unref();
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

const dir = mkdtempSync(path.join(tmpdir(), 'wl-bench-'));
process.on('exit', () => {
  killChildren();
  quota?.remove();
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
});

type Measured = LoadResult & { rssMb: number; cpuUsPerRequest: number };

/**
 * Warm-up, then the measured run, sampling the server's RSS meanwhile. The server's CPU time per
 * answer tells what the rate alone cannot: whether the server or the load generator (sharing the
 * machine's cores) was the limit.
 */
async function measure(url: () => string, expectStatus: number, next: () => LoadRequest, server: Measurable, seconds = duration, warm = warmup): Promise<Measured> {
  if (warm > 0) await runLoad({ url: url(), connections, duration: warm, expectStatus, next });
  let rssMb = server.memory().rss;
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, server.memory().rss)), 100);
  try {
    const cpuBefore = server.cpuSeconds();
    const result = await runLoad({ url: url(), connections, duration: seconds, expectStatus, next });
    const cpuUsPerRequest = ((server.cpuSeconds() - cpuBefore) * 1e6) / Math.max(1, result.responses);
    if (result.errors > 0) log(`  ${result.errors} errors (statuses ${JSON.stringify(result.otherStatuses)})`);
    return { ...result, rssMb: Math.max(rssMb, server.memory().rss), cpuUsPerRequest };
  } finally {
    clearInterval(sampler);
  }
}

/** Runs of one load summed as one: rates over the runs' whole time, CPU per answer over all answers. */
function combined(runs: Measured[]): Measured {
  const sum = (f: (r: Measured) => number) => runs.reduce((total, r) => total + f(r), 0);
  const otherStatuses: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.otherStatuses)) otherStatuses[code] = (otherStatuses[code] ?? 0) + n;
  const responses = sum((r) => r.responses);
  return {
    rps: sum((r) => r.ok) / sum((r) => r.seconds),
    responses,
    ok: sum((r) => r.ok),
    errors: sum((r) => r.errors),
    otherStatuses,
    p50: median(runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    seconds: sum((r) => r.seconds),
    rssMb: Math.max(...runs.map((r) => r.rssMb)),
    cpuUsPerRequest: sum((r) => r.cpuUsPerRequest * r.responses) / Math.max(1, responses),
  };
}

/** How many turns each of the loads compared with one another takes. */
const TURNS = 4;

/** One load of a comparison: where it goes, what it sends, what to do around each of its runs. */
interface TurnLoad {
  url: () => string;
  expectStatus: number;
  next: () => LoadRequest;
  server: Measurable;
  /** Before each of its runs, the warm-up included. */
  before?: () => Promise<void>;
  /** After each of its runs, the warm-up included (also when the run failed). */
  after?: () => Promise<void>;
}

/**
 * Loads compared with one another (a scenario, its floor, the baseline's run of it): a warm-up of
 * each, then TURNS turns of duration / TURNS seconds each, the loads taking turns, each summed over
 * its turns. This machine's speed drifts from minute to minute (another process starts, the CPU
 * clocks down); taking turns lets the drift fall on every load alike instead of on whichever ran
 * second, so the ratios hold from run to run.
 */
async function takeTurns(loads: TurnLoad[]): Promise<Measured[]> {
  const seconds = Math.max(1, Math.round(duration / TURNS));
  const around = async <T>(load: TurnLoad, run: () => Promise<T>): Promise<T> => {
    await load.before?.();
    try {
      return await run();
    } finally {
      await load.after?.();
    }
  };
  if (warmup > 0) {
    for (const load of loads) await around(load, () => runLoad({ url: load.url(), connections, duration: warmup, expectStatus: load.expectStatus, next: load.next }));
  }
  const runs = loads.map((): Measured[] => []);
  for (let i = 0; i < TURNS; i++) {
    for (const [j, load] of loads.entries()) runs[j]!.push(await around(load, () => measure(load.url, load.expectStatus, load.next, load.server, seconds, 0)));
  }
  return runs.map(combined);
}

/**
 * A backlog of `BACKLOG` events: the receiver answers slowly while that many earns are sent, so
 * the server's queue grows; then it turns fast and the clock runs until no delivery is pending.
 */
async function measureDrain(target: AppUnderTest, receiver: ReceiverProcess): Promise<{ backlog: number; seconds: number }> {
  await target.queueEmpty();
  await receiver.command({ type: 'slow', delayMs: SLOW_ANSWER_MS });
  let i = 0;
  const earns = await runLoad({ url: target.process.url, connections, duration: 0, amount: BACKLOG, expectStatus: 201, next: () => earnRequest(target.bench, i++) });
  if (earns.errors > 0) throw new Error(`building the backlog: ${earns.errors} earns failed (${JSON.stringify(earns.otherStatuses)})`);
  const backlog = target.pendingDeliveries();
  const drained = target.queueEmpty();
  await receiver.command({ type: 'fast' });
  return { backlog, seconds: (await drained) / 1000 };
}

interface EarnFrames {
  plain: FrameCount;
  webhook: FrameCount;
}

/**
 * WAL frames per earn, counted from outside (bench/wal-frames.ts): with the bench's webhook
 * endpoint disabled, the earn's own transaction; with it on, also its event and delivery rows and
 * the worker's record of the delivery (the count waits until no delivery is pending).
 */
async function measureFrames(target: AppUnderTest): Promise<EarnFrames> {
  let i = 0;
  const earns = async () => {
    const run = await runLoad({ url: target.process.url, connections, duration: 0, amount: FRAME_EARNS, expectStatus: 201, next: () => earnRequest(target.bench, i++) });
    if (run.errors > 0) throw new Error(`counting WAL frames: ${run.errors} earns failed (${JSON.stringify(run.otherStatuses)})`);
    return run.ok;
  };
  await target.queueEmpty();
  await target.setWebhook('disabled');
  let plain: FrameCount;
  try {
    plain = await countWalFrames(target.process.dbFile, earns);
  } finally {
    await target.setWebhook('active');
  }
  const webhook = await countWalFrames(target.process.dbFile, async () => {
    const n = await earns();
    await target.queueEmpty();
    return n;
  });
  return { plain, webhook };
}

/** The write floor's frames per request: what one upsert and one insert write (bench/floor-server.ts). */
async function measureFloorFrames(floor: FloorProcess): Promise<FrameCount> {
  return countWalFrames(floor.dbFile, async () => {
    const run = await runLoad({ url: floor.url, connections, duration: 0, amount: FRAME_EARNS, expectStatus: FLOOR_REQUESTS.write.status, next: FLOOR_REQUESTS.write.next });
    if (run.errors > 0) throw new Error(`counting the write floor's WAL frames: ${run.errors} requests failed`);
    return run.ok;
  });
}

const perEarn = (c: FrameCount) => (c.frames / c.requests).toFixed(1);
const treesText = (c: FrameCount) => c.byTree.map((t) => `${t.name} ${t.perRequest.toFixed(2)}`).join(', ');

function framesTargets(frames: EarnFrames[], floor: FrameCount): Target[] {
  const [m, b] = frames as [EarnFrames, EarnFrames | undefined];
  return [
    { name: `WAL frames per request of the write floor (an upsert and an insert; ${int(FRAME_EARNS)} requests)`, measured: perEarn(floor), pass: null },
    {
      name: `an earn writes ≤ ${MAX_FRAMES_PER_EARN} WAL frames (no webhook endpoint; ${int(FRAME_EARNS)} earns)`,
      measured: perEarn(m.plain),
      pass: m.plain.frames / m.plain.requests <= MAX_FRAMES_PER_EARN,
      baseline: b && perEarn(b.plain),
    },
    {
      name: 'WAL frames per earn with the webhook endpoint on (its event, delivery and the delivery recorded)',
      measured: perEarn(m.webhook),
      pass: null,
      baseline: b && perEarn(b.webhook),
    },
  ];
}

function framesDetails(targets: AppUnderTest[], frames: EarnFrames[]): [string, string][] {
  return targets.flatMap((t, k): [string, string][] => [
    [`WAL frames per earn by table and index, no webhook endpoint (${t.label})`, treesText(frames[k]!.plain)],
    [`WAL frames per earn by table and index, webhook endpoint on (${t.label})`, treesText(frames[k]!.webhook)],
  ]);
}

/** `--frames`: the WAL frame count alone. */
async function framesRun(targets: AppUnderTest[], floorScript: string): Promise<string[]> {
  const writeFloor = await startFloor(floorScript, 'write', path.join(dir, 'floor-write'));
  log('WAL frames per request (write floor)');
  const floor = await measureFloorFrames(writeFloor);
  await writeFloor.stop();
  const frames: EarnFrames[] = [];
  for (const target of targets) {
    log(`WAL frames per earn (${target.label})`);
    frames.push(await measureFrames(target));
  }
  return [targetsTable(framesTargets(frames, floor), targets.length > 1), '', table(['details', ''], framesDetails(targets, frames))];
}

/** Each server's first start and restarts up to COLD_STARTS, the servers taking turns (the machine's speed drifts). */
async function coldStarts(targets: AppUnderTest[]): Promise<number[][]> {
  const times = targets.map((t) => [t.process.coldStartMs]);
  for (let k = 1; k < COLD_STARTS; k++) for (const [j, t] of targets.entries()) times[j]!.push(await t.restart());
  return times;
}

const listMs = (times: number[]) => times.map((t) => `${Math.round(t)}`).join(', ') + ' ms';

async function defaultRun(targets: AppUnderTest[], receiver: ReceiverProcess, floorScript: string): Promise<string[]> {
  const baseline = targets[1];
  const floors = {
    read: await startFloor(floorScript, 'read', path.join(dir, 'floor-read')),
    write: await startFloor(floorScript, 'write', path.join(dir, 'floor-write')),
    delivery: await startFloor(floorScript, 'delivery', path.join(dir, 'floor-delivery'), receiver.url),
  };
  // Each scenario right after a run of its floor, and the baseline right after it: this machine's
  // speed drifts from minute to minute, so a ratio is taken of runs side by side.
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'of floor', 'server CPU µs/req', 'RSS MB', 'queue empty after', ...(baseline ? ['baseline req/s', 'p99 ms', 'this / baseline'] : [])];
  const rows: string[][] = [];
  const ratios = new Map<string, number>();
  const baselineRatios = new Map<string, number>();
  let errors = 0;
  const versusRatios = new Map<string, number>();
  const baselineVersusRatios = new Map<string, number>();
  const referenceRatios = new Map<string, number>();
  const baselineReferenceRatios = new Map<string, number>();
  const floorLoad = (kind: keyof typeof floors): TurnLoad => ({ url: () => floors[kind].url, expectStatus: FLOOR_REQUESTS[kind].status, next: FLOOR_REQUESTS[kind].next, server: floors[kind] });
  for (const scenario of SCENARIOS) {
    if (scenario.versus) {
      // Against another scenario on the same server instead of a floor.
      const other = SCENARIOS.find((s) => s.name === scenario.versus!.scenario)!;
      const runs: Measured[][] = [];
      for (const target of targets) {
        log(`${other.name} and ${scenario.name}, taking turns (${target.label})`);
        const onTarget = (s: Scenario): TurnLoad => ({ url: () => target.process.url, expectStatus: s.expectStatus, next: requestsOf(target.bench, s), server: target.process, before: async () => void (await target.queueEmpty()) });
        const pair = await takeTurns([onTarget(other), onTarget(scenario)]);
        await target.queueEmpty();
        errors += pair[0]!.errors + pair[1]!.errors;
        runs.push(pair);
      }
      const [[a, m], b] = runs as [[Measured, Measured], [Measured, Measured] | undefined];
      versusRatios.set(scenario.name, m.rps / a.rps);
      if (b) baselineVersusRatios.set(scenario.name, b[1].rps / b[0].rps);
      rows.push([`${other.name}, alongside`, int(a.rps), ms(a.p50), ms(a.p99), String(a.errors), '', int(a.cpuUsPerRequest), int(a.rssMb), '', ...(b ? [int(b[0].rps), ms(b[0].p99), pct(a.rps / b[0].rps)] : [])]);
      rows.push([scenario.name, int(m.rps), ms(m.p50), ms(m.p99), String(m.errors), `${pct(m.rps / a.rps)} of the earn above`, int(m.cpuUsPerRequest), int(m.rssMb), '', ...(b ? [int(b[1].rps), ms(b[1].p99), pct(m.rps / b[1].rps)] : [])]);
      continue;
    }
    const floor = FLOOR_REQUESTS[scenario.floor];
    const reference = scenario.reference && FLOOR_REQUESTS[scenario.reference];
    // What each turn left in the webhook queue: the longest the workers needed for it after the load.
    const drainsAfter = targets.map(() => 0);
    const onTarget = (target: AppUnderTest, k: number): TurnLoad => ({
      url: () => target.process.url,
      expectStatus: scenario.expectStatus,
      next: requestsOf(target.bench, scenario),
      server: target.process,
      async before() {
        await target.queueEmpty();
        if (scenario.webhookOff) await target.setWebhook('disabled');
      },
      async after() {
        if (scenario.webhookOff) await target.setWebhook('active');
        if (target.pendingDeliveries() > 0) drainsAfter[k] = Math.max(drainsAfter[k]!, (await target.queueEmpty()) / 1000);
      },
    });
    log(`${scenario.name}, ${floor.name}${reference ? `, ${reference.name}` : ''}, taking turns (${targets.map((t) => t.label).join(', ')})`);
    const [f, ...measured] = (await takeTurns([floorLoad(scenario.floor), ...(scenario.reference ? [floorLoad(scenario.reference)] : []), ...targets.map(onTarget)])) as [Measured, ...Measured[]];
    const r = scenario.reference ? measured.shift()! : null;
    const [m, b] = measured as [Measured, Measured | undefined];
    errors += f.errors + (r?.errors ?? 0) + m.errors + (b?.errors ?? 0);
    ratios.set(scenario.name, m.rps / f.rps);
    if (b) baselineRatios.set(scenario.name, b.rps / f.rps);
    rows.push([floor.name, int(f.rps), ms(f.p50), ms(f.p99), String(f.errors), 'floor', int(f.cpuUsPerRequest), int(f.rssMb), '', ...(b ? ['', '', ''] : [])]);
    if (reference && r) {
      referenceRatios.set(scenario.name, m.rps / r.rps);
      if (b) baselineReferenceRatios.set(scenario.name, b.rps / r.rps);
      rows.push([reference.name, int(r.rps), ms(r.p50), ms(r.p99), String(r.errors), pct(r.rps / f.rps), int(r.cpuUsPerRequest), int(r.rssMb), '', ...(b ? ['', '', ''] : [])]);
    }
    rows.push([
      scenario.name, int(m.rps), ms(m.p50), ms(m.p99), String(m.errors), pct(m.rps / f.rps), int(m.cpuUsPerRequest), int(m.rssMb), drainsAfter[0] ? `${drainsAfter[0].toFixed(1)} s` : '',
      ...(b ? [int(b.rps), ms(b.p99), pct(m.rps / b.rps)] : []),
    ]);
  }
  log('WAL frames per request (write floor)');
  const floorFrames = await measureFloorFrames(floors.write);
  await floors.read.stop();
  await floors.write.stop();
  await floors.delivery.stop();

  const frames: EarnFrames[] = [];
  for (const target of targets) {
    log(`WAL frames per earn (${target.label})`);
    frames.push(await measureFrames(target));
  }

  const drains = [];
  for (const target of targets) {
    log(`webhook backlog drain (${target.label})`);
    drains.push(await measureDrain(target, receiver));
  }
  // Before the restarts: VmHWM is the peak of the process's whole life.
  const peaks = targets.map((t) => t.process.memory().peak);
  log('cold starts');
  const starts = await coldStarts(targets);

  const drainText = (d: { backlog: number; seconds: number }) => `${int(d.backlog)} deliveries in ${d.seconds.toFixed(1)} s`;
  const targetRows: Target[] = [
    ...SCENARIOS.filter((s) => s.minRatio !== undefined).map((s) => ({
      name: `${s.name} ≥ ${pct(s.minRatio!)} of the ${s.floor} floor`,
      measured: pct(ratios.get(s.name)!),
      pass: ratios.get(s.name)! >= s.minRatio!,
      baseline: baseline && pct(baselineRatios.get(s.name)!),
    })),
    ...SCENARIOS.filter((s) => s.reference).map((s) => ({
      name: `${s.name} vs the ${s.floor} floor with one webhook delivery per write (reference, no target)`,
      measured: pct(referenceRatios.get(s.name)!),
      pass: null,
      baseline: baseline && pct(baselineReferenceRatios.get(s.name)!),
    })),
    ...framesTargets(frames, floorFrames),
    ...SCENARIOS.filter((s) => s.versus).map((s) => ({
      name: `${s.name} ≥ ${pct(s.versus!.minRatio)} of the plain earn beside it`,
      measured: pct(versusRatios.get(s.name)!),
      pass: versusRatios.get(s.name)! >= s.versus!.minRatio,
      baseline: baseline && pct(baselineVersusRatios.get(s.name)!),
    })),
    { name: `a ${int(BACKLOG)}-event webhook backlog drains in ≤ 10 s`, measured: drainText(drains[0]!), pass: drains[0]!.seconds <= 10, baseline: drains[1] && drainText(drains[1]) },
    { name: 'peak RSS ≤ 160 MB (the whole run)', measured: `${int(peaks[0]!)} MB`, pass: peaks[0]! <= 160, baseline: peaks[1] === undefined ? undefined : `${int(peaks[1])} MB` },
    { name: `cold start ≤ 600 ms (median of ${COLD_STARTS})`, measured: `${int(median(starts[0]!))} ms`, pass: median(starts[0]!) <= 600, baseline: starts[1] && `${int(median(starts[1]))} ms` },
  ];
  if (errors > 0) process.exitCode = 1;
  const details: [string, string][] = [
    ['memory (what the peak RSS depends on)', memoryText()],
    ...framesDetails(targets, frames),
    ...targets.map((t, k): [string, string] => [`cold starts (${t.label})`, listMs(starts[k]!)]),
  ];
  return [table(header, rows), '', targetsTable(targetRows, targets.length > 1), '', table(['details', ''], [...details, ...logSummaries(targets)])];
}

// Node sizes its heap limit from the machine's memory (or a cgroup's limit), and the larger that
// limit, the further V8 lets the heap grow between full collections: the same run peaks higher on a
// machine with more memory. The server runs with this process's Node and no flags, so it gets the
// same limit.
function memoryText(): string {
  const limit = process.constrainedMemory?.();
  const memory = limit && limit < totalmem() ? `${(limit / 2 ** 30).toFixed(1)} GB (a cgroup's limit)` : `${(totalmem() / 2 ** 30).toFixed(1)} GB`;
  return `${memory}; Node's heap limit without flags: ${int(getHeapStatistics().heap_size_limit / 2 ** 20)} MB`;
}

function logSummaries(targets: AppUnderTest[]): [string, string][] {
  return targets.map((t) => [`server warnings and errors (${t.label})`, serverLogSummary(t.process.logFile)]);
}

interface PiResult {
  paced: LoadResult;
  most: Measured;
  /** The server's CPU seconds per second during the most-earns run. */
  share: number;
  queueS: number;
  starts: number[];
}

async function piRun(targets: AppUnderTest[]): Promise<string[]> {
  const results: PiResult[] = [];
  for (const target of targets) {
    log(`counter pace: ${COUNTER_RATE} earns/s for ${COUNTER_SECONDS} s (${target.label})`);
    let i = 0;
    const paced = await runPaced({ url: target.process.url, rate: COUNTER_RATE, duration: COUNTER_SECONDS, expectStatus: 201, next: () => earnRequest(target.bench, i++) });
    await target.queueEmpty();
    log(`most earns/s (${target.label})`);
    const wall = performance.now();
    const cpu = target.process.cpuSeconds();
    const most = await measure(() => target.process.url, 201, () => earnRequest(target.bench, i++), target.process);
    // The server's CPU over wall time, warm-up included: near 0.30 when the quota holds.
    const share = (target.process.cpuSeconds() - cpu) / ((performance.now() - wall) / 1000);
    const queueS = (await target.queueEmpty()) / 1000;
    if (paced.errors + most.errors > 0) process.exitCode = 1;
    results.push({ paced, most, share, queueS, starts: [] });
  }
  log('cold starts');
  (await coldStarts(targets)).forEach((times, k) => (results[k]!.starts = times));
  const [m, b] = results as [PiResult, PiResult | undefined];
  const pacedText = (r: PiResult) => `p99 ${ms(r.paced.p99)} ms (p50 ${ms(r.paced.p50)}; ${r.paced.ok} earns, ${r.paced.errors} errors)`;
  const mostText = (r: PiResult) => `${int(r.most.rps)}/s (p99 ${ms(r.most.p99)} ms; server CPU ${pct(r.share)} of a core; webhook queue empty ${r.queueS.toFixed(1)} s after)`;
  const targetRows: Target[] = [
    { name: `earn at a counter's pace (${COUNTER_RATE}/s for ${COUNTER_SECONDS} s): p99 ≤ 50 ms`, measured: pacedText(m), pass: m.paced.p99 <= 50 && m.paced.errors === 0, baseline: b && pacedText(b) },
    { name: 'the most earns it takes ≥ 200/s', measured: mostText(m), pass: m.most.rps >= 200, baseline: b && mostText(b) },
    { name: `cold start under the quota (median of ${COLD_STARTS})`, measured: `${int(median(m.starts))} ms`, pass: null, baseline: b && `${int(median(b.starts))} ms` },
  ];
  const details: [string, string][] = targets.map((t, k) => [`cold starts (${t.label})`, listMs(results[k]!.starts)]);
  return [targetsTable(targetRows, targets.length > 1), '', table(['details', ''], [...details, ...logSummaries(targets)])];
}

async function main() {
  log(`bench: building the bundle; temp folder ${dir}`);
  const bundles = await buildBundles({ bundle: args.bundle && path.resolve(args.bundle), baseline: args.baseline && path.resolve(args.baseline) });
  const receiver = await startReceiver(bundles.receiver);
  const targets: AppUnderTest[] = [];
  for (const [label, bundle] of [['this', bundles.app], ['baseline', bundles.baseline]] as const) {
    if (!bundle) continue;
    log(`setting up ${path.relative(process.cwd(), bundle)} (${label})`);
    targets.push(await setUpApp({ label, bundle, dataDir: path.join(dir, label), receiverUrl: receiver.url, cgroupProcs: quota?.procs }));
  }
  const out = [
    `Wallet Loyalty bench: node ${process.version}, ${connections} connections, ${warmup} s warm-up + ${duration} s per run`,
    `server: node ${path.relative(process.cwd(), bundles.app)} serve (default Node flags; workers and cron jobs on; LOG_LEVEL info; rate limits raised), one webhook endpoint on a receiver process` +
      (bundles.baseline ? `; baseline: ${args.baseline}` : ''),
    ...(quota ? [`Raspberry Pi-class: the server limited to 30 % of one core (${quota.describe}); the load generator and receiver are not`] : []),
    '',
    ...(quota ? await piRun(targets) : args.frames ? await framesRun(targets, bundles.floor) : await defaultRun(targets, receiver, bundles.floor)),
  ];
  for (const t of targets) await t.stop();
  await receiver.stop();
  console.log(out.join('\n'));
}

try {
  await main();
} catch (err) {
  log(`bench: ${(err as Error).message}`);
  process.exitCode = 1;
}
process.exit();
