import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import type { Customer } from '../../src/customers/model';
import { passUpdatesRepo } from '../../src/wallet/updates/repo';
import { walletRepo } from '../../src/wallet/repo';
import { seedStandardOrg, startTestApp, type TestApp } from '../support/app';
import { noAfterCommit } from '../support/fakes';
import { ANDROID_UA, appleEnv, changeBalance, createCustomer, getBytes, googleEnv, IPHONE_UA, unzipPass } from '../support/wallet-app';
import { createAppleTestChain, createServiceAccount, startFakeGoogle, type AppleTestChain, type FakeGoogle, type ServiceAccountFixture } from '../support/wallet-fixtures';

// While no pass is on any wallet, a balance change does not look up the pass's own registrations
// (wallet/updates/queue.ts). That answer is kept per connection, so each way a first pass reaches
// a wallet must make the next balance change look again, or that pass would never be updated.

let chain: AppleTestChain;
let google: FakeGoogle;
let account: ServiceAccountFixture;
before(async () => {
  chain = createAppleTestChain();
  google = await startFakeGoogle();
  account = createServiceAccount(google.tokenUri);
});
after(async () => {
  await google.close();
  chain.cleanup();
});

type OnAWallet = (app: TestApp, customer: Customer) => Promise<void>;

const ways: { name: string; appleSequence: boolean; put: OnAWallet }[] = [
  {
    name: 'an Apple device registers the pass',
    appleSequence: true,
    async put(app, customer) {
      const { pass } = unzipPass((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': IPHONE_UA })).bytes);
      const res = await app.request('POST', `/wallet/v1/devices/phone1/registrations/${chain.passTypeId}/${customer.id}`, {
        headers: { Authorization: `ApplePass ${pass.authenticationToken}` },
        body: { pushToken: 'token1' },
      });
      assert.equal(res.status, 201);
    },
  },
  {
    name: 'a Google save link is handed out',
    appleSequence: false,
    async put(app, customer) {
      assert.equal((await getBytes(`${app.url}/get-pass/${customer.cardId}?code=${customer.installCode}`, { 'User-Agent': ANDROID_UA })).status, 302);
    },
  },
  {
    name: 'another connection (another process) records a registration',
    appleSequence: true,
    async put(app, customer) {
      const other = new Database(app.config.dbFile);
      try {
        other
          .prepare('INSERT INTO wallet_apple_registrations (device_library_id, pass_type_id, customer_id, push_token, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)')
          .run('phone2', chain.passTypeId, customer.id, 'token2');
      } finally {
        other.close();
      }
    },
  },
];

describe('balance changes before and after the first pass reaches a wallet', () => {
  for (const way of ways) {
    test(`${way.name}: the next balance change queues that pass's update, and only that one`, async () => {
      const app = await startTestApp({ env: { ...appleEnv(chain), ...googleEnv(google, account) }, afterCommit: noAfterCommit });
      try {
        const org = seedStandardOrg(app);
        const onNone = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
        const installed = createCustomer(app, { orgId: org.orgId, cardId: org.cards.points });
        const queued = (c: Customer) => passUpdatesRepo(app.db).find(c.id);

        changeBalance(app, onNone.id, 100);
        changeBalance(app, installed.id, 100);
        assert.equal(queued(installed), undefined, 'no pass is on a wallet yet');

        await way.put(app, installed);
        const sequence = walletRepo(app.db).updateSequence();
        changeBalance(app, installed.id, 200);
        changeBalance(app, onNone.id, 200);

        assert.equal(queued(installed)?.generation, 1, 'the pass on a wallet is queued for its update');
        assert.equal(queued(onNone), undefined, 'a pass on no wallet still is not');
        assert.equal(walletRepo(app.db).updateSequence(), way.appleSequence ? sequence + 1 : sequence, 'an Apple device learns of the change through the sequence');
      } finally {
        await app.close();
      }
    });
  }
});
