import type { Customer } from '../../src/customers/model';
import { randomToken } from '../../src/lib/ids';
import { toHundredths } from '../../src/lib/money';
import type { TestApp } from './app';
import { insertCustomer, subscribeToEvery } from './customers';

// Customers for the loyalty tests, made without POST /v1/customers (built on another branch).
// Everything the tests assert goes through HTTP or the database, so they hold once enroll exists.

export interface NewCustomer {
  orgId: string;
  cardId: string;
  livemode?: boolean;
  externalId?: string | null;
  email?: string | null;
  /** Opening balance in units; written with an `initial` ledger row so balance == ledger sum. */
  balance?: number;
}

let counter = 0;

export function addCustomer(app: TestApp, input: NewCustomer): Customer {
  const externalId = input.externalId === undefined ? `cust-${++counter}-${randomToken(6)}` : input.externalId;
  return insertCustomer(app, { ...input, externalId, balance: toHundredths(input.balance ?? 0) });
}

export interface StoredEvent {
  type: string;
  livemode: boolean;
  data: Record<string, any>;
}

/** Everything a balance change may write for one customer, read straight from the database. */
export interface LedgerState {
  /** customers.balance, hundredths. */
  balance: number;
  /** sum(transactions.change), hundredths. */
  ledgerSum: number;
  ledgerRows: number;
  passVersion: number;
  events: StoredEvent[];
}

// Test-side reads of tables no src repo lists per customer; kept here so src/ stays SQL-in-repos.
export function ledgerState(app: TestApp, customerId: string): LedgerState {
  const customer = app.db.prepare('SELECT balance, pass_version FROM customers WHERE id = ?').get(customerId) as { balance: number; pass_version: number };
  const rows = app.db.prepare('SELECT count(*) AS n, coalesce(sum(change), 0) AS total FROM transactions WHERE customer_id = ?').get(customerId) as { n: number; total: number };
  const events = app.db.prepare('SELECT type, livemode, payload FROM events WHERE customer_id = ? ORDER BY created_at, rowid').all(customerId) as { type: string; livemode: number; payload: string }[];
  return {
    balance: customer.balance,
    ledgerSum: rows.total,
    ledgerRows: rows.n,
    passVersion: customer.pass_version,
    events: events.map((e) => ({ type: e.type, livemode: e.livemode === 1, data: JSON.parse(e.payload).data })),
  };
}

/** Row counts of every table a loyalty write touches, for "nothing written anywhere" checks. */
export function tableCounts(app: TestApp): Record<string, number> {
  const count = (table: string) => (app.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { transactions: count('transactions'), events: count('events'), deliveries: count('webhook_deliveries') };
}

const LEVELS = [{ name: 'Bronze', minPoints: 0 }, { name: 'Silver', minPoints: 100 }, { name: 'Gold', minPoints: 500 }] as const;

/**
 * STANDARD_SEED's four cards plus the programs the ledger tests need: other accrual rules, cards
 * without a reward, and one card per earning limit (each limit alone, so a refusal has one cause).
 */
export const LOYALTY_SEED = {
  orgs: [
    {
      name: 'Ledger Café',
      cards: [
        { ref: 'stamps', name: 'Coffee stamps', passType: 'stamp_card', reward: { name: 'Free coffee', cost: 10 }, accrual: { items: { latte: 1, cake: 2 } } },
        { ref: 'points', name: 'Points', passType: 'point_card', reward: { name: 'Voucher', cost: 100 }, accrual: { spend: { currency: 'EUR', rate: 1.5 } } },
        { ref: 'levels', name: 'Club', passType: 'level_card', levels: LEVELS },
        { ref: 'prepaid', name: 'Gift card', passType: 'prepaid_card', accrual: { spend: { currency: 'EUR', rate: 0.05 } } },
        { ref: 'stampSpend', name: 'Stamps on spend', passType: 'stamp_card', accrual: { spend: { currency: 'EUR', rate: 0.2 } } },
        { ref: 'pointsBare', name: 'Bare points', passType: 'point_card' },
        { ref: 'levelAccrual', name: 'Club shop', passType: 'level_card', levels: LEVELS, accrual: { spend: { currency: 'USD', rate: 2.5 }, items: { shirt: 40 } } },
        { ref: 'prepaidItems', name: 'Top-ups', passType: 'prepaid_card', accrual: { items: { topup10: 10, cent: 0.01 } } },
        { ref: 'wait', name: 'Wait a minute', passType: 'point_card', accrual: { spend: { currency: 'EUR', rate: 1 } }, earningLimits: { waitSeconds: 60 } },
        { ref: 'perAward', name: 'Fifty at most', passType: 'point_card', earningLimits: { maxPerAward: 50 } },
        { ref: 'day', name: 'Hundred a day', passType: 'point_card', earningLimits: { period: 'day', maxPerPeriod: 100 } },
        { ref: 'week', name: 'Ten stamps a week', passType: 'stamp_card', reward: { name: 'Free coffee', cost: 10 }, earningLimits: { period: 'week', maxPerPeriod: 10 } },
        { ref: 'month', name: 'Club monthly', passType: 'level_card', levels: LEVELS, earningLimits: { maxPerAward: 600, period: 'month', maxPerPeriod: 1000 } },
        { ref: 'prepaidLimited', name: 'Credit with limits', passType: 'prepaid_card', earningLimits: { waitSeconds: 3600, maxPerAward: 1, period: 'day', maxPerPeriod: 1 } },
      ],
      keys: [
        { deviceName: 'live', mode: 'live' },
        { deviceName: 'test', mode: 'test' },
        { deviceName: 'reader', mode: 'live', scopes: ['customers:read'] },
      ],
    },
  ],
} as const;

export type LoyaltyCardRef = (typeof LOYALTY_SEED)['orgs'][0]['cards'][number]['ref'];

export interface LoyaltyOrg {
  orgId: string;
  cards: Record<LoyaltyCardRef, string>;
  keys: { live: string; test: string; reader: string };
}

/** Seeds LOYALTY_SEED as a new org, with an endpoint of each mode taking every event, and names its ids. */
export function seedLoyaltyOrg(app: TestApp, name = 'Ledger Café'): LoyaltyOrg {
  const [org] = app.seed({ orgs: [{ ...LOYALTY_SEED.orgs[0], name }] }).orgs;
  subscribeToEvery(app, org!.orgId);
  const key = (deviceName: string) => org!.keys.find((k) => k.deviceName === deviceName)!.key;
  return {
    orgId: org!.orgId,
    cards: Object.fromEntries(org!.cards.map((c) => [c.ref, c.cardId])) as Record<LoyaltyCardRef, string>,
    keys: { live: key('live'), test: key('test'), reader: key('reader') },
  };
}

/** A customer on one of the org's cards (live unless said otherwise). */
export function customerOn(app: TestApp, org: LoyaltyOrg, card: LoyaltyCardRef, options: Omit<NewCustomer, 'orgId' | 'cardId'> = {}): Customer {
  return addCustomer(app, { orgId: org.orgId, cardId: org.cards[card], ...options });
}

export type Operation = 'earn' | 'redeem' | 'adjust';

/** POST /api/v1/customers/{ref}/{operation}; `ref` defaults to the customer's pu_ form. */
export function operate(app: TestApp, key: string, customer: Customer | string, operation: Operation, body: unknown, headers: Record<string, string> = {}) {
  const ref = typeof customer === 'string' ? customer : `pu_${customer.id}`;
  return app.request('POST', `/api/v1/customers/${encodeURIComponent(ref)}/${operation}`, { key, body, headers });
}
