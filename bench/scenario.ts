// What a bench scenario is, and what it gets to work with. A scenario file exports a list of
// Scenario objects; bench/scenarios.ts names every such list, and `npm run bench` runs them all
// against the bundled server (bench/run.ts). Adding a scenario file (the console's, the counter's):
//   1. export `const xScenarios: Scenario[]` from bench/<x>.ts (no top-level code that runs),
//   2. add `...xScenarios` to SCENARIOS in bench/scenarios.ts.
// Its rows then appear in the table, `--only <text>` picks them by name, and `--customers N`
// runs them on the filled database too.
import type { SeedResult } from '../src/seed/service';

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
      ],
      keys: [
        { deviceName: 'bench live', mode: 'live' },
        { deviceName: 'bench test', mode: 'test' },
      ],
    },
  ],
} as const;

export type BenchOrg = SeedResult['orgs'][number];

export interface CallResult {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: any;
}

/** One running server under test, as a scenario sees it. */
export interface BenchApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What the seed created: org id, card ids by ref, raw keys by device name. */
  org: BenchOrg;
  /** Credentials of the seed (admin email/password, staff PIN) for scenarios that sign in. */
  seed: typeof BENCH_SEED;
  /** Unique per app instance: put it in ids a scenario creates, with the request's number (Scenario.request). */
  tag: string;
  /** The raw live key (all scopes). */
  liveKey: string;
  cardId(ref: 'stamps' | 'points'): string;
  /** One request for preparation (not measured): JSON body in, parsed body out. */
  call(method: string, path: string, options?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<CallResult>;
}

/** One HTTP request of the load, exactly as sent (body already serialised). */
export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario<State = any> {
  /** Shown in the table; `--only` matches it case-insensitively. */
  name: string;
  /** The floor it is compared with: 'read' = bare Koa JSON GET, 'write' = Koa + JSON body + one SQLite write transaction. */
  floor: 'read' | 'write';
  /** A target of issue 13: at least this share of the floor's requests/s (PASS/FAIL in the report). */
  minRatio?: number;
  /** Every measured response must have it; anything else is counted as an error. */
  expectStatus: number;
  /** Once per app instance, before its warm-up: create what the requests need (customers, a session…). */
  prepare?(app: BenchApp): Promise<State>;
  /**
   * The i-th request. i counts up across the warm-up and every measured run on this app instance
   * (requestsOf), so an id built from `app.tag` and i is never sent twice.
   */
  request(app: BenchApp, state: State, i: number): LoadRequest;
}

const sent = new WeakMap<BenchApp, Map<Scenario, number>>();

/**
 * The scenario's next requests on this app, numbered on from where its last run there stopped.
 * Numbered from 0 at each run, the rounds after the first re-sent the first round's ids: the
 * enrolment's round 2 and 3 matched customers it had created, and the earn with an
 * Idempotency-Key replayed stored answers, both cheaper than what they claim to measure.
 */
export function requestsOf<State>(app: BenchApp, scenario: Scenario<State>, state: State): () => LoadRequest {
  const counts = sent.get(app) ?? new Map<Scenario, number>();
  sent.set(app, counts);
  return () => {
    const i = counts.get(scenario) ?? 0;
    counts.set(scenario, i + 1);
    return scenario.request(app, state, i);
  };
}

/** A JSON body with its headers: the common case of a scenario's write. */
export function jsonRequest(method: string, path: string, key: string, body: unknown, headers: Record<string, string> = {}): LoadRequest {
  return { method, path, headers: { 'X-Api-Key': key, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
