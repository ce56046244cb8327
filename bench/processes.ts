// The processes of a bench run: the bundled server as an operator starts it (`node
// dist/wallet-loyalty.mjs serve`, default Node flags, workers and cron jobs on), the floor servers,
// the webhook receiver. Each is its own process, so its CPU and memory are its own (read from /proc).
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { ReceiverCommand, ReceiverMessage } from './receiver';
import { BENCH_SEED, type BenchOrg, type LoadRequest } from './scenarios';

const run = promisify(execFile);
export const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** Inside the project (and gitignored), so what runs from there resolves node_modules as dist/ does. */
const WORK_DIR = path.join(ROOT, '.tmp', 'bench');

export interface Bundles {
  app: string;
  baseline: string | null;
  floor: string;
  receiver: string;
}

/** dist/wallet-loyalty.mjs, built as `npm run build` builds it. */
export async function buildApp(): Promise<string> {
  await run(process.execPath, [path.join(ROOT, 'build.mjs')], { cwd: ROOT });
  return path.join(ROOT, 'dist', 'wallet-loyalty.mjs');
}

/**
 * dist/wallet-loyalty.mjs built as `npm run build` builds it (or the given bundle), the baseline
 * copied into the project (a bundle finds better-sqlite3 in the node_modules above it), and the
 * floor and receiver bundled.
 */
export async function buildBundles(options: { bundle?: string; baseline?: string }): Promise<Bundles> {
  const app = options.bundle ?? (await buildApp());
  mkdirSync(WORK_DIR, { recursive: true });
  let baseline: string | null = null;
  if (options.baseline) {
    mkdirSync(path.join(WORK_DIR, 'baseline'), { recursive: true });
    baseline = path.join(WORK_DIR, 'baseline', 'wallet-loyalty.mjs');
    if (path.resolve(options.baseline) !== baseline) copyFileSync(options.baseline, baseline);
  }
  await build({
    absWorkingDir: ROOT,
    entryPoints: { 'floor-server': 'bench/floor-server.ts', receiver: 'bench/receiver.ts' },
    outdir: WORK_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  });
  return { app, baseline, floor: path.join(WORK_DIR, 'floor-server.mjs'), receiver: path.join(WORK_DIR, 'receiver.mjs') };
}

// However the bench ends (done, failed, interrupted, past its deadline), no server outlives it.
const children = new Set<ChildProcess>();
export function killChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', killChildren);
function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** A child's environment without what the bench itself runs under (tsx's loader flags). */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** CPU seconds a process has used so far, user and system, all its threads (Linux /proc; 0 where it is missing). */
export function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces, hence from the last ')'): utime is the 12th, stime the 13th,
    // in USER_HZ, which is 100 on every architecture Node runs on.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Resident and peak resident memory of a process, in MB (Linux /proc; 0 where it is missing). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** Repeats a request until it succeeds; resolves with the time it did (performance.now()). */
