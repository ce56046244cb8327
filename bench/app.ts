// One server under test: a data folder seeded with the CLI, the bundled server started on it, one
// webhook endpoint registered on the bench's receiver and a pool of customers enrolled, all over
// the API; and a read-only view of its webhook queue in the database file (the API lists an
// endpoint's recent deliveries, not how many are still to send), to know when a backlog is gone.
import { mkdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { seedWithCli, startApp, type AppProcess } from './processes';
import { jsonRequest, type BenchApp } from './scenarios';

/** Customers enrolled before the load, for the reads and the earns (one request never waits on another's row). */
const POOL = 1000;

export interface AppUnderTest {
  label: string;
  process: AppProcess;
  bench: BenchApp;
  /** Deliveries not yet delivered. */
  pendingDeliveries(): number;
  /** Resolves with the ms it took until no delivery is pending (or rejects after `timeoutMs`). */
  queueEmpty(timeoutMs?: number): Promise<number>;
  /** Turns the bench's webhook endpoint on or off (a disabled endpoint is sent nothing, and no delivery is written for it). */
  setWebhook(status: 'active' | 'disabled'): Promise<void>;
  /** Stops the server and starts it again on the same folder; resolves with the new cold start. */
  restart(): Promise<number>;
  stop(): Promise<void>;
}

async function call(url: string, key: string, method: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const req = jsonRequest(method, path, key, body);
  const res = await fetch(url + path, { method, headers: req.headers, body: req.body });
  const text = await res.text();
  return { status: res.status, body: text };
}

export async function setUpApp(setup: { label: string; bundle: string; dataDir: string; receiverUrl: string; cgroupProcs?: string }): Promise<AppUnderTest> {
  mkdirSync(setup.dataDir, { recursive: true });
  const org = await seedWithCli(setup.bundle, setup.dataDir);
  const liveKey = org.keys.find((k) => k.deviceName === 'bench live')!.key;
  const probe = { path: '/api/v1/cards', headers: { 'X-Api-Key': liveKey } };
  let server = await startApp(setup.bundle, setup.dataDir, probe, setup.cgroupProcs);

  const tag = `${setup.label.replace(/[^A-Za-z0-9]+/g, '-')}-${Date.now().toString(36)}`;
  const cardId = (ref: 'stamps' | 'points' | 'promoted') => org.cards.find((c) => c.ref === ref)!.cardId;
  const hook = await call(server.url, liveKey, 'POST', '/api/v1/webhooks', { url: setup.receiverUrl, events: ['*'] });
  if (hook.status !== 201) throw new Error(`registering the webhook endpoint answered ${hook.status}: ${hook.body}`);
  const webhookId = (JSON.parse(hook.body as string) as { id: string }).id;
  // Three promotions running on every day of the run (its dates on either side of today, whatever the shop's zone), all applying to each earn.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (const promotion of [
    { name: 'Double points', kind: 'multiplier', value: 2 },
    { name: 'A third more', kind: 'multiplier', value: 1.3 },
    { name: 'Visit bonus', kind: 'bonus', value: 1 },
  ]) {
    const res = await call(server.url, liveKey, 'POST', `/api/v1/cards/${cardId('promoted')}/promotions`, { ...promotion, startsAt: day(-2), endsAt: day(365) });
    if (res.status !== 201) throw new Error(`creating a promotion answered ${res.status}: ${res.body}`);
  }
  const enrollPool = async (prefix: string, ref: 'points' | 'promoted') => {
    const ids = Array.from({ length: POOL }, (_, i) => `${prefix}-${tag}-${i}`);
    for (let i = 0; i < ids.length; i += 20) {
      await Promise.all(
        ids.slice(i, i + 20).map(async (id) => {
          const res = await call(server.url, liveKey, 'POST', '/api/v1/customers', { externalCustomerId: id, cardId: cardId(ref), email: `${id}@bench.example` });
          if (res.status !== 201) throw new Error(`enrolling ${id} answered ${res.status}: ${res.body}`);
        }),
      );
    }
    return ids;
  };
  const customers = await enrollPool('pool', 'points');
  const promotedCustomers = await enrollPool('promoted', 'promoted');
  // What the measured earns do: all three promotions apply (2 × 1.3, then + 1).
  const check = await call(server.url, liveKey, 'POST', `/api/v1/customers/${promotedCustomers[0]}/earn`, { type: 'points', amount: 10 });
  const applied = check.status === 201 ? (JSON.parse(check.body as string) as { promotionIds?: string[]; change?: number }) : null;
  if (applied?.promotionIds?.length !== 3 || applied.change !== 27) throw new Error(`an earn on the promoted card answered ${check.status}: ${check.body}`);

  // Read-only, a statement at a time: it never holds a snapshot that keeps the server's WAL from being checkpointed.
  const db = new Database(server.dbFile, { readonly: true, fileMustExist: true });
  const pending = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
  const pendingDeliveries = () => pending.get()!.n;

  return {
    label: setup.label,
    get process() {
      return server;
    },
    bench: { tag, liveKey, cardId, customers, promotedCustomers },
    pendingDeliveries,
    async queueEmpty(timeoutMs = 180_000) {
      const started = performance.now();
      while (pendingDeliveries() > 0) {
        if (performance.now() - started > timeoutMs) throw new Error(`${setup.label}: webhook deliveries still pending after ${timeoutMs / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return performance.now() - started;
    },
    async setWebhook(status) {
      const res = await call(server.url, liveKey, 'PATCH', `/api/v1/webhooks/${webhookId}`, { status });
      if (res.status !== 200) throw new Error(`setting the webhook endpoint ${status} answered ${res.status}: ${res.body}`);
    },
    async restart() {
      await server.stop();
      server = await startApp(setup.bundle, setup.dataDir, probe, setup.cgroupProcs);
      return server.coldStartMs;
    },
    async stop() {
      db.close();
      await server.stop();
    },
  };
}
