import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshBundle } from '../../build.mjs';

// Runs the real `wallet-loyalty` command as a child process, the way an operator does: the bundle
// of the current sources, dist/wallet-loyalty.mjs, as the bin runs it (rebuilt below, once, when a
// source changed since it was built: what runs is always what src/ says), or another `script`.
// A start of the bundle takes a few tenths of a second; the sources through tsx take seconds, since
// tsx transpiles them in every new process, so only the tests of that way of running it use it
// (`source`). The bundle and the bin that runs it have their own tests (build.test.ts, cli.test.ts).

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI_SOURCE = path.join(ROOT, 'src', 'cli.ts');

/** The bundle of the current sources; two test files finding it stale at once build it once (build.mjs). */
export const BUNDLE = await freshBundle();

/** Runs `wallet-loyalty` from the bundle (default), from the sources through tsx, or from `script`. */
export type CliFrom = { script?: string; source?: boolean };

/** Node's arguments to run `wallet-loyalty <args>`: the bundle, the sources through tsx, or `script`. */
export function cliArgv(args: string[], from: CliFrom = {}): string[] {
  return [...(from.script ? [from.script] : from.source ? ['--import', 'tsx', CLI_SOURCE] : [BUNDLE]), ...args];
}

// Operator settings that must not leak in from the machine running the tests.
const SETTINGS = [
  'PORT', 'HOST', 'DATA_DIR', 'PUBLIC_URL', 'INSTALL_BASE_URL', 'LOG_LEVEL', 'DB_SYNCHRONOUS',
  'RATE_LIMIT_LIVE', 'RATE_LIMIT_TEST', 'RATE_LIMIT_ANONYMOUS',
  'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_RETRY_DELAYS_MS', 'WEBHOOK_BLOCK_PRIVATE', 'TRUST_PROXY', 'SMTP_URL', 'MAIL_FROM',
  'BACKUP_HOUR', 'BACKUP_DIR', 'BACKUP_KEEP', 'REPLICATION',
];

export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SETTINGS) delete env[name];
  delete env.NODE_TEST_CONTEXT; // the child is a program, not a test file
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

export function tempDir(prefix = 'wl-cli-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs one command to completion: from the bundle (or the sources, or `script`), or through `npx wallet-loyalty …` (the bin). */
export function runCli(args: string[], options: CliFrom & { env?: Record<string, string>; npx?: boolean } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = options.npx ? ['npx', ['--no-install', 'wallet-loyalty', ...args]] : [process.execPath, cliArgv(args, options)];
    const child = spawn(command, commandArgs, { cwd: ROOT, env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A port that was free a moment ago (the server under test must print it in its curl line). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A long-running `serve`: read its output as it comes, then stop it with a signal. */
export class ServeProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /** `defaultCommand` runs the bare `wallet-loyalty [options]`, which serves too. */
  constructor(args: string[], options: CliFrom & { env?: Record<string, string>; defaultCommand?: boolean } = {}) {
    this.child = spawn(process.execPath, cliArgv([...(options.defaultCommand ? [] : ['serve']), ...args], options), { cwd: ROOT, env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => (this.stdout += d));
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }

  /** Resolves with the first match of `pattern` in stdout; rejects if the process ends first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(this.stdout);
        if (match) {
          this.child.stdout!.off('data', check);
          this.child.off('close', onClose);
          resolve(match);
        }
      };
      const onClose = () => {
        this.child.stdout!.off('data', check);
        reject(new Error(`serve ended before printing ${pattern}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`));
      };
      this.child.stdout!.on('data', check);
      this.child.once('close', onClose);
      check();
    });
  }

  /** The base URL from the "listening on" line. */
  async listening(): Promise<string> {
    return (await this.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
