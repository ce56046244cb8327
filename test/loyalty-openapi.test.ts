import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestApp, type TestApp } from './support/app';
import { customerOn, operate, seedLoyaltyOrg, type LoyaltyCardRef, type LoyaltyOrg, type Operation } from './support/ledger-fixtures';

// The request schemas of earn, redeem and adjust in GET /api/openapi.json must accept exactly the
// bodies the server accepts: a client that validates against the document (or is generated from
// it) neither sends a body the server refuses with VALIDATION_FAILED nor refuses one it takes.
// Decimals are left out here: the document states them as extensions that depend on the card
// (x-max-decimals-by-card-type), which test/openapi-contract.test.ts applies.

type Json = Record<string, any>;

/** Nested schemas carry their own $schema; Ajv accepts it only at a root it compiles. */
const withoutDialect = (schema: Json): Json => JSON.parse(JSON.stringify(schema, (key, value) => (key === '$schema' ? undefined : value)));

const earnCases: [string, unknown][] = [
  ['a flat amount', { type: 'points', amount: 1 }],
  ['a flat amount with a note', { type: 'points', amount: 12.5, note: 'till 1' }],
  ['the largest amount', { type: 'points', amount: 1_000_000_000 }],
  ['amount 0', { type: 'points', amount: 0 }],
  ['a negative amount', { type: 'points', amount: -1 }],
  ['an amount past 1,000,000,000', { type: 'points', amount: 1_000_000_001 }],
  ['neither amount nor from', { type: 'points' }],
  ['amount and from', { type: 'points', amount: 1, from: 'spend', spend: { amount: 1, currency: 'EUR' } }],
  ['a spend', { type: 'points', from: 'spend', spend: { amount: 10.99, currency: 'EUR' } }],
  ['a spend in a lower-case currency', { type: 'points', from: 'spend', spend: { amount: 2, currency: 'eur' } }],
  ['a four-letter currency', { type: 'points', from: 'spend', spend: { amount: 2, currency: 'EURO' } }],
  ['a spend of 0', { type: 'points', from: 'spend', spend: { amount: 0, currency: 'EUR' } }],
  ['a spend past 1,000,000,000', { type: 'points', from: 'spend', spend: { amount: 1_000_000_001, currency: 'EUR' } }],
  ['from=spend without spend', { type: 'points', from: 'spend' }],
  ['from=spend with items', { type: 'points', from: 'spend', spend: { amount: 1, currency: 'EUR' }, items: [{ key: 'cent', quantity: 1 }] }],
  ['spend without from', { type: 'points', spend: { amount: 1, currency: 'EUR' } }],
  ['items', { type: 'points', from: 'items', items: [{ key: 'cent', quantity: 2 }] }],
  ['from=items without items', { type: 'points', from: 'items' }],
  ['from=items with spend', { type: 'points', from: 'items', items: [{ key: 'cent', quantity: 1 }], spend: { amount: 1, currency: 'EUR' } }],
  ['items without from', { type: 'points', amount: 1, items: [{ key: 'cent', quantity: 1 }] }],
  ['a zero quantity', { type: 'points', from: 'items', items: [{ key: 'cent', quantity: 0 }] }],
  ['a fractional quantity', { type: 'points', from: 'items', items: [{ key: 'cent', quantity: 1.5 }] }],
];

const redeemCases: [string, unknown][] = [
  ['points', { type: 'points', amount: 1 }],
  ['points without amount', { type: 'points' }],
  ['points of 0', { type: 'points', amount: 0 }],
  ['points past 1,000,000,000', { type: 'points', amount: 1_000_000_001 }],
  ['the reward', { type: 'reward' }],
  ['the reward with an amount', { type: 'reward', amount: 1 }],
];

const adjustCases: [string, unknown][] = [
  ['a positive correction', { balanceCorrection: 1 }],
  ['a negative correction', { balanceCorrection: -1 }],
  ['a correction of 0', { balanceCorrection: 0 }],
  ['a correction past -1,000,000,000', { balanceCorrection: -1_000_000_001 }],
  ['a correction past 1,000,000,000', { balanceCorrection: 1_000_000_001 }],
  ['setPoints 0', { setPoints: 0 }],
  ['a negative setPoints', { setPoints: -1 }],
  ['setPoints past 1,000,000,000', { setPoints: 1_000_000_001 }],
  ['both fields', { balanceCorrection: 1, setPoints: 1 }],
  ['neither field', { note: 'hm' }],
];

describe('loyalty request bodies in the OpenAPI document', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  let doc: Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    doc = (await app.request('GET', '/api/openapi.json')).body;
  });
  after(() => app.close());

  // Cards where every body above is judged by its shape alone: prepaid takes cents, points takes setPoints.
  const tables: [Operation, LoyaltyCardRef, [string, unknown][]][] = [
    ['earn', 'prepaid', earnCases.filter(([name]) => !name.includes('items') && !name.includes('quantity'))],
    ['earn', 'prepaidItems', earnCases.filter(([name]) => name.includes('items') || name.includes('quantity'))],
    ['redeem', 'points', redeemCases],
    ['adjust', 'points', adjustCases],
  ];
  for (const [op, card, cases] of tables) {
    for (const [name, body] of cases) {
      it(`${op}: ${name} — the document and the server agree`, async () => {
        const schema = doc.paths[`/api/v1/customers/{ref}/${op}`].post.requestBody.content['application/json'].schema;
        const documented = ajv.validate(withoutDialect(schema), body);
        const customer = customerOn(app, org, card, { balance: op === 'earn' ? 0 : 1000 });
        const res = await operate(app, org.keys.live, customer, op, body);
        const served = !(res.status === 400 && String(res.body.message).startsWith('VALIDATION_FAILED'));
        assert.equal(documented, served, `document ${documented ? 'accepts' : 'refuses'} (${ajv.errorsText(ajv.errors)}); server answered ${res.status} ${res.text}`);
      });
    }
  }
});
