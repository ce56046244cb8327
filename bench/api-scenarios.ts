// The API's hot paths: what an integration (a till, a shop) calls all day.
import { jsonRequest, type BenchApp, type Scenario } from './scenario';

/** Customers each app instance enrolls for the reads and the earns (one request never waits on another's row). */
const POOL = 1000;

interface Pool {
  /** externalCustomerId of each pool customer; its email is `<id>@bench.example`. */
  ids: string[];
}

/** Enrolls the pool once per app instance; every API scenario shares it. */
const pools = new WeakMap<BenchApp, Promise<Pool>>();
function pool(app: BenchApp): Promise<Pool> {
  let ready = pools.get(app);
  if (!ready) {
    ready = enrollPool(app);
    pools.set(app, ready);
  }
  return ready;
}

async function enrollPool(app: BenchApp): Promise<Pool> {
  const ids = Array.from({ length: POOL }, (_, i) => `pool-${app.tag}-${i}`);
  // 20 at a time: quick, and well inside any limit.
  for (let i = 0; i < ids.length; i += 20) {
    await Promise.all(
      ids.slice(i, i + 20).map(async (id) => {
        const res = await app.call('POST', '/api/v1/customers', { body: { externalCustomerId: id, cardId: app.cardId('points'), email: `${id}@bench.example` } });
        if (res.status !== 201) throw new Error(`enrolling ${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
      }),
    );
  }
  return { ids };
}

const key = (app: BenchApp) => ({ 'X-Api-Key': app.liveKey });
const earnBody = { type: 'points', from: 'spend', spend: { amount: 4.5, currency: 'EUR' } };

export const apiScenarios: Scenario<Pool>[] = [
  {
    name: 'GET /v1/cards',
    floor: 'read',
    expectStatus: 200,
    request: (app) => ({ method: 'GET', path: '/api/v1/cards', headers: key(app) }),
  },
  {
    name: 'GET /v1/customers/{ref}',
    floor: 'read',
    minRatio: 0.5,
    expectStatus: 200,
    prepare: pool,
    request: (app, p, i) => ({ method: 'GET', path: `/api/v1/customers/${p.ids[i % POOL]}`, headers: key(app) }),
  },
  {
    name: 'GET /v1/customers/lookup?email',
    floor: 'read',
    expectStatus: 200,
    prepare: pool,
    request: (app, p, i) => ({ method: 'GET', path: `/api/v1/customers/lookup?email=${encodeURIComponent(`${p.ids[i % POOL]}@bench.example`)}`, headers: key(app) }),
  },
  {
    // The till's call: a ledger row, the balance, a balance.updated event and its webhook delivery.
    name: 'POST earn (webhook endpoint on)',
    floor: 'write',
    minRatio: 0.5,
    expectStatus: 201,
    prepare: pool,
    request: (app, p, i) => jsonRequest('POST', `/api/v1/customers/${p.ids[i % POOL]}/earn`, app.liveKey, earnBody),
  },
  {
    // The same plus the stored response: a fresh key each time, so every request is a first write.
    name: 'POST earn + Idempotency-Key',
    floor: 'write',
    expectStatus: 201,
    prepare: pool,
    request: (app, p, i) => jsonRequest('POST', `/api/v1/customers/${p.ids[i % POOL]}/earn`, app.liveKey, earnBody, { 'Idempotency-Key': `earn-${app.tag}-${i}` }),
  },
  {
    // A new customer each time: the customer row, its customer.enrolled event and delivery.
    name: 'POST /v1/customers (enroll)',
    floor: 'write',
    expectStatus: 201,
    request: (app, _p, i) =>
      jsonRequest('POST', '/api/v1/customers', app.liveKey, { externalCustomerId: `new-${app.tag}-${i}`, cardId: app.cardId('stamps'), email: `new-${app.tag}-${i}@bench.example` }),
  },
];

/** The earn request the webhook scenarios (drain, change-to-delivery latency) drive. */
export function earnRequest(app: BenchApp, p: Pool, i: number) {
  return jsonRequest('POST', `/api/v1/customers/${p.ids[i % POOL]}/earn`, app.liveKey, earnBody);
}
export { pool as apiPool };
