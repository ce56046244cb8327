import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countWalFrames, type FrameCount } from '../bench/wal-frames';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { insertWebhook } from './support/customers';

// What an earn writes to the database, counted as the WAL frames its commit appends (one per page
// changed): on a Raspberry Pi's SD card each is wear. Every index and trigger on the ledger's path
// costs pages per earn, so a new one must be worth them. `npm run bench` counts the same over the
// bundled server; this holds the budget in the suite.

const CUSTOMERS = 100;
const EARNS = 200;
/**
 * The b-trees an earn without a webhook endpoint writes: the balance, the ledger row and its two
 * indexes (by customer, by time for the books and the watch list; the ids have none), the
 * dashboard's quarter-hour sum: one page each, and now and then a split.
 */
const EARN_TREES = ['customers', 'ledger_slots', 'transactions', 'transactions_customer', 'transactions_org_time'];

describe('the pages an earn writes', () => {
  let app: TestApp;
  let org: StandardOrg;
  const customers: string[] = [];
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    for (let i = 0; i < CUSTOMERS; i++) {
      const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: `frames-${i}`, cardId: org.cards.points } });
      assert.equal(res.status, 201, res.text);
      customers.push(`frames-${i}`);
    }
  });
  after(() => app.close());

  let n = 0;
  const earns = (count: number) => async () => {
    for (let i = 0; i < count; i++) {
      const res = await app.request('POST', `/api/v1/customers/${customers[n++ % CUSTOMERS]}/earn`, { key: org.keys.live, body: { type: 'points', amount: 3 } });
      assert.equal(res.status, 201, res.text);
    }
    return count;
  };
  const trees = (count: FrameCount) => count.byTree.map((t) => t.name).filter((name) => name !== 'page 1 (header)').sort();

  it('without a webhook endpoint: at most 6 pages, of the balance, the ledger and the dashboard sums only', async () => {
    const count = await countWalFrames(app.config.dbFile, earns(EARNS));
    assert.deepEqual(trees(count), EARN_TREES, 'no event is stored when no endpoint takes it, and no other index is written');
    assert.ok(count.frames / count.requests <= 6, `${(count.frames / count.requests).toFixed(2)} frames per earn: ${JSON.stringify(count.byTree)}`);
  });

  it('with per-award expiry: the award’s lot adds its row and its place among the lots due, two pages', async () => {
    const res = await app.request('PATCH', `/api/v1/cards/${org.cards.points}`, { key: org.keys.live, body: { expiry: { months: 12 } } });
    assert.equal(res.status, 200, res.text);
    const count = await countWalFrames(app.config.dbFile, earns(EARNS));
    assert.deepEqual(trees(count), [...EARN_TREES, 'award_lots', 'award_lots_due'].sort(), 'the lot and its due index, no other b-tree');
    const lots = count.byTree.filter((t) => t.name.includes('award_lots')).reduce((sum, t) => sum + t.perRequest, 0);
    assert.ok(lots <= 2.5, `${lots.toFixed(2)} frames per earn for the lot: ${JSON.stringify(count.byTree)}`);
    const off = await app.request('PATCH', `/api/v1/cards/${org.cards.points}`, { key: org.keys.live, body: { expiry: null } });
    assert.equal(off.status, 200, off.text);
  });

  it('with an endpoint: also the event and its delivery, in the same commit', async () => {
    insertWebhook(app, org.orgId, true);
    const count = await countWalFrames(app.config.dbFile, earns(EARNS));
    const written = trees(count);
    for (const tree of [...EARN_TREES, 'events', 'webhook_deliveries', 'webhook_deliveries_queue']) assert.ok(written.includes(tree), `${tree} in ${written.join(', ')}`);
    assert.equal(written.filter((t) => t.startsWith('transactions_') && !EARN_TREES.includes(t)).length, 0, 'no other ledger index');
    // The event's row and its entry in events_org; the delivery's row (keyed by its id), its entry in
    // the endpoint's history and in the queue; what the worker records of it (the attempt). No index
    // of the text ids, nor of the deliveries by event: nothing reads a live event's through them.
    const webhookTrees = ['events', 'events_org', 'webhook_deliveries', 'webhook_deliveries_queue', 'webhook_deliveries_webhook'];
    assert.deepEqual(
      written.filter((t) => /^(events|webhook_deliveries|sqlite_autoindex_(events|webhook_deliveries))/.test(t)),
      webhookTrees,
      JSON.stringify(count.byTree),
    );
  });
});
