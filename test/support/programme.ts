import assert from 'node:assert/strict';
import { enrollCustomer } from '../../src/loyalty/enroll';
import type { Lang } from '../../src/i18n/langs';
import { serverJobs } from '../../src/jobs/list';
import { writeOrgSettings } from '../../src/orgs/settings';
import { NO_WORKERS, type TestApp } from './app';

// Helpers of the expiry, birthday and test-clock tests: the API calls they make again and again,
// the hourly job as the server runs it, and what the outbox wrote.

const DAY = 86_400_000;
export const days = (n: number) => n * DAY;

/** The shop's time zone (the console's business settings). */
export function setTimeZone(app: TestApp, orgId: string, timeZone: string): void {
  app.db.transaction(() => writeOrgSettings(app.db, orgId, { timeZone }))();
}

/** The loyalty sweeps' job, run once as the scheduler runs it. */
export async function runSweepJob(app: TestApp): Promise<unknown> {
  const job = serverJobs(app.deps, NO_WORKERS).find((j) => j.name === 'loyalty-sweeps');
  assert.ok(job, 'the job list has the loyalty sweeps');
  return job.run();
}

export function api(app: TestApp, key: string) {
  const call = async (method: string, path: string, body?: unknown, status?: number) => {
    const res = await app.request(method, `/api/v1${path}`, { key, body });
    if (status !== undefined) assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
    return res;
  };
  return {
    call,
    async enroll(cardId: string, externalCustomerId: string, extra: Record<string, unknown> = {}) {
      return (await call('POST', '/customers', { externalCustomerId, cardId, ...extra }, 201)).body as { passUserId: string; installUrl: string };
    },
    earn: async (ref: string, type: 'points' | 'stamps', amount: number) => (await call('POST', `/customers/${ref}/earn`, { type, amount }, 201)).body,
    redeem: async (ref: string, amount: number) => (await call('POST', `/customers/${ref}/redeem`, { type: 'points', amount }, 201)).body,
    read: async (ref: string) => (await call('GET', `/customers/${ref}`, undefined, 200)).body,
    history: async (ref: string) => (await call('GET', `/customers/${ref}/transactions?limit=100`, undefined, 200)).body.data as { kind: string; change: number; source: string; createdAt: string; balanceAfter: number }[],
    patchCard: async (cardId: string, body: unknown, status = 200) => (await call('PATCH', `/cards/${cardId}`, body, status)).body,
  };
}

/** Events the outbox wrote for a customer, oldest first. */
export function eventsOf(app: TestApp, customerId: string): { type: string; data: Record<string, any> }[] {
  const rows = app.db.prepare('SELECT type, payload FROM events WHERE customer_id = ? ORDER BY created_at, rowid').all(customerId) as { type: string; payload: string }[];
  return rows.map((r) => ({ type: r.type, data: JSON.parse(r.payload).data }));
}

/** A customer who agreed on the sign-up form (their consent is recorded), through the sign-up form's service call. */
export function enrollWithConsent(app: TestApp, n: { orgId: string; livemode: boolean }, cardId: string, fields: { name: string; email: string; customFields?: Record<string, unknown>; language?: Lang }) {
  return enrollCustomer(app.deps, n, { cardId, name: fields.name, email: fields.email, customFields: fields.customFields, consent: { text: 'I agree.' }, language: fields.language ?? null }, { channel: 'signup', idempotencyKey: null });
}

/** The lines the customer's web pass shows under the balance. */
export async function passDetails(app: TestApp, installUrl: string): Promise<{ key: string; label: string; value: string }[]> {
  const code = new URL(installUrl).searchParams.get('code')!;
  const res = await app.request('GET', `/pass/${code}/balance`);
  assert.equal(res.status, 200, res.text);
  return res.body.details;
}
