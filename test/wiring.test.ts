import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { optimizeDatabase } from '../src/db/maintenance';
import { startServer, type RunningServer } from '../src/main';
import { walletRepo } from '../src/wallet/repo';
import { passUpdatesRepo } from '../src/wallet/updates/repo';
import { startTestApp, type TestApp } from './support/app';
import { silentLogger } from './support/fakes';
import { customerOn, seedLoyaltyOrg, tableCounts, type LoyaltyOrg } from './support/ledger-fixtures';
import { startReceiver, type Receiver } from './support/receiver';
import { changeBalance } from './support/wallet-app';

// Features react to each other's changes only through the hooks main.ts wires (changeHooks): the
// outbox's events become webhook deliveries, the ledger's balance changes become pass updates,
// both inside the change's transaction. These tests fail if a composition drops either.

describe('startServer (main.ts) wires the features together', () => {
  let dir: string;
  let server: RunningServer;
  let receiver: Receiver;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wl-wiring-'));
    receiver = await startReceiver();
    server = await startServer(loadConfig({ DATA_DIR: dir, PORT: '0' }), { log: silentLogger });
  });
  after(async () => {
    await server.stop();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an enrolment and an earn reach the webhook receiver, and the earn marks the pass changed', async () => {
    const demo = server.demo!;
    const call = async (method: string, route: string, body: unknown): Promise<any> => {
      const res = await fetch(`${server.url}/api/v1${route}`, { method, headers: { 'X-Api-Key': demo.testKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const json = await res.json();
      assert.ok(res.ok, JSON.stringify(json));
      return json;
    };
    await call('POST', '/webhooks', { url: receiver.url, events: ['*'] });
    const customer = await call('POST', '/customers', { externalCustomerId: 'wiring-1', cardId: demo.cards[0]!.cardId });
    // A device holds the pass, so its change is something to record (queuePassUpdate skips passes on no wallet).
    walletRepo(server.db).insertRegistration({ deviceLibraryId: 'wiring-phone', passTypeId: 'pass.example.wiring', customerId: customer.passUserId, pushToken: 'wiring' }, Date.now());
    const sequenceBefore = walletRepo(server.db).updateSequence();
    await call('POST', `/customers/pu_${customer.passUserId}/earn`, { type: 'stamps', amount: 2 });
    assert.ok(walletRepo(server.db).updateSequence() > sequenceBefore, 'the earn bumped the pass update sequence');
    await receiver.waitFor(2);
    assert.deepEqual(receiver.requests.map((r) => JSON.parse(r.body).type), ['customer.enrolled', 'balance.updated']);
  });

  it('a start catches up on the sweeps but leaves the database maintenance (ANALYZE) to its hour', async () => {
    // Statistics on record, then none, as after a bulk load: the maintenance would write them again.
    server.db.exec('ANALYZE');
    server.db.exec('DELETE FROM sqlite_stat1');
    await server.stop();
    server = await startServer(loadConfig({ DATA_DIR: dir, PORT: '0' }), { log: silentLogger });
    const statistics = () => (server.db.prepare('SELECT count(*) AS n FROM sqlite_stat1').get() as { n: number }).n;
    assert.equal(statistics(), 0, 'the start ran no ANALYZE');
    optimizeDatabase(server.db);
    assert.ok(statistics() > 0, 'the hourly maintenance does');
  });
});

describe('startTestApp wires the features as main.ts does', () => {
  let app: TestApp;
  let org: LoyaltyOrg;
  before(async () => {
    app = await startTestApp();
    org = seedLoyaltyOrg(app);
    const res = await app.request('POST', '/api/v1/webhooks', { key: org.keys.live, body: { url: 'https://hooks.example.com/in', events: ['*'] } });
    assert.equal(res.status, 201, res.text);
  });
  after(() => app.close());

  it('a balance change writes its event, the delivery row and the pass update in its transaction, or none of them', () => {
    const customer = customerOn(app, org, 'points');
    walletRepo(app.db).insertRegistration({ deviceLibraryId: 'wiring-phone', passTypeId: 'pass.example.wiring', customerId: customer.id, pushToken: 'wiring' }, app.clock.now());
    const before = { ...tableCounts(app), sequence: walletRepo(app.db).updateSequence() };
    assert.throws(() =>
      app.db.transaction(() => {
        changeBalance(app, customer.id, 500);
        throw new Error('the caller fails after the change');
      })(),
    );
    assert.deepEqual({ ...tableCounts(app), sequence: walletRepo(app.db).updateSequence() }, before, 'a rollback leaves nothing behind');
    assert.equal(passUpdatesRepo(app.db).find(customer.id), undefined);

    changeBalance(app, customer.id, 500);
    const committed = tableCounts(app);
    assert.deepEqual(
      ['transactions', 'events', 'deliveries'].map((table) => committed[table]! - before[table as keyof typeof before]!),
      [1, 1, 1],
      'one ledger row, one balance.updated event, one delivery for the subscribed endpoint',
    );
    assert.ok(walletRepo(app.db).updateSequence() > before.sequence);
    assert.equal(passUpdatesRepo(app.db).find(customer.id)?.customerId, customer.id);
  });
});
