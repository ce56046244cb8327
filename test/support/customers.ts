import type { Db } from '../../src/db/open';
import type { Customer } from '../../src/customers/model';
import { customersRepo } from '../../src/customers/repo';
import { normalizeEmail, normalizePhone } from '../../src/lib/contact';
import { newId, randomToken } from '../../src/lib/ids';
import { ledgerRepo } from '../../src/loyalty/repo';
import { webhooksRepo } from '../../src/webhooks/repo';
import type { TestApp, TestResponse } from './app';

/** POST /api/v1/customers with a key, optionally under an Idempotency-Key. */
export function enroll(app: TestApp, key: string, body: Record<string, unknown>, idempotencyKey?: string): Promise<TestResponse> {
  return app.request('POST', '/api/v1/customers', { key, body, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} });
}

export interface TablesSnapshot {
  customers: unknown[];
  transactions: unknown[];
  events: unknown[];
  deliveries: unknown[];
}

/** Every row a customer write could touch, so "nothing written" is a deepEqual of two snapshots. */
export function snapshot(db: Db): TablesSnapshot {
  const all = (table: string, order = 'rowid') => db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();
  // Deliveries are stored in the order of their id (a table without row numbers).
  return { customers: all('customers'), transactions: all('transactions'), events: all('events'), deliveries: all('webhook_deliveries', 'id') };
}

export function count(db: Db, table: 'customers' | 'transactions' | 'events' | 'webhook_deliveries', where = '1 = 1', ...params: unknown[]): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;
}

/**
 * A customer written straight through the repo: the prepared state for what the API alone cannot
 * produce, such as two customers of one card sharing an email (the sign-up form and the counter
 * can create those; enroll would match the first). An opening balance (hundredths) is written
 * with its `initial` ledger row, so balance == ledger sum, as enrollment leaves it.
 */
export function insertCustomer(
  app: TestApp,
  input: { orgId: string; cardId: string; livemode?: boolean; externalId?: string | null; name?: string | null; email?: string | null; phone?: string | null; balance?: number },
): Customer {
  const now = app.clock.now();
  const balance = input.balance ?? 0;
  const customer: Customer = {
    id: randomToken(24),
    orgId: input.orgId,
    cardId: input.cardId,
    livemode: input.livemode ?? true,
    externalId: input.externalId ?? null,
    name: input.name ?? null,
    email: input.email ?? null,
    emailNorm: normalizeEmail(input.email),
    phone: input.phone ?? null,
    phoneNorm: normalizePhone(input.phone),
    customFields: {},
    status: 'pending_install',
    source: 'api',
    installCode: randomToken(32),
    scanCode: randomToken(24),
    balance,
    lastAwardAt: null,
    passVersion: 1,
    passUpdatedAt: now,
    consentSha256: null,
    consentAt: null,
    createdAt: now,
    updatedAt: now,
    erasedAt: null,
    language: null,
  };
  app.db.transaction(() => {
    customersRepo(app.db).insert(customer);
    if (balance === 0) return;
    ledgerRepo(app.db).insert({
      id: newId('tx'), orgId: customer.orgId, customerId: customer.id, livemode: customer.livemode, kind: 'initial', change: balance,
      balanceAfter: balance, isAward: false, source: 'api', staffId: null, note: null, idempotencyKey: null, details: null, createdAt: now,
    });
  })();
  return customer;
}

/** An active endpoint subscribed to everything, so events get delivery rows (the webhooks API is another feature). */
export function insertWebhook(app: TestApp, orgId: string, livemode: boolean): string {
  const id = `we_${randomToken(20)}`;
  const now = app.clock.now();
  // Through the repo, whose cache of subscribers hears of it.
  webhooksRepo(app.db).insert({ id, orgId, livemode, url: 'http://127.0.0.1:9/hook', events: ['*'], status: 'active', secret: 'whsec_test', createdAt: now, updatedAt: now });
  return id;
}

/**
 * An endpoint of each of the org's modes, taking every event (never sent to: no worker runs). Only
 * an event an endpoint takes is stored, so a test that reads what an operation emitted (eventsOf,
 * ledgerState) subscribes first, as an integrator does.
 */
export function subscribeToEvery(app: TestApp, orgId: string): void {
  insertWebhook(app, orgId, true);
  insertWebhook(app, orgId, false);
}

/** The customer's events, oldest first, with the envelope parsed. */
export function eventsOf(db: Db, customerId: string): { type: string; livemode: boolean; envelope: any }[] {
  const rows = db.prepare('SELECT type, livemode, payload FROM events WHERE customer_id = ? ORDER BY rowid').all(customerId) as { type: string; livemode: number; payload: string }[];
  return rows.map((r) => ({ type: r.type, livemode: r.livemode === 1, envelope: JSON.parse(r.payload) }));
}

export function ledgerOf(db: Db, customerId: string): { kind: string; change: number; balanceAfter: number; isAward: boolean; source: string; idempotencyKey: string | null }[] {
  const rows = db.prepare('SELECT kind, change, balance_after, is_award, source, idempotency_key FROM transactions WHERE customer_id = ? ORDER BY rowid').all(customerId) as {
    kind: string; change: number; balance_after: number; is_award: number; source: string; idempotency_key: string | null;
  }[];
  return rows.map((r) => ({ kind: r.kind, change: r.change, balanceAfter: r.balance_after, isAward: r.is_award === 1, source: r.source, idempotencyKey: r.idempotency_key }));
}
