// What `npm run bench` sends: the seed every bench database starts from, and the API scenarios,
// each compared with a floor (bench/floor-server.ts) measured right before it.

/** The seed file every bench database starts from (applied with the CLI: `wallet-loyalty seed`). */
export const BENCH_SEED = {
  orgs: [
    {
      name: 'Bench Coffee',
      admins: [{ email: 'owner@bench.example', password: 'bench owner password' }],
      staff: [{ name: 'Bench Barista', pin: '4711' }],
      cards: [
        { ref: 'stamps', name: 'Coffee stamps', passType: 'stamp_card', reward: { name: 'Free coffee', cost: 10 }, accrual: { items: { latte: 1 } } },
        { ref: 'points', name: 'Coffee points', passType: 'point_card', reward: { name: 'Voucher', cost: 100 }, accrual: { spend: { currency: 'EUR', rate: 1 } } },
        // The points card again with what a busy programme adds to each earn: per-award expiry (every
        // award a lot) and three promotions running (bench/app.ts creates them).
        {
          ref: 'promoted',
          name: 'Coffee points with promotions',
          passType: 'point_card',
          reward: { name: 'Voucher', cost: 100 },
          accrual: { spend: { currency: 'EUR', rate: 1 } },
          expiry: { months: 12, remindDays: 14 },
        },
      ],
      keys: [{ deviceName: 'bench live', mode: 'live' }],
    },
  ],
} as const;

/** What `wallet-loyalty seed` prints for the bench's org. */
export interface BenchOrg {
  orgId: string;
  cards: { ref: string | null; cardId: string }[];
  keys: { deviceName: string; mode: string; key: string }[];
}

/** One HTTP request of the load, exactly as sent (body already serialised). */
export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One running server under test, as a scenario sees it. */
export interface BenchApp {
  /** Unique per server: ids a scenario creates carry it. */
  tag: string;
  liveKey: string;
  cardId(ref: 'stamps' | 'points' | 'promoted'): string;
  /** externalCustomerId of the customers enrolled before the load (bench/app.ts), on the points card. */
  customers: string[];
  /** The same on the card with expiry and three running promotions. */
  promotedCustomers: string[];
}

export interface Scenario {
  /** Shown in the table. */
  name: string;
  /** 'read' = bare Koa JSON GET; 'write' = Koa + JSON body + one SQLite WAL write transaction. */
  floor: 'read' | 'write';
  /** The target: at least this share of the floor's requests/s. */
  minRatio?: number;
  /** Also measured beside a reference floor, reported without a target: 'delivery' = the write floor plus one webhook delivery per write. */
  reference?: 'delivery';
  /** Measured with the bench's webhook endpoint disabled (no event or delivery is written): the request's own cost. */
  webhookOff?: boolean;
  /**
   * Measured against another scenario instead of a floor: the two take turns on the same server
   * (bench/run.ts takeTurns), and the target is this share of its requests/s.
   */
  versus?: { scenario: string; minRatio: number };
  /** Every measured response must have it; anything else counts as an error. */
  expectStatus: number;
  /** The i-th request on this server; i counts on across the warm-up and the measured run. */
  request(app: BenchApp, i: number): LoadRequest;
}

export function jsonRequest(method: string, path: string, key: string, body: unknown, headers: Record<string, string> = {}): LoadRequest {
  return { method, path, headers: { 'X-Api-Key': key, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

const earnBody = { type: 'points', from: 'spend', spend: { amount: 4.5, currency: 'EUR' } };

/** The till's call: a ledger row, the balance, a balance.updated event and its webhook delivery. */
export function earnRequest(app: BenchApp, i: number): LoadRequest {
  return jsonRequest('POST', `/api/v1/customers/${app.customers[i % app.customers.length]}/earn`, app.liveKey, earnBody);
}

/** The same earn on the card with per-award expiry and three promotions running: a lot and the promotions' extra on each. */
export function promotedEarnRequest(app: BenchApp, i: number): LoadRequest {
  return jsonRequest('POST', `/api/v1/customers/${app.promotedCustomers[i % app.promotedCustomers.length]}/earn`, app.liveKey, earnBody);
}

export const PLAIN_EARN = 'POST earn (webhook endpoint on)';
/** The earn whose WAL frames the bench counts against its ≤ 6 target: its ledger row and balance, no delivery. */
const EARN_ALONE = 'POST earn (no webhook endpoint)';

export const SCENARIOS: Scenario[] = [
  {
    name: 'GET /v1/customers/{ref}',
    floor: 'read',
    minRatio: 0.3,
    expectStatus: 200,
    request: (app, i) => ({ method: 'GET', path: `/api/v1/customers/${app.customers[i % app.customers.length]}`, headers: { 'X-Api-Key': app.liveKey } }),
  },
  { name: PLAIN_EARN, floor: 'write', minRatio: 0.25, reference: 'delivery', expectStatus: 201, request: earnRequest },
  { name: EARN_ALONE, floor: 'write', minRatio: 0.25, webhookOff: true, expectStatus: 201, request: earnRequest },
  {
    name: 'POST earn, 3 promotions and per-award expiry (webhook endpoint on)',
    floor: 'write',
    versus: { scenario: PLAIN_EARN, minRatio: 0.8 },
    expectStatus: 201,
    request: promotedEarnRequest,
  },
  {
    // A new customer each time: the customer row, its customer.enrolled event and delivery.
    name: 'POST /v1/customers (enroll)',
    floor: 'write',
    expectStatus: 201,
    request: (app, i) => jsonRequest('POST', '/api/v1/customers', app.liveKey, { externalCustomerId: `new-${app.tag}-${i}`, cardId: app.cardId('stamps'), email: `new-${app.tag}-${i}@bench.example` }),
  },
];

const sent = new WeakMap<BenchApp, Map<Scenario, number>>();

/**
 * The scenario's next requests on this server, numbered on from where its last run there stopped:
 * numbered from 0 at each run, the measured run would re-send the warm-up's ids (an enrolment
 * would then meet a customer it had created, cheaper than the write it claims to measure).
 */
export function requestsOf(app: BenchApp, scenario: Scenario): () => LoadRequest {
  const counts = sent.get(app) ?? new Map<Scenario, number>();
  sent.set(app, counts);
  return () => {
    const i = counts.get(scenario) ?? 0;
    counts.set(scenario, i + 1);
    return scenario.request(app, i);
  };
}
