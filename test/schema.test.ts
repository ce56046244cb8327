import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { applySteps, currentSchema, latestVersion, migrate } from '../src/db/migrate';
import { migrations } from '../src/db/migrations';
import type { Db } from '../src/db/open';
import { normalisedSql, renderSchema, SCHEMA_FILE } from '../scripts/schema';
import { scratchDatabases, userVersion } from './support/databases';

// schema.sql is what a new database gets; an older database gets the steps instead. The two roads
// must end in the same schema, and schema.sql must be what the steps build.

const scratch = scratchDatabases('wl-schema-');
const STEPS_DIR = path.join(path.dirname(SCHEMA_FILE), 'src/db/migrations');

/** Every object of the schema, its SQL as SQLite reads it (comments and spacing aside). */
const schemaOf = (db: Db) =>
  (db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all() as { type: string; name: string; tbl_name: string; sql: string | null }[]).map(
    (o) => ({ ...o, sql: o.sql === null ? null : normalisedSql(o.sql) }),
  );
/**
 * Each table's indexes, and its triggers, in the order SQLite holds them: where two indexes serve a
 * query equally well the planner takes one by this order, so it must not differ either.
 */
const orderOf = (db: Db) => db.prepare("SELECT tbl_name, type, name FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY tbl_name, type, rowid").all();

/** A version-1 database with a little of everything its tables hold, as the first release wrote it. */
function versionOneWithData(): Db {
  const db = scratch.fresh();
  applySteps(db, migrations.filter((s) => s.version === 1));
  assert.equal(userVersion(db), 1);
  db.exec(`
    INSERT INTO orgs (id, name, created_at) VALUES ('org_a', 'Café', 1);
    INSERT INTO admins (id, org_id, email, password_hash, created_at) VALUES ('adm_a', 'org_a', 'owner@example.com', 'hash', 1);
    INSERT INTO api_keys (id, org_id, device_name, mode, key_hash, key_hint, scopes, created_at) VALUES ('key_a', 'org_a', 'till', 'live', 'h', 'wl_live_', '["*"]', 1);
    INSERT INTO cards (id, org_id, name, pass_type, questions, design, created_at, updated_at)
      VALUES ('card_a', 'org_a', 'Stamps', 'stamp_card', '[{"key":"alt","label":"Phone","type":"phone","required":false,"isIdentifier":false}]',
              '{"backgroundColor":"rgb(300,0,0)","foregroundColor":"#fff"}', 1, 1);
    INSERT INTO customers (id, org_id, card_id, livemode, name, email, email_norm, phone, phone_norm, custom_fields, install_code, scan_code, balance, pass_updated_at, created_at, updated_at)
      VALUES ('cus_a', 'org_a', 'card_a', 1, 'Jörg', 'Jörg@Bücher.de', 'jörg@bücher.de', '+44 (0)20 7946 0958', '+4402079460958', '{"alt":"+4402079460958"}', 'install-a-0123456789', 'scan-a', 300, 1, 1000, 1000),
             ('cus_t', 'org_a', 'card_a', 0, 'Test', NULL, NULL, NULL, NULL, '{}', 'install-t-0123456789', 'scan-t', 0, 1, 2000, 2000);
    INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, details, created_at)
      VALUES ('tx_b', 'org_a', 'cus_a', 1, 'earn', 500, 500, 1, 'scan', NULL, 1000),
             ('tx_gone', 'org_a', 'cus_a', 1, 'adjust', 0, 500, 0, 'api', NULL, 1000),
             ('tx_a', 'org_a', 'cus_a', 1, 'redeem', -200, 300, 0, 'api', '{"reward":{"name":"Coffee","cost":200}}', 1000);
    DELETE FROM transactions WHERE id = 'tx_gone'; -- a gap in the row numbers
    INSERT INTO events (id, org_id, livemode, type, customer_id, payload, created_at)
      VALUES ('evt_a', 'org_a', 1, 'balance.updated', 'cus_a', '{}', 1000), ('evt_t', 'org_a', 0, 'customer.created', 'cus_t', '{}', 2000);
    INSERT INTO webhooks (id, org_id, livemode, url, events, status, secret, created_at, updated_at) VALUES ('wh_a', 'org_a', 1, 'https://example.com/hook', '["*"]', 'active', 'whsec', 1, 1);
    INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempt_count, next_attempt_at, created_at) VALUES ('del_a', 'wh_a', 'evt_a', 'pending', 1, 5000, 1000);
    INSERT INTO webhook_attempts (delivery_id, number, status, response_code, duration_ms, at) VALUES ('del_a', 1, 'failed', 500, 12, 1000);
    INSERT INTO idempotency_keys (org_id, livemode, method, route, key, fingerprint, response_status, response_body, created_at) VALUES ('org_a', 1, 'POST', '/x', 'k', 'f', 200, '{}', 1);`);
  return db;
}
const V1_TABLES = ['orgs', 'admins', 'api_keys', 'cards', 'customers', 'transactions', 'events', 'webhooks', 'webhook_deliveries', 'webhook_attempts', 'idempotency_keys'];