async function firstSuccess(url: string, headers: Record<string, string>, child: ChildProcess, deadlineMs: number): Promise<number> {
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (code ${child.exitCode}) before answering`);
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.ok) return performance.now();
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error(`no successful answer from ${url} within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Something whose CPU and memory the bench samples while it is under load. */
export interface Measurable {
  memory(): { rss: number; peak: number };
  cpuSeconds(): number;
}

export interface AppProcess extends Measurable {
  url: string;
  dbFile: string;
  logFile: string;
  /** Process start → first successful request, ms. */
  coldStartMs: number;
  stop(): Promise<void>;
}

/** The operator's defaults, the rate limits raised out of the load's way. */
const BENCH_ENV = { HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_LIVE: '100000', RATE_LIMIT_TEST: '100000', RATE_LIMIT_ANONYMOUS: '100000' };

/**
 * Starts `node <bundle> serve` on a data folder and waits for its first successful answer to
 * `probe` (a key-authenticated read): that wait is the cold start. With `cgroupProcs` (a cgroup's
 * cgroup.procs file) the process enters that cgroup before node starts, so its whole life,
 * start included, runs under the cgroup's limits.
 */
export async function startApp(bundle: string, dataDir: string, probe: { path: string; headers: Record<string, string> }, cgroupProcs?: string, env: Record<string, string> = {}): Promise<AppProcess> {
  const port = await freePort();
  const logFile = path.join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  const argv = [process.execPath, bundle, 'serve'];
  const [command, ...args] = cgroupProcs ? ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', cgroupProcs, ...argv] : argv;
  const started = performance.now();
  const child = track(spawn(command!, args, { env: childEnv({ ...BENCH_ENV, ...env, DATA_DIR: dataDir, PORT: String(port) }), stdio: ['ignore', log, log] }));
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  let ready: number;
  try {
    ready = await firstSuccess(url + probe.path, probe.headers, child, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}; see ${logFile}`);
  }
  return {
    url,
    dbFile: path.join(dataDir, 'wallet-loyalty.db'),
    logFile,
    coldStartMs: ready - started,
    memory: () => memoryOf(child.pid!),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** `wallet-loyalty seed` with the bench's seed file, as an operator seeds: the CLI, in its own process. */
export async function seedWithCli(bundle: string, dataDir: string, seed: unknown = BENCH_SEED): Promise<BenchOrg> {
  const file = path.join(dataDir, 'bench-seed.json');
  writeFileSync(file, JSON.stringify(seed));
  const { stdout } = await run(process.execPath, [bundle, 'seed', file, '--data', dataDir], { env: childEnv(BENCH_ENV) });
  return (JSON.parse(stdout) as { orgs: BenchOrg[] }).orgs[0]!;
}

let floorWrites = 0;
/** What the bench sends each floor (bench/floor-server.ts), and the status it answers. */
export const FLOOR_REQUESTS: Record<'read' | 'write' | 'delivery', { name: string; status: number; next(): LoadRequest }> = {
  read: { name: 'bare Koa JSON GET (floor)', status: 200, next: () => ({ method: 'GET', path: '/' }) },
  write: {
    name: 'Koa + JSON body + one WAL transaction: an upsert and an insert (floor)',
    status: 201,
    // As many customers as the earns go round (bench/app.ts enrolls 1,000).
    next: () => ({ method: 'POST', path: '/', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ customer: `floor-${floorWrites++ % 1000}`, amount: 4.5, currency: 'EUR' }) }),
  },
  delivery: {
    name: 'the write floor + an outbox row and one webhook POST per write, recorded (reference)',
    status: 201,
    next: () => FLOOR_REQUESTS.write.next(),
  },
};

export interface FloorProcess extends Measurable {
  url: string;
  /** The write floor's database file (bench/wal-frames.ts counts its frames). */
  dbFile: string;
  stop(): Promise<void>;
}

export async function startFloor(script: string, mode: 'read' | 'write' | 'delivery', dataDir: string, receiverUrl?: string): Promise<FloorProcess> {
  const child = track(spawn(process.execPath, [script, mode, dataDir, ...(receiverUrl ? [receiverUrl] : [])], { env: childEnv({}), stdio: ['ignore', 'pipe', 'inherit'] }));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the ${mode} floor exited (code ${code})`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { url: string }).url);
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    dbFile: path.join(dataDir, 'floor.db'),
    memory: () => memoryOf(child.pid!),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

export interface ReceiverProcess {
  url: string;
  command(command: ReceiverCommand): Promise<void>;
  stop(): Promise<void>;
}

export async function startReceiver(script: string): Promise<ReceiverProcess> {
  const child = track(fork(script, [], { env: childEnv({}), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the receiver exited (code ${code})`)));
    child.once('message', (m: ReceiverMessage) => (m.type === 'ready' ? resolve(m.url) : reject(new Error('unexpected receiver message'))));
  });
  child.removeAllListeners('exit');
  return {
    url,
    // One command at a time (the bench awaits each): its 'ack' is the next message.
    command: (command) =>
      new Promise((resolve) => {
        child.once('message', () => resolve());
        child.send(command);
      }),
    async stop() {
      child.disconnect();
      await exited(child);
    },
  };
}
