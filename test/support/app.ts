import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type Db } from '../../src/db/open';
import { createApp, createHttpServer } from '../../src/http/app';
import { changeHooks } from '../../src/main';
import type { AfterCommitHooks, AppDeps } from '../../src/deps';
import type { Logger } from '../../src/lib/log';
import { applySeed, hashSeedPasswords, parseSeedFile, type SeedResult } from '../../src/seed/service';
import { setHashCostForTests } from '../../src/lib/password';
import { createFakeClock, noAfterCommit, silentLogger, type FakeClock } from './fakes';

// Admin passwords in tests that run the app in their own process: scrypt at N=2^10 (a millisecond)
// instead of the production cost (half a second of a core per hash, and every sign-in hashes), so
// the console's tests can sign in as often as they need. Only the cost differs: the same scrypt,
// the same format, the same checks. The tests of the cost itself (seed.test.ts) and of sign-ins
// racing their hashes (sign-in-flood.test.ts) set the production cost back; the CLI's processes
// never see this.
export const TEST_HASH_COST = { N: 2 ** 10, r: 8, p: 1 } as const;
setHashCostForTests(TEST_HASH_COST);

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: any;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is (no JSON encoding) — for malformed-body tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  url: string;
  deps: AppDeps;
  db: Db;
  clock: FakeClock;
  config: Readonly<Config>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  seed(file: unknown): SeedResult;
  /** Like seed, for files with admins: their passwords are hashed first (scrypt, async). */
  seedWithAdmins(file: unknown): Promise<SeedResult>;
  close(): Promise<void>;
}

/**
 * A fresh database file and createApp(deps) on a real socket (port 0): tests speak the same wire
 * a client does. The clock is fake; move it with `clock.advance`. Features are wired to each
 * other as main.ts wires them (changeHooks); only the after-commit wake-ups can be chosen.
 */
export async function startTestApp(options: { env?: Record<string, string>; afterCommit?: Partial<AfterCommitHooks>; log?: Logger } = {}): Promise<TestApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wl-test-'));
  // Generous default limits so only the rate-limit tests meet them.
  const config = loadConfig({ DATA_DIR: dir, RATE_LIMIT_LIVE: '1000', RATE_LIMIT_TEST: '1000', RATE_LIMIT_ANONYMOUS: '1000', ...options.env });
  const db = openDatabase(config.dbFile);
  const clock = createFakeClock();
  const deps: AppDeps = { db, clock, log: options.log ?? silentLogger, config, afterCommit: { ...noAfterCommit, ...options.afterCommit }, onChange: changeHooks() };
  const app = createApp(deps);
  const server: Server = await new Promise((resolve) => {
    // The production server (createHttpServer), so its own refusals are tested as operators get them.
    const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    deps,
    db,
    clock,
    config,
    async request(method, requestPath, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers['X-Api-Key'] = opts.key;
      let body: string | undefined;
      if (opts.rawBody !== undefined) body = opts.rawBody;
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(url + requestPath, { method, headers, body });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, text, body: parsed };
    },
    seed(file) {
      return applySeed(deps, parseSeedFile(file));
    },
    async seedWithAdmins(file) {
      const parsed = parseSeedFile(file);
      return applySeed(deps, parsed, await hashSeedPasswords(parsed));
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** For tests that run one scheduled job: the workers the job list drives, doing nothing. */
export const NO_WORKERS = { webhooks: { sweep: () => 0 }, passUpdates: { wake: () => {} }, mail: { sweep: () => 0 }, messages: { sweep: () => 0 } };

/** One org with a card of every type and keys of every kind: the usual starting point. */
export const STANDARD_SEED = {
  orgs: [
    {
      name: 'Test Café',
      cards: [
        {
          ref: 'stamps',
          name: 'Coffee stamps',
          passType: 'stamp_card',
          reward: { name: 'Free coffee', cost: 10 },
          accrual: { items: { latte: 1, cake: 2 } },
          dataCollectionEnabled: true,
          questions: [
            { key: 'memberNo', label: 'Member number', type: 'number', required: true },
            { key: 'size', label: 'Cup size', type: 'select', options: [{ value: 'S', label: 'Small' }, { value: 'L', label: 'Large' }] },
            { key: 'nickname', label: 'Nickname', type: 'text' },
            { key: 'birthday', label: 'Birthday', type: 'date' },
            { key: 'newsletter', label: 'Newsletter', type: 'checkbox' },
            { key: 'altEmail', label: 'Other email', type: 'email', required: true },
            { key: 'altPhone', label: 'Other phone', type: 'phone' },
          ],
        },
        { ref: 'points', name: 'Points', passType: 'point_card', reward: { name: 'Voucher', cost: 100 }, accrual: { spend: { currency: 'EUR', rate: 1.5 } } },
        { ref: 'levels', name: 'Club', passType: 'level_card', levels: [{ name: 'Bronze', minPoints: 0 }, { name: 'Silver', minPoints: 100 }, { name: 'Gold', minPoints: 500 }] },
        { ref: 'prepaid', name: 'Gift card', passType: 'prepaid_card', accrual: { spend: { currency: 'EUR', rate: 0.05 } } },
      ],
      keys: [
        { deviceName: 'live', mode: 'live' },
        { deviceName: 'test', mode: 'test' },
        { deviceName: 'legacy', legacy: true },
        { deviceName: 'reader', mode: 'live', scopes: ['customers:read'] },
      ],
    },
  ],
};

export interface StandardOrg {
  orgId: string;
  cards: { stamps: string; points: string; levels: string; prepaid: string };
  keys: { live: string; test: string; legacy: string; reader: string };
}

/** Seeds STANDARD_SEED (as a new org each call) and names its ids. */
export function seedStandardOrg(app: TestApp, name = 'Test Café'): StandardOrg {
  return standardOrgIds(app.seed({ orgs: [{ ...STANDARD_SEED.orgs[0], name }] }).orgs[0]!);
}

/** The ids of a seeded STANDARD_SEED org, by their refs and device names. */
export function standardOrgIds(org: SeedResult['orgs'][number]): StandardOrg {
  const card = (ref: string) => org.cards.find((c) => c.ref === ref)!.cardId;
  const key = (deviceName: string) => org.keys.find((k) => k.deviceName === deviceName)!.key;
  return {
    orgId: org.orgId,
    cards: { stamps: card('stamps'), points: card('points'), levels: card('levels'), prepaid: card('prepaid') },
    keys: { live: key('live'), test: key('test'), legacy: key('legacy'), reader: key('reader') },
  };
}