describe('schema.sql and the steps', () => {
  after(() => scratch.remove());

  it('schema.sql is what the steps build: run npm run schema after adding a step', () => {
    assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), renderSchema(), 'schema.sql is stale: run npm run schema and commit it');
    assert.equal(currentSchema().version, latestVersion());
  });

  it('a version-1 database with data, taken through every step, has the schema of a new database made from schema.sql', () => {
    const old = versionOneWithData();
    const counts = (db: Db) => V1_TABLES.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]);
    const before = counts(old);
    const ledgerRowids = old.prepare('SELECT rowid, id FROM transactions ORDER BY rowid').all();
    applySteps(old, migrations);

    const fresh = scratch.fresh();
    assert.deepEqual(migrate(fresh), { from: 0, to: latestVersion() });
    assert.equal(userVersion(old), userVersion(fresh));
    assert.deepEqual(schemaOf(old), schemaOf(fresh));
    assert.deepEqual(orderOf(old), orderOf(fresh));

    for (const db of [old, fresh]) {
      assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      assert.deepEqual(db.pragma('foreign_key_check'), []);
    }
    assert.deepEqual(counts(old), before, 'every row kept');
    assert.deepEqual(old.prepare('SELECT rowid, id FROM transactions ORDER BY rowid').all(), ledgerRowids, 'ledger rows keep their row numbers (ties in time order by them)');
    // The data steps ran on the way: keys derived by the rules, the bad colour dropped, the console's tables filled.
    assert.deepEqual(old.prepare("SELECT email_norm, phone_norm, custom_fields FROM customers WHERE id = 'cus_a'").get(), {
      email_norm: 'jörg@xn--bcher-kva.de', phone_norm: '+442079460958', custom_fields: '{"alt":"+442079460958"}',
    });
    assert.deepEqual(JSON.parse((old.prepare("SELECT design FROM cards WHERE id = 'card_a'").get() as { design: string }).design), { foregroundColor: '#fff' });
    assert.deepEqual(old.prepare('SELECT livemode, customers FROM customer_counts ORDER BY livemode').all(), [{ livemode: 0, customers: 1 }, { livemode: 1, customers: 1 }]);
    assert.deepEqual(old.prepare('SELECT source, awarded, awards, rewards FROM ledger_slots ORDER BY source').all(), [
      { source: 'api', awarded: 0, awards: 0, rewards: 1 },
      { source: 'scan', awarded: 500, awards: 1, rewards: 0 },
    ]);
    const found = old.prepare("SELECT r.customer_id AS id FROM customer_search s JOIN customer_search_rows r ON r.seq = s.rowid WHERE customer_search MATCH 'name:jörg'").all();
    assert.deepEqual(found, [{ id: 'cus_a' }]);
    old.close();
    fresh.close();
  });

  it('has one file per step, NNN-name.ts for version NNN, each in the list', async () => {
    const files = readdirSync(STEPS_DIR).filter((f) => /^\d{3}-/.test(f)).sort();
    assert.deepEqual(files.map((f) => Number(f.slice(0, 3))), migrations.map((_, i) => i + 1), 'versions 1, 2, 3, … with no gap');
    for (const file of files) {
      const step = ((await import(pathToFileURL(path.join(STEPS_DIR, file)).href)) as { default: unknown }).default;
      assert.equal(step, migrations[Number(file.slice(0, 3)) - 1], `${file} is the step of its number in the list`);
    }
  });

  it('keeps every step self-contained: imports from its own folder, node built-ins and packages only', () => {
    for (const file of readdirSync(STEPS_DIR).filter((f) => f.endsWith('.ts'))) {
      const imports = [...readFileSync(path.join(STEPS_DIR, file), 'utf8').matchAll(/^import [^;]*? from '([^']+)'/gm)].map((m) => m[1]!);
      assert.deepEqual(imports.filter((from) => from.startsWith('..') || from.startsWith('/')), [], `${file} imports from outside src/db/migrations/`);
    }
  });
});
