// The counter under test: an org with staff, customers made through the API (so they are exactly
// what integrators make), and a browser page unlocked with a PIN.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApp, createHttpServer } from '../../src/http/app';
import type { AppDeps } from '../../src/deps';
import { seedConsoleOrg, type ConsoleOrg } from '../support/console';
import type { TestApp } from '../support/app';

export const STAFF = [
  { name: 'Sam', pin: '2468' },
  { name: 'Alex', pin: '1357' },
];

export interface CounterOrg extends ConsoleOrg {
  counterUrl: (base: string) => string;
}

export async function seedCounterOrg(app: TestApp, name = 'Counter Café'): Promise<CounterOrg> {
  const org = await seedConsoleOrg(app, name, undefined, { staff: STAFF });
  return { ...org, counterUrl: (base) => `${base}/counter/${org.orgId}` };
}

/** A customer enrolled through the API; `initial` units as the opening balance. */
export async function apiCustomer(app: TestApp, org: ConsoleOrg, options: { card?: keyof ConsoleOrg['cards']; name?: string; email?: string; initial?: number; test?: boolean } = {}) {
  const externalCustomerId = `crm-${Math.random().toString(36).slice(2, 10)}`;
  const res = await app.request('POST', '/api/v1/customers', {
    key: options.test ? org.keys.test : org.keys.live,
    body: { externalCustomerId, cardId: org.cards[options.card ?? 'stamps'], name: options.name ?? 'Anna Example', email: options.email, ...(options.initial ? { initialPoints: options.initial } : {}) },
  });
  if (res.status !== 201) throw new Error(`enroll failed: ${res.status} ${res.text}`);
  const row = app.db.prepare('SELECT scan_code FROM customers WHERE id = ?').get(res.body.passUserId) as { scan_code: string };
  return { passUserId: res.body.passUserId as string, externalCustomerId, scanCode: row.scan_code };
}

/** Opens the counter in a fresh context and unlocks it with the PIN. */
export async function unlockedCounter(browser: Browser, base: string, org: CounterOrg, options: { pin?: string; width?: number; height?: number; context?: BrowserContext } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = options.context ?? (await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 } }));
  const page = await context.newPage();
  await page.goto(org.counterUrl(base));
  await unlock(page, options.pin ?? STAFF[0]!.pin);
  return { context, page };
}

export async function unlock(page: Page, pin: string): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('heading', { name: 'Find a customer' }).waitFor();
}

/** The app on a port of its own that can be stopped and started again: the same database and clock. */
export async function restartableServer(deps: AppDeps): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> }> {
  const app = createApp(deps);
  let server: Server | null = null;
  let port = 0;
  const start = async () => {
    server = await new Promise<Server>((resolve) => {
      const s = createHttpServer(app).listen(port, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  };
  const stop = async () => {
    const s = server;
    server = null;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  };
  await start();
  return { url: `http://127.0.0.1:${port}`, stop, start, close: stop };
}

export function ledgerRows(app: TestApp, passUserId: string) {
  return app.db
    .prepare('SELECT id, kind, change, source, staff_id AS staffId, idempotency_key AS idempotencyKey, details FROM transactions WHERE customer_id = ? ORDER BY rowid')
    .all(passUserId) as { id: string; kind: string; change: number; source: string; staffId: string | null; idempotencyKey: string | null; details: string | null }[];
}

export function staffId(app: TestApp, orgId: string, name: string): string {
  return (app.db.prepare('SELECT id FROM staff WHERE org_id = ? AND name = ?').get(orgId, name) as { id: string }).id;
}
