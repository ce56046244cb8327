import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { test } from 'node:test';
import { applyPragmas } from '../../src/db/open';
import { migrate } from '../../src/db/migrate';
import { migrations } from '../../src/db/migrations';
import { findCustomerByInstallCode } from '../../src/wallet/install-code';
import { MIN_CODE_LENGTH } from '../../src/customers/secret-codes';
import { walletRepo } from '../../src/wallet/repo';
import { randomToken } from '../../src/lib/ids';

function versionOneDatabase() {
  const db = new Database(':memory:');
  applyPragmas(db);
  migrate(db, migrations.filter((step) => step.version === 1));
  db.exec(`INSERT INTO orgs VALUES ('org_1', 'Org', 0);
    INSERT INTO cards (id, org_id, name, pass_type, created_at, updated_at) VALUES ('card_1', 'org_1', 'Card', 'stamp_card', 0, 0);
    INSERT INTO customers (id, org_id, card_id, livemode, install_code, scan_code, balance, pass_updated_at, created_at, updated_at)
    VALUES ('cus_1', 'org_1', 'card_1', 1, 'abcdefgh12345678XYZ', 'scan1', 500, 0, 0, 0);`);
  return db;
}

test('step 2 brings a version 1 database with customers to version 2, data intact', () => {
  const db = versionOneDatabase();
  assert.equal(db.pragma('user_version', { simple: true }), 1);
  // Step 2 alone: later steps belong to other features and have their own tests.
  assert.deepEqual(migrate(db, migrations.filter((step) => step.version <= 2)), { from: 1, to: 2 });
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'wallet_%' ORDER BY name").all().map((r) => r.name);
  assert.deepEqual(tables, ['wallet_apple_registrations', 'wallet_google_nonces', 'wallet_google_objects', 'wallet_pass_updates', 'wallet_pass_versions', 'wallet_passes']);
  assert.equal(db.prepare<[], { balance: number }>("SELECT balance FROM customers WHERE id = 'cus_1'").get()!.balance, 500);
  // Tokens shorter than Apple's 16 characters cannot be stored.
  assert.throws(() => db.prepare("INSERT INTO wallet_passes VALUES ('cus_1', 'short', 0)").run(), /CHECK constraint/);
  // Deleting a customer takes its wallet rows along.
  walletRepo(db).ensureAuthToken('cus_1', 'x'.repeat(32), 0);
  walletRepo(db).markPassChanged('cus_1', 0);
  db.prepare("DELETE FROM customers WHERE id = 'cus_1'").run();
  assert.equal(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM wallet_passes').get()!.n, 0);
  assert.equal(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM wallet_pass_versions').get()!.n, 0);
  // ...but the sequence never hands its numbers out again.
  assert.equal(walletRepo(db).updateSequence(), 1);
});

test('install codes are found by their selector and compared whole', () => {
  const db = versionOneDatabase();
  migrate(db);
  assert.equal(findCustomerByInstallCode(db, 'abcdefgh12345678XYZ')?.id, 'cus_1');
  assert.equal(findCustomerByInstallCode(db, 'abcdefgh12345678XYZ', 'card_1')?.id, 'cus_1');
  assert.equal(findCustomerByInstallCode(db, 'abcdefgh12345678XYZ', 'card_2'), undefined);
  assert.equal(findCustomerByInstallCode(db, 'abcdefgh12345678XY'), undefined, 'same selector, different code');
  assert.equal(findCustomerByInstallCode(db, 'abcdefgh12345678XYZ'.slice(0, MIN_CODE_LENGTH - 1)), undefined);
  assert.equal(findCustomerByInstallCode(db, undefined), undefined);
});

test('install codes that share their selector are each found', () => {
  // Codes made before codes were wholly random lead with the second they were made, and an import
  // made many in one second: 20 codes here share their first 8 characters.
  const db = versionOneDatabase();
  migrate(db);
  const insert = db.prepare(
    `INSERT INTO customers (id, org_id, card_id, livemode, install_code, scan_code, balance, pass_updated_at, created_at, updated_at)
     VALUES (?, 'org_1', 'card_1', 1, ?, ?, 0, 0, 0, 0)`,
  );
  const codes = Array.from({ length: 20 }, () => `1aBcDe7Q${randomToken(24)}`).map((code, i) => {
    insert.run(`cus_same_${i}`, code, `scan_same_${i}`);
    return code;
  });
  codes.forEach((code, i) => assert.equal(findCustomerByInstallCode(db, code)?.id, `cus_same_${i}`));
});
