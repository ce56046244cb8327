import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { DEFAULT_CHECKPOINTS, handOverCheckpoints, takeBackCheckpoints, type CheckpointOptions } from '../db/checkpoints';
import type { Db } from '../db/open';
import { afterStart, AFTER_START_MS } from '../lib/after-start';
import { embeddedAsset } from '../lib/embedded-assets';
import type { Logger } from '../lib/log';
import { createThreadSender, type ThreadSender } from '../webhooks/thread-sender';
import type { WebhookSender } from '../webhooks/send';
import type { FromThread, ThreadData, ToThread } from './messages';

/**
 * One thread beside the server's, for the work that needs no answer from its event loop:
 * - the WAL checkpoints (db/checkpoints.ts says why);
 * - the webhook attempts' HTTP. The server's thread answers the API and is what limits its rate
 *   under load, while the other core was more than half idle; a webhook request and its
 *   answer were over a quarter of an earn's CPU (issue 13: 0.73 of it with no request sent at
 *   all). The server's thread still claims the deliveries, signs them and records their attempts,
 *   in its own transactions (webhooks/worker.ts): the rows stay where the queue's guarantees are.
 * One thread for both, not one each: a thread boots its own Node, some 10 MB more.
 *
 * Like db/, this module and entry.ts bring a database and a feature together, as main.ts does.
 */
export interface BackgroundThread {
  /** Webhook attempts: through the thread while it runs, in this thread before it starts and if it fails. */
  webhookSender: WebhookSender;
  stop(): Promise<void>;
}

export interface BackgroundOptions extends Partial<CheckpointOptions> {
  /** How long after the start the thread begins (lib/after-start.ts). */
  delayMs?: number;
  /** Sends the attempts while no thread runs (by default send.ts's, in this thread). */
  localSender?: WebhookSender;
}

/**
 * The background thread, begun `delayMs` from now. Until then the connection checkpoints on its
 * own and attempts are sent from this thread, as when the thread fails: a start's first second
 * writes little.
 */
export function startBackgroundThread(db: Db, file: string, log: Logger, options: BackgroundOptions = {}): BackgroundThread {
  const webhookSender = createThreadSender(options.localSender);
  // An in-memory database has no WAL and no file another connection could open.
  if (file === ':memory:') return { webhookSender, stop: async () => webhookSender.close() };
  const { intervalMs = DEFAULT_CHECKPOINTS.intervalMs, restartPages = DEFAULT_CHECKPOINTS.restartPages, delayMs = AFTER_START_MS } = options;
  let thread: { stop(): Promise<void> } | undefined;
  const wait = afterStart(() => {
    if (!db.open) return;
    try {
      thread = startThread({ db, log, webhookSender, data: { checkpoints: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, intervalMs, restartPages } } });
    } catch (err) {
      log.error('the background thread did not start; the server checkpoints and sends webhooks itself', { err });
    }
  }, delayMs);
  return {
    webhookSender,
    async stop() {
      wait.cancel();
      await thread?.stop();
      webhookSender.close();
    },
  };
}

function startThread(input: { db: Db; log: Logger; webhookSender: ThreadSender; data: ThreadData }): { stop(): Promise<void> } {
  const { db, log, webhookSender } = input;
  // Its JavaScript is a timer, one statement and an HTTP client with a few requests in flight: a
  // small heap keeps the thread's memory small.
  const restoreFlags = heapFlagsForNextThread(THREAD_SEMI_SPACE_MB, THREAD_OLD_SPACE_MB);
  const worker = new Worker(embeddedAsset('background-thread.js').text(), {
    eval: true,
    workerData: input.data,
    // V8's young generation: two semi-spaces and a space for large new objects.
    resourceLimits: { maxYoungGenerationSizeMb: 3 * THREAD_SEMI_SPACE_MB, maxOldGenerationSizeMb: THREAD_OLD_SPACE_MB },
  });
  // Online, its heap is made; an error or an exit before that ends the wait as well.
  worker.once('online', restoreFlags);
  handOverCheckpoints(db, input.data.checkpoints.restartPages);
  let stopping = false;
  let ended = false;
  const send = (message: ToThread) => worker.postMessage(message);
  worker.on('message', (message: FromThread) => webhookSender.receive(message.webhooks));
  webhookSender.attach((orders) => send({ webhooks: orders }));
  // An error ends the thread ('error', then 'exit'); so does stop().
  const end = (err?: Error) => {
    restoreFlags();
    if (ended) return;
    ended = true;
    webhookSender.detach();
    takeBackCheckpoints(db);
    if (!stopping) log.error('the background thread failed; the server checkpoints and sends webhooks itself again', err ? { err } : {});
  };
  worker.once('error', end);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      end();
      resolve();
    }),
  );
  // It never keeps the process alive by itself (after its listeners: adding one may hold it again).
  worker.unref();
  return {
    async stop() {
      stopping = true;
      // Held again while it finishes: an unreferenced thread would let the process end (exit code
      // 13, a top-level await never settled) before the last checkpoint and the close.
      worker.ref();
      send({ stop: true });
      await exited;
    },
  };
}

const THREAD_SEMI_SPACE_MB = 1;
const THREAD_OLD_SPACE_MB = 8;

/**
 * V8's flags are the process's, and a flag outranks a thread's resourceLimits: with npm start's
 * --max-semi-space-size=4 and --max-old-space-size=128 the thread's heap grew to 18 MB under a
 * webhook load, 5 of them live (issue 13). A heap takes the flags when its isolate is made, so they
 * are set for the thread's and put back once it is made: V8 also checks them against the code
 * cache (lib/code-cache.ts), which a server writes after its start, and a cache written under other
 * flags is refused at the next start. Returns the putting back (once).
 */
function heapFlagsForNextThread(semiSpaceMb: number, oldSpaceMb: number): () => void {
  const flags = { 'max-semi-space-size': semiSpaceMb, 'max-old-space-size': oldSpaceMb };
  const set = (values: Record<string, string | number>) => {
    try {
      for (const [name, value] of Object.entries(values)) setFlagsFromString(`--${name}=${value}`);
    } catch {
      // Only memory is at stake.
    }
  };
  const original = Object.fromEntries(Object.keys(flags).map((name) => [name, startFlag(name) ?? '0']));
  set(flags);
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    set(original);
  };
}

/** A V8 flag's value as the process was started with it (0, V8's "not set", when it was not). */
function startFlag(name: string): string | undefined {
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const pattern = new RegExp(`^--${name.replace(/-/g, '[-_]')}(?:=(.*))?$`);
  let value: string | undefined;
  args.forEach((arg, i) => {
    const match = pattern.exec(arg);
    if (match) value = match[1] ?? args[i + 1];
  });
  return value;
}
