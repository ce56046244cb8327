// One server under test: a data folder seeded with the CLI (optionally filled with N customers),
// the bundled server started on it, one webhook endpoint registered on the bench's receiver, and
// a read-only view of its webhook queue (to know when the backlog is gone).
import { mkdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { fillCustomers } from './fill';
import { seedWithCli, startApp, type AppProcess } from './processes';
import { BENCH_SEED, type BenchApp, type CallResult } from './scenario';

export interface AppUnderTest {
  label: string;
  process: AppProcess;
  bench: BenchApp;
  /** Deliveries not yet delivered (pending), read from the server's database. */
  pendingDeliveries(): number;
  /** Resolves with the ms it took until no delivery is pending (or rejects after `timeoutMs`). */
  queueEmpty(timeoutMs?: number): Promise<number>;
  /** Stops the server and starts it again on the same folder; resolves with the new cold start. */
  restart(): Promise<number>;
  stop(): Promise<void>;
}

export interface AppSetup {
  label: string;
  bundle: string;
  dataDir: string;
  receiverUrl: string;
  customers: number;
  /** Extra node options for the server (e.g. --cpu-prof). */
  nodeArgs?: string[];
  log(message: string): void;
}

export async function setUpApp(setup: AppSetup): Promise<AppUnderTest> {
  mkdirSync(setup.dataDir, { recursive: true });
  const org = await seedWithCli(setup.bundle, setup.dataDir);
  if (setup.customers > 0) {
    const started = performance.now();
    fillCustomers(setup.dataDir, org, setup.customers, (done) => {
      if (done % 100_000 === 0 || done === setup.customers) setup.log(`  ${setup.label}: ${done.toLocaleString('en-US')} customers`);
    });
    setup.log(`  ${setup.label}: filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const liveKey = org.keys.find((k) => k.deviceName === 'bench live')!.key;
  const probe = { path: '/api/v1/cards', headers: { 'X-Api-Key': liveKey } };
  let process = await startApp(setup.bundle, setup.dataDir, probe, {}, setup.nodeArgs);

  const bench: BenchApp = {
    url: process.url,
    org,
    seed: BENCH_SEED,
    tag: `${setup.label.replace(/[^A-Za-z0-9]+/g, '-')}-${Date.now().toString(36)}`,
    liveKey,
    cardId: (ref) => org.cards.find((c) => c.ref === ref)!.cardId,
    async call(method, path, options = {}): Promise<CallResult> {
      const res = await fetch(bench.url + path, {
        method,
        headers: { 'X-Api-Key': options.key ?? liveKey, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: keep the text.
      }
      return { status: res.status, headers: res.headers, body };
    },
  };
  const hook = await bench.call('POST', '/api/v1/webhooks', { body: { url: setup.receiverUrl, events: ['*'] } });
  if (hook.status !== 201) throw new Error(`registering the webhook endpoint answered ${hook.status}: ${JSON.stringify(hook.body)}`);

  // Read-only, a statement at a time: it never holds a snapshot the server's checkpoints wait for.
  const db = new Database(process.dbFile, { readonly: true, fileMustExist: true });
  const pending = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
  const pendingDeliveries = () => pending.get()!.n;

  return {
    label: setup.label,
    get process() {
      return process;
    },
    bench,
    pendingDeliveries,
    async queueEmpty(timeoutMs = 180_000) {
      const started = performance.now();
      while (pendingDeliveries() > 0) {
        if (performance.now() - started > timeoutMs) throw new Error(`${setup.label}: webhook deliveries still pending after ${timeoutMs / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return performance.now() - started;
    },
    async restart() {
      await process.stop();
      process = await startApp(setup.bundle, setup.dataDir, probe, {}, setup.nodeArgs);
      bench.url = process.url;
      return process.coldStartMs;
    },
    async stop() {
      db.close();
      await process.stop();
    },
  };
}
