// The processes of a bench run: the bundled server as an operator starts it (`node
// dist/wallet-loyalty.mjs serve`, workers and cron jobs on), the floor servers, the webhook
// receiver. Each is its own process, so its CPU and memory are its own; RSS is read from /proc.
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { freshBundle } from '../build.mjs';
import type { ReceiverCommand, ReceiverMessage } from './receiver';
import { BENCH_SEED, type BenchOrg, type LoadRequest } from './scenario';

export const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** Inside the project (and gitignored), so the helper bundles resolve node_modules like dist/ does. */
const HELPERS_DIR = path.join(ROOT, '.tmp', 'bench');

export interface Bundles {
  app: string;
  floor: string;
  receiver: string;
}

/** dist/wallet-loyalty.mjs rebuilt if stale (what `npm start` runs) or the given one, and the helpers. */
export async function buildBundles(appBundle?: string): Promise<Bundles> {
  const app = appBundle ?? (await freshBundle());
  await build({
    absWorkingDir: ROOT,
    entryPoints: { 'floor-server': 'bench/floor-server.ts', receiver: 'bench/receiver.ts' },
    outdir: HELPERS_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  });
  return { app, floor: path.join(HELPERS_DIR, 'floor-server.mjs'), receiver: path.join(HELPERS_DIR, 'receiver.mjs') };
}

// However the bench ends (done, failed, interrupted, past its deadline), no server outlives it.
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds a process has used so far, user and system (Linux /proc; 0 where it is missing).
 * Includes its worker threads, so the server's checkpoint thread counts against it; with
 * `mainThread`, only its main thread's (the one that answers the requests and limits the rate).
 */
export function cpuSecondsOf(pid: number, mainThread = false): number {
  try {
    // Fields after the command name (which may hold spaces, hence from the last ')'): utime is the 12th, stime the 13th.
    const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second on every architecture Node runs on. */
const CLOCK_TICKS = 100;

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

export interface AppProcess {
  url: string;
  pid: number;
  dataDir: string;
  dbFile: string;
  logFile: string;
  /** Process start → first successful request, ms. */
  coldStartMs: number;
  memory(): { rss: number; peak: number };
  cpuSeconds(): number;
  /** Its main thread's alone. */
  mainThreadCpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * The V8 flags `npm start` gives the server (package.json, the one place they are written): a
 * young generation of 4 MB semi-spaces and an old generation held to 128 MB (without them V8 lets
 * the heap grow to some 150 MB under a write load before it collects), and one V8 helper thread
 * for background GC and compilation instead of one per core (each keeps its own malloc arena: 6 MB
 * less RSS under the earn load, the same throughput; issue 13's measurements).
 */
export const SERVER_NODE_FLAGS: string[] = (() => {
  const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const match = /exec node ((?:--\S+ )*)dist\/wallet-loyalty\.mjs serve/.exec(start);
  if (!match) throw new Error(`bench: cannot read the server's node flags from the start script: ${start}`);
  return match[1]!.split(' ').filter(Boolean);
})();

/** The settings the bench runs the server with: the operator's defaults, the rate limits raised out of the way. */
export const BENCH_ENV = { HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_LIVE: '100000', RATE_LIMIT_TEST: '100000', RATE_LIMIT_ANONYMOUS: '100000' };

/**
 * Starts `node <npm start's flags> <bundle> serve` on a data folder and waits for its first successful answer to
 * `probe` (a key-authenticated read once the folder is seeded): that wait is the cold start.
 */
export async function startApp(
  bundle: string,
  dataDir: string,
  probe: { path: string; headers?: Record<string, string> },
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<AppProcess> {
  const port = await freePort();
  const logFile = path.join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  const started = performance.now();
  const child = track(spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, bundle, 'serve'], {
    env: childEnv({ ...BENCH_ENV, DATA_DIR: dataDir, PORT: String(port), ...env }),
    stdio: ['ignore', log, log],
  }));
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  let ready: number;
  try {
    ready = await firstSuccess(url + probe.path, probe.headers ?? {}, child, 30_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}; see ${logFile}`);
  }
  return {
    url,
    pid: child.pid!,
    dataDir,
    dbFile: path.join(dataDir, 'wallet-loyalty.db'),
    logFile,
    coldStartMs: ready - started,
    memory: () => memoryOf(child.pid!),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    mainThreadCpuSeconds: () => cpuSecondsOf(child.pid!, true),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** `wallet-loyalty seed` with the bench's seed file, as an operator seeds: the CLI, in its own process. */
export async function seedWithCli(bundle: string, dataDir: string): Promise<BenchOrg> {
  const file = path.join(dataDir, 'bench-seed.json');
  writeFileSync(file, JSON.stringify(BENCH_SEED));
  const { stdout } = await promisify(execFile)(process.execPath, [bundle, 'seed', file, '--data', dataDir], { env: childEnv(BENCH_ENV) });
  return (JSON.parse(stdout) as { orgs: BenchOrg[] }).orgs[0]!;
}

/** What the bench sends each floor (bench/floor-server.ts), and the status it answers. */
export const FLOOR_REQUESTS: Record<'read' | 'write', { name: string; status: number; next(): LoadRequest }> = {
  read: { name: 'bare Koa JSON GET (floor)', status: 200, next: () => ({ method: 'GET', path: '/' }) },
  write: {
    name: 'Koa + JSON body + one SQLite WAL write transaction (floor)',
    status: 201,
    next: () => ({ method: 'POST', path: '/', headers: { 'Content-Type': 'application/json' }, body: '{"customer":"floor","amount":4.5,"currency":"EUR"}' }),
  },
};

export interface FloorProcess {
  url: string;
  memory(): { rss: number; peak: number };
  cpuSeconds(): number;
  mainThreadCpuSeconds(): number;
  stop(): Promise<void>;
}

export async function startFloor(script: string, mode: 'read' | 'write', dataDir: string): Promise<FloorProcess> {
  const child = track(spawn(process.execPath, [script, mode, dataDir], { env: childEnv({}), stdio: ['ignore', 'pipe', 'inherit'] }));
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
    memory: () => memoryOf(child.pid!),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    mainThreadCpuSeconds: () => cpuSecondsOf(child.pid!, true),
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

export interface ReceiverProcess {
  url: string;
  command(command: ReceiverCommand): Promise<ReceiverMessage>;
  stop(): Promise<void>;
}

export async function startReceiver(script: string): Promise<ReceiverProcess> {
  const child = track(fork(script, [], { env: childEnv({}), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the receiver exited (code ${code})`)));
    child.once('message', (m: ReceiverMessage) => (m.type === 'ready' ? resolve(m.url) : reject(new Error('unexpected receiver message'))));
  });
  child.removeAllListeners('exit');
  // One command at a time: each answer belongs to the command before it.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    url,
    command(command) {
      const answer = queue.then(
        () =>
          new Promise<ReceiverMessage>((resolve) => {
            child.once('message', resolve);
            child.send(command);
          }),
      );
      queue = answer;
      return answer;
    },
    async stop() {
      child.disconnect();
      await exited(child);
    },
  };
}
