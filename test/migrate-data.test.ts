import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { latestVersion, migrate } from '../src/db/migrate';
import { migrations, type MigrationStep } from '../src/db/migrations';
import { listedChecksAsComparisons } from '../src/db/migrations/015-listed-checks-as-comparisons';
import { withImportChannel } from '../src/db/migrations/018-imports-and-consent';
import { scratchDatabases, userVersion } from './support/databases';
import type { Db } from '../src/db/open';

// Steps that rewrite data (a function instead of SQL), on databases an older release left behind.

const scratch = scratchDatabases('wl-migrate-data-');
const freshDb = scratch.fresh;
const version = userVersion;
/** A database as the release before `step` left it. */
function databaseBefore(step: number): Db {
  const db = freshDb();
  migrate(db, migrations.filter((s) => s.version < step));
  assert.equal(version(db), step - 1);
  return db;
}
const stepNamed = (pattern: RegExp) => migrations.find((s) => pattern.test(s.name))!.version;

function insertOrgAndCard(db: Db, card: { id: string; questions?: unknown[]; design?: unknown }): void {
  db.prepare("INSERT OR IGNORE INTO orgs (id, name, created_at) VALUES ('org_a', 'Shop', 1)").run();
  db.prepare("INSERT INTO cards (id, org_id, name, pass_type, questions, design, created_at, updated_at) VALUES (?, 'org_a', 'Card', 'stamp_card', ?, ?, 1, 1)").run(
    card.id,
    JSON.stringify(card.questions ?? []),
    card.design === undefined ? null : JSON.stringify(card.design),
  );
}

let customers = 0;
function insertCustomer(db: Db, c: { cardId: string; email?: string | null; emailNorm?: string | null; phone?: string | null; phoneNorm?: string | null; customFields?: Record<string, unknown> }): string {
  const id = `cus_${++customers}`;
  db.prepare(
    `INSERT INTO customers (id, org_id, card_id, livemode, email, email_norm, phone, phone_norm, custom_fields, install_code, scan_code, pass_updated_at, created_at, updated_at)
     VALUES (?, 'org_a', ?, 1, ?, ?, ?, ?, ?, ?, ?, 1, 1, 7)`,
  ).run(id, c.cardId, c.email ?? null, c.emailNorm ?? null, c.phone ?? null, c.phoneNorm ?? null, JSON.stringify(c.customFields ?? {}), `install-${id}`, `scan-${id}`);
  return id;
}

describe('data migrations', () => {
  after(() => scratch.remove());

  it('a function step runs in its own transaction: a failure rolls it back whole', () => {
    const db = databaseBefore(2);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_x', 'Before', 1)").run();
    const rename: MigrationStep = { version: 2, name: 'rename', run: (d) => d.prepare("UPDATE orgs SET name = 'After'").run() };
    const broken: MigrationStep = {
      version: 3,
      name: 'fails half way',
      run: (d) => {
        d.prepare("UPDATE orgs SET name = 'Half'").run();
        throw new Error('step 3 failed');
      },
    };
    assert.throws(() => migrate(db, [migrations[0]!, rename, broken]), /step 3 failed/);
    assert.equal(version(db), 2);
    assert.equal((db.prepare('SELECT name FROM orgs').get() as { name: string }).name, 'After', 'step 3 left nothing behind');
    db.close();
  });

  it('re-normalises stored emails and phones, and phone answers, by the current rules', () => {
    const step = stepNamed(/email and phone/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_q', questions: [{ key: 'altPhone', label: 'Phone', type: 'phone', required: false, isIdentifier: false }, { key: 'note', label: 'Note', type: 'text', required: false, isIdentifier: false }] });
    insertOrgAndCard(db, { id: 'card_plain' });
    // What the old rules stored: the trunk 0 kept, any +digits taken, the domain as typed.
    const uk = insertCustomer(db, { cardId: 'card_q', email: 'Jörg@Bücher.de', emailNorm: 'jörg@bücher.de', phone: '+44 (0)20 7946 0958', phoneNorm: '+4402079460958', customFields: { altPhone: '+4402079460958', note: '+4402079460958' } });
    const nowhere = insertCustomer(db, { cardId: 'card_q', email: 'not an email', emailNorm: 'not an email', phone: '+999 1234567', phoneNorm: '+9991234567', customFields: { altPhone: '+9991234567' } });
    const plain = insertCustomer(db, { cardId: 'card_plain', email: 'ada@example.com', emailNorm: 'ada@example.com', phone: '0170 1234567' });

    assert.deepEqual(migrate(db), { from: step - 1, to: latestVersion() });
    const row = (id: string) => db.prepare('SELECT email, email_norm, phone, phone_norm, custom_fields, updated_at FROM customers WHERE id = ?').get(id) as Record<string, unknown>;
    assert.deepEqual(row(uk), {
      email: 'Jörg@Bücher.de', email_norm: 'jörg@xn--bcher-kva.de', phone: '+44 (0)20 7946 0958', phone_norm: '+442079460958',
      custom_fields: JSON.stringify({ altPhone: '+442079460958', note: '+4402079460958' }), updated_at: 7,
    }, 'normal forms follow the rules; what was typed, text answers and updated_at stay');
    // An answer the phone rule now refuses is kept: it is the only copy of what the customer gave.
    assert.deepEqual(row(nowhere), { email: 'not an email', email_norm: null, phone: '+999 1234567', phone_norm: null, custom_fields: JSON.stringify({ altPhone: '+9991234567' }), updated_at: 7 });
    assert.deepEqual(row(plain), { email: 'ada@example.com', email_norm: 'ada@example.com', phone: '0170 1234567', phone_norm: null, custom_fields: '{}', updated_at: 7 });
    db.close();
  });

  it('drops stored card colours the colour rule refuses, so the card falls back to the default colours', () => {
    const step = stepNamed(/colour/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_bad', design: { backgroundColor: 'rgb(300,0,0)', foregroundColor: '#fff', labelColor: 'rgb(1, 2, 3)', logoText: 'Café' } });
    insertOrgAndCard(db, { id: 'card_none' });
    insertOrgAndCard(db, { id: 'card_all_bad', design: { backgroundColor: 'teal' } });

    migrate(db);
    const design = (id: string) => (db.prepare('SELECT design FROM cards WHERE id = ?').get(id) as { design: string | null }).design;
    assert.deepEqual(JSON.parse(design('card_bad')!), { foregroundColor: '#fff', labelColor: 'rgb(1, 2, 3)', logoText: 'Café' });
    assert.equal(design('card_none'), null);
    assert.deepEqual(JSON.parse(design('card_all_bad')!), {});
    db.close();
  });

  it("takes the customer-keyed award and live-event indexes out, and makes the sweep's trigger again", () => {
    const step = stepNamed(/undone rows found by one probe/);
    const db = databaseBefore(step);
    const indexes = () => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('transactions', 'events') ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    assert.ok(indexes().includes('transactions_awards') && indexes().includes('events_customer'));
    // What releases before it left: a trigger that read every reversal for every row.
    db.exec('DROP TRIGGER customers_slots_forget; CREATE TRIGGER customers_slots_forget BEFORE DELETE ON customers BEGIN SELECT 1; END;');

    migrate(db);
    assert.deepEqual(
      indexes().filter((n) => /awards|customer/.test(n)),
      ['events_test_customer', 'transactions_counter_awards', 'transactions_customer'],
    );
    const trigger = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'customers_slots_forget'").get() as { sql: string }).sql;
    assert.match(trigger, /json_extract\(r\.details, '\$\.reverses'\) = \+t\.id/);
    db.close();
  });

  it("keys the search index's row map by (created_at, customer_id), its numbers kept, and keeps it in step afterwards", () => {
    const step = stepNamed(/row map in enrolment order/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_s' });
    const insert = db.prepare(
      `INSERT INTO customers (id, org_id, card_id, livemode, name, install_code, scan_code, pass_updated_at, created_at, updated_at)
       VALUES (@id, 'org_a', 'card_s', 1, @name, 'i-' || @id, 's-' || @id, 1, @createdAt, 1)`,
    );
    for (const [id, name, createdAt] of [['pu_b', 'Bea', 20], ['pu_a', 'Ann', 10], ['pu_c', 'Cem', 30]] as const) insert.run({ id, name, createdAt });
    // What releases before it left: the map keyed by the customer alone, with its own triggers.
    db.exec(`
      DROP TRIGGER customers_search_insert; DROP TRIGGER customers_search_update; DROP TRIGGER customers_search_delete;
      ALTER TABLE customer_search_rows RENAME TO old_map;
      CREATE TABLE customer_search_rows (seq INTEGER PRIMARY KEY, customer_id TEXT NOT NULL UNIQUE);
      INSERT INTO customer_search_rows (seq, customer_id) SELECT seq, customer_id FROM old_map;
      DROP TABLE old_map;
      CREATE TRIGGER customers_search_insert AFTER INSERT ON customers BEGIN SELECT 1; END;
      CREATE TRIGGER customers_search_update AFTER UPDATE OF name ON customers BEGIN SELECT 1; END;
      CREATE TRIGGER customers_search_delete AFTER DELETE ON customers BEGIN SELECT 1; END;`);
    const map = () => db.prepare('SELECT seq, customer_id, created_at FROM customer_search_rows ORDER BY seq').all();
    const seqs = (db.prepare('SELECT seq, customer_id FROM customer_search_rows ORDER BY seq').all() as { seq: number; customer_id: string }[]);
    const found = (words: string) => (db.prepare(
      'SELECT r.customer_id AS id FROM customer_search s JOIN customer_search_rows r ON r.seq = s.rowid WHERE customer_search MATCH ? ORDER BY s.rowid',
    ).all(words) as { id: string }[]).map((r) => r.id);

    migrate(db);
    assert.equal(version(db), latestVersion());
    assert.deepEqual(map(), seqs.map((r) => ({ ...r, created_at: { pu_a: 10, pu_b: 20, pu_c: 30 }[r.customer_id] })), 'same numbers, each with its customer\'s created_at');
    assert.deepEqual(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'customer_search_rows'").all(),
      [{ name: 'customer_search_rows_customer' }],
      'no index keyed by the customer alone',
    );
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT seq FROM customer_search_rows WHERE created_at = ? AND customer_id = ?').all(1, 'x') as { detail: string }[];
    assert.match(plan.map((p) => p.detail).join('; '), /^SEARCH customer_search_rows USING COVERING INDEX customer_search_rows_customer \(created_at=\? AND customer_id=\?\)$/);
    assert.deepEqual(found('name:ann'), ['pu_a'], 'the full-text rows kept their numbers');

    // The triggers made again: a new customer, a new name, a deletion.
    insert.run({ id: 'pu_d', name: 'Dora', createdAt: 40 });
    assert.deepEqual(found('name:dora'), ['pu_d']);
    db.prepare("UPDATE customers SET name = 'Anna' WHERE id = 'pu_a'").run();
    assert.deepEqual([found('name:ann'), found('name:anna')], [[], ['pu_a']]);
    db.prepare("UPDATE customers SET created_at = 15 WHERE id = 'pu_a'").run();
    db.prepare("UPDATE customers SET name = 'Annika' WHERE id = 'pu_a'").run();
    assert.deepEqual(found('name:annika'), ['pu_a'], 'a changed created_at is followed');
    db.prepare("DELETE FROM customers WHERE id = 'pu_b'").run();
    assert.deepEqual(found('name:bea'), []);
    assert.deepEqual(map().map((r) => (r as { customer_id: string }).customer_id).sort(), ['pu_a', 'pu_c', 'pu_d']);
    db.close();
  });

  // Migration 15: each listed CHECK written as comparisons, the same values accepted and refused.
  // The tables are rebuilt: rows keep their row numbers, and indexes and triggers are made again.
  const listedChecks = [
    { table: 'cards', column: 'pass_type', id: 'card_l', values: ['stamp_card', 'point_card', 'level_card', 'prepaid_card'] },
    { table: 'customers', column: 'source', id: 'cus_l', values: ['api', 'scan', 'signup', 'console'] },
    { table: 'transactions', column: 'source', id: 'tx_l', values: ['api', 'scan', 'signup', 'console'] },
    { table: 'webhook_deliveries', column: 'status', id: 'del_l', values: ['pending', 'succeeded', 'failed'] },
  ];

  it('rebuilds the tables whose CHECKs list three values or more, as comparisons: rows, indexes, triggers and refusals as they were', () => {
    const step = stepNamed(/CHECK constraints that list values/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_l' });
    db.exec(`
      INSERT INTO customers (id, org_id, card_id, livemode, install_code, scan_code, pass_updated_at, created_at, updated_at, source)
        VALUES ('cus_l', 'org_a', 'card_l', 1, 'i-l', 's-l', 1, 1, 1, 'signup');
      INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, created_at)
        VALUES ('tx_l', 'org_a', 'cus_l', 1, 'earn', 100, 100, 1, 'scan', 1);
      INSERT INTO webhooks (id, org_id, livemode, url, events, status, secret, created_at, updated_at)
        VALUES ('wh_l', 'org_a', 1, 'https://example.com/hook', '["*"]', 'active', 'whsec_l', 1, 1);
      INSERT INTO events (id, org_id, livemode, type, customer_id, payload, created_at) VALUES ('evt_l', 'org_a', 1, 'balance.updated', 'cus_l', '{}', 1);
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, next_attempt_at, created_at) VALUES ('del_l', 'wh_l', 'evt_l', 'pending', 1, 1);`);
    const rows = () => listedChecks.map((c) => db.prepare(`SELECT rowid, * FROM ${c.table} WHERE id = ?`).get(c.id));
    const dependents = () => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('index', 'trigger') ORDER BY name").all();
    const [rowsBefore, dependentsBefore] = [rows(), dependents()];

    migrate(db, migrations.filter((s) => s.version <= step));
    assert.equal(version(db), step);
    assert.deepEqual(rows(), rowsBefore, 'no row changed, nor its row number');
    assert.deepEqual(dependents(), dependentsBefore, 'every index and trigger as it was');
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    for (const c of listedChecks) {
      const sql = (db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(c.table) as { sql: string }).sql;
      assert.ok(sql.includes(`CHECK (${c.values.map((v) => `${c.column} = '${v}'`).join(' OR ')})`), sql);
      const set = db.prepare(`UPDATE ${c.table} SET ${c.column} = ? WHERE id = ?`);
      for (const value of c.values) set.run(value, c.id);
      for (const refused of ['', 'other', c.values[0]!.toUpperCase(), `${c.values[0]} `]) {
        assert.throws(() => set.run(refused, c.id), /CHECK constraint failed/, `${c.table}.${c.column} = '${refused}'`);
      }
    }
    assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    // The rows that reference a rebuilt table still follow it: a customer's delete takes their ledger rows.
    db.prepare("DELETE FROM customers WHERE id = 'cus_l'").run();
    assert.equal(db.prepare("SELECT count(*) FROM transactions WHERE customer_id = 'cus_l'").pluck().get(), 0);
    db.close();
  });

  it("rebuilds a customer's ledger index as (customer_id, created_at): the rows it finds, newest first, ties by row number", () => {
    const step = stepNamed(/ledger index ends in the row number/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_l' });
    const customer = insertCustomer(db, { cardId: 'card_l' });
    const other = insertCustomer(db, { cardId: 'card_l' });
    const insert = db.prepare(
      `INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, created_at)
       VALUES (?, 'org_a', ?, 1, 'earn', 100, 100, 1, 'api', ?)`,
    );
    // Ids that sort against the row order, so an order by id shows.
    for (const [id, who, at] of [['tx_c', customer, 5], ['tx_b', customer, 9], ['tx_z', other, 9], ['tx_a', customer, 9]] as const) insert.run(id, who, at);
    const pageOf = () => (db.prepare(`SELECT id FROM transactions WHERE customer_id = ? ORDER BY created_at DESC, rowid DESC`).all(customer) as { id: string }[]).map((r) => r.id);
    const indexSql = () => (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'transactions_customer'").get() as { sql: string }).sql;
    assert.match(indexSql(), /\(customer_id, created_at DESC, id DESC\)/);
    const before = pageOf();

    migrate(db);
    assert.match(indexSql(), /ON transactions \(customer_id, created_at\)$/);
    assert.deepEqual(pageOf(), before);
    assert.deepEqual(pageOf(), ['tx_a', 'tx_b', 'tx_c']);
    assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
    db.close();
  });

  it('adds the import channel to the source CHECKs by rebuilding both tables: rows, indexes and refusals otherwise as they were', () => {
    const step = stepNamed(/customer imports/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_i' });
    const customer = insertCustomer(db, { cardId: 'card_i', email: 'a@example.com', emailNorm: 'a@example.com' });
    db.exec(`
      INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, created_at)
        VALUES ('tx_award', 'org_a', '${customer}', 1, 'earn', 300, 300, 1, 'scan', 1000);
      UPDATE customers SET balance = 300 WHERE id = '${customer}';`);
    const tables = ['customers', 'transactions', 'ledger_slots', 'customer_slots', 'customer_counts'];
    const before = tables.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).all());
    const indexes = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('customers', 'transactions') ORDER BY name").all();

    migrate(db, migrations.filter((s) => s.version <= step));
    assert.equal(version(db), step);
    const withoutConsent = (rows: unknown[]) => rows.map(({ consent_sha256: _s, consent_at: _a, ...rest }: any) => rest);
    assert.deepEqual(tables.map((t) => withoutConsent(db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).all())), before, 'no stored row changed');
    assert.deepEqual(db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('customers', 'transactions') ORDER BY name").all(), indexes, 'indexes as they were');
    assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
    assert.deepEqual(db.pragma('foreign_key_check'), []);

    // The import channel is accepted in both tables; what was refused before still is.
    db.exec(`
      INSERT INTO customers (id, org_id, card_id, livemode, install_code, scan_code, pass_updated_at, created_at, updated_at, source)
        VALUES ('cus_imp', 'org_a', 'card_i', 1, 'i-imp', 's-imp', 1, 2000, 2000, 'import');
      INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, note, created_at)
        VALUES ('tx_imp', 'org_a', 'cus_imp', 1, 'initial', 1200, 1200, 0, 'import', 'Imported balance', 2000);`);
    for (const table of ['customers', 'transactions']) {
      const set = db.prepare(`UPDATE ${table} SET source = ? WHERE id = ?`);
      for (const refused of ['', 'imports', 'IMPORT', 'other']) assert.throws(() => set.run(refused, table === 'customers' ? 'cus_imp' : 'tx_imp'), /CHECK constraint failed/);
    }
    // The dashboard's sums: the imported balance under its own channel, no award; the sweep takes it out again.
    assert.deepEqual(db.prepare("SELECT source, awarded, awards FROM ledger_slots WHERE source = 'import'").all(), [{ source: 'import', awarded: 1200, awards: 0 }]);
    db.prepare("DELETE FROM customers WHERE id = 'cus_imp'").run();
    assert.deepEqual(db.prepare("SELECT source, awarded, awards FROM ledger_slots WHERE source = 'import'").all(), [{ source: 'import', awarded: 0, awards: 0 }]);
    db.close();
  });

  it('refuses to run on a table whose source CHECK is not the one it expects, and changes nothing', () => {
    assert.throws(() => withImportChannel('customers', "CREATE TABLE customers (source TEXT CHECK (source IN ('api')))"), /customers has no single CHECK/);
  });

  it('turns each card’s single reward into a one-entry reward list with an id of its own, and drops the old column', () => {
    const step = stepNamed(/several rewards per card/);
    const db = databaseBefore(step);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('org_a', 'Shop', 1)").run();
    const insert = db.prepare("INSERT INTO cards (id, org_id, name, pass_type, reward, created_at, updated_at) VALUES (?, 'org_a', 'Card', ?, ?, 1, 1)");
    insert.run('card_coffee', 'stamp_card', JSON.stringify({ name: 'Free coffee', cost: 1000 }));
    insert.run('card_club', 'level_card', JSON.stringify({ name: 'Old voucher', cost: 50_000 }));
    insert.run('card_bare', 'point_card', null);
    migrate(db, migrations.filter((s) => s.version <= step));

    const rows = db.prepare('SELECT id, rewards, flag_awards_per_day, unit_value_e4, updated_at FROM cards ORDER BY id').all() as { id: string; rewards: string; flag_awards_per_day: null; unit_value_e4: null; updated_at: number }[];
    const lists = Object.fromEntries(rows.map((r) => [r.id, JSON.parse(r.rewards) as { id: string; name: string; cost: number }[]]));
    assert.deepEqual(lists.card_coffee!.map(({ id: _id, ...r }) => r), [{ name: 'Free coffee', cost: 1000 }]);
    assert.deepEqual(lists.card_club!.map(({ id: _id, ...r }) => r), [{ name: 'Old voucher', cost: 50_000 }], 'what every card shows stays as it was');
    assert.deepEqual(lists.card_bare, []);
    const ids = [lists.card_coffee![0]!.id, lists.card_club![0]!.id];
    assert.ok(ids.every((id) => /^rw_[0-9A-Za-z]{20}$/.test(id)) && ids[0] !== ids[1], ids.join());
    assert.ok(rows.every((r) => r.flag_awards_per_day === null && r.unit_value_e4 === null && r.updated_at === 1));
    const columns = (db.prepare('PRAGMA table_info(cards)').all() as { name: string }[]).map((c) => c.name);
    assert.ok(!columns.includes('reward'), 'the list is the one stored copy');
    db.close();
  });

  it('keeps every webhook attempt when their table is stored in key order, and still removes them with their delivery', () => {
    const step = stepNamed(/attempts kept in their key's order/);
    const db = databaseBefore(step);
    db.exec(`INSERT INTO orgs (id, name, created_at) VALUES ('org_w', 'Shop', 1);
      INSERT INTO webhooks (id, org_id, livemode, url, events, status, secret, created_at, updated_at) VALUES ('we_1', 'org_w', 1, 'https://example.com/in', '["*"]', 'active', 'whsec_1', 1, 1);
      INSERT INTO events (id, org_id, livemode, type, customer_id, payload, created_at) VALUES ('evt_1', 'org_w', 1, 'balance.updated', NULL, '{}', 1);
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempt_count, created_at) VALUES ('wd_1', 'we_1', 'evt_1', 'failed', 2, 1), ('wd_2', 'we_1', 'evt_1', 'succeeded', 1, 2);
      INSERT INTO webhook_attempts (delivery_id, number, status, response_code, error, duration_ms, at) VALUES
        ('wd_1', 2, 'failed', NULL, 'timeout', 5000, 20), ('wd_1', 1, 'failed', 503, 'HTTP 503', 12, 10), ('wd_2', 1, 'succeeded', 200, NULL, 3, 30);`);
    const attempts = () => db.prepare('SELECT * FROM webhook_attempts ORDER BY delivery_id, number').all();
    const before = attempts();

    migrate(db, migrations.filter((s) => s.version <= step));
    assert.deepEqual(attempts(), before);
    assert.match((db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'webhook_attempts'").get() as { sql: string }).sql, /\) WITHOUT ROWID$/);
    assert.throws(() => db.prepare("INSERT INTO webhook_attempts (delivery_id, number, status, duration_ms, at) VALUES ('wd_2', 1, 'failed', 1, 1)").run(), /UNIQUE|PRIMARY KEY/);
    assert.throws(() => db.prepare("INSERT INTO webhook_attempts (delivery_id, number, status, duration_ms, at) VALUES ('wd_9', 1, 'failed', 1, 1)").run(), /FOREIGN KEY/);
    db.prepare("DELETE FROM webhook_deliveries WHERE id = 'wd_1'").run();
    assert.deepEqual((attempts() as { delivery_id: string }[]).map((a) => a.delivery_id), ['wd_2'], 'the attempts go with their delivery');
    db.close();
  });

  it('keys events by row number and deliveries by id: every row, attempt and reference kept, each event counting its deliveries', () => {
    const step = stepNamed(/events by row number, deliveries by id/);
    const db = databaseBefore(step);
    db.exec(`INSERT INTO orgs (id, name, created_at) VALUES ('org_w', 'Shop', 1);
      INSERT INTO webhooks (id, org_id, livemode, url, events, status, secret, created_at, updated_at) VALUES
        ('we_1', 'org_w', 1, 'https://example.com/in', '["*"]', 'active', 'whsec_1', 1, 1), ('we_t', 'org_w', 0, 'https://example.com/t', '["*"]', 'active', 'whsec_t', 1, 1);
      INSERT INTO events (id, org_id, livemode, type, customer_id, payload, created_at) VALUES
        ('evt_1', 'org_w', 1, 'balance.updated', 'cus_1', '{"id":"evt_1"}', 10), ('evt_2', 'org_w', 1, 'customer.enrolled', 'cus_1', '{"id":"evt_2"}', 5),
        ('evt_t', 'org_w', 0, 'customer.enrolled', 'cus_t', '{"id":"evt_t"}', 20);
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempt_count, next_attempt_at, lease_until, replay_of, created_at) VALUES
        ('wd_1', 'we_1', 'evt_1', 'failed', 2, NULL, NULL, NULL, 10), ('wd_2', 'we_1', 'evt_1', 'pending', 0, 40, 45, 'wd_1', 30), ('wd_t', 'we_t', 'evt_t', 'succeeded', 1, NULL, NULL, NULL, 20);
      INSERT INTO webhook_attempts (delivery_id, number, status, response_code, error, duration_ms, at) VALUES
        ('wd_1', 1, 'failed', 503, 'HTTP 503', 12, 10), ('wd_1', 2, 'failed', NULL, 'timeout', 5000, 20), ('wd_t', 1, 'succeeded', 200, NULL, 3, 21);`);
    const rowids = Object.fromEntries((db.prepare('SELECT id, rowid AS n FROM events').all() as { id: string; n: number }[]).map((r) => [r.id, r.n]));
    const attempts = () => db.prepare('SELECT * FROM webhook_attempts ORDER BY delivery_id, number').all();
    const attemptsBefore = attempts();

    migrate(db, migrations.filter((s) => s.version <= step));
    assert.deepEqual(db.prepare('SELECT seq, id, org_id, livemode, type, customer_id, payload, created_at, deliveries FROM events ORDER BY seq').all(), [
      { seq: rowids.evt_1, id: 'evt_1', org_id: 'org_w', livemode: 1, type: 'balance.updated', customer_id: 'cus_1', payload: '{"id":"evt_1"}', created_at: 10, deliveries: 2 },
      { seq: rowids.evt_2, id: 'evt_2', org_id: 'org_w', livemode: 1, type: 'customer.enrolled', customer_id: 'cus_1', payload: '{"id":"evt_2"}', created_at: 5, deliveries: 0 },
      { seq: rowids.evt_t, id: 'evt_t', org_id: 'org_w', livemode: 0, type: 'customer.enrolled', customer_id: 'cus_t', payload: '{"id":"evt_t"}', created_at: 20, deliveries: 1 },
    ]);
    assert.deepEqual(db.prepare('SELECT * FROM webhook_deliveries ORDER BY id').all(), [
      { id: 'wd_1', webhook_id: 'we_1', event_seq: rowids.evt_1, livemode: 1, status: 'failed', attempt_count: 2, next_attempt_at: null, lease_until: null, replay_of: null, created_at: 10 },
      { id: 'wd_2', webhook_id: 'we_1', event_seq: rowids.evt_1, livemode: 1, status: 'pending', attempt_count: 0, next_attempt_at: 40, lease_until: 45, replay_of: 'wd_1', created_at: 30 },
      { id: 'wd_t', webhook_id: 'we_t', event_seq: rowids.evt_t, livemode: 0, status: 'succeeded', attempt_count: 1, next_attempt_at: null, lease_until: null, replay_of: null, created_at: 20 },
    ]);
    assert.deepEqual(attempts(), attemptsBefore);
    assert.deepEqual(db.pragma('foreign_key_check'), []);

    // The counts follow the deliveries; a test event takes its deliveries (and their attempts) with it.
    const counts = () => db.prepare('SELECT id, deliveries FROM events ORDER BY seq').all().map((r) => Object.values(r as object).join(' '));
    db.prepare("DELETE FROM webhook_deliveries WHERE id = 'wd_1'").run();
    db.prepare("INSERT INTO webhook_deliveries (id, webhook_id, event_seq, livemode, status, created_at) VALUES ('wd_3', 'we_1', ?, 1, 'pending', 50)").run(rowids.evt_2);
    assert.deepEqual(counts(), ['evt_1 1', 'evt_2 1', 'evt_t 1']);
    db.prepare("DELETE FROM events WHERE customer_id = 'cus_t' AND livemode = 0").run();
    assert.deepEqual((db.prepare('SELECT id FROM webhook_deliveries ORDER BY id').all() as { id: string }[]).map((d) => d.id), ['wd_2', 'wd_3']);
    assert.deepEqual(attempts(), [], 'the attempts went with their deliveries');
    assert.throws(() => db.prepare("INSERT INTO webhook_attempts (delivery_id, number, status, duration_ms, at) VALUES ('wd_9', 1, 'failed', 1, 1)").run(), /FOREIGN KEY/);
    db.close();
  });

  it("takes the ledger ids' index out on a big ledger: rows, ids, history order, lots, reversals and the dashboard's sums as they were", () => {
    const step = stepNamed(/ledger ids unindexed/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_x' });
    const customers = [0, 1, 2, 3].map(() => insertCustomer(db, { cardId: 'card_x' }));
    const insert = db.prepare(
      `INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, details, created_at)
       VALUES (@id, 'org_a', @customer, 1, @kind, @change, 0, @award, 'scan', @details, @at)`,
    );
    const lot = db.prepare("INSERT INTO award_lots (transaction_id, customer_id, awarded_at, remaining) VALUES (?, ?, ?, 100)");
    // 20,000 rows, five in each millisecond, with random ids: among rows of one millisecond the ids
    // sort against the order they were written in, so only the row numbers keep the history's order.
    const ids: string[] = [];
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) {
        const id = `tx_${(1_000_000 - i).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
        const customer = customers[i % 4]!;
        insert.run({ id, customer, kind: 'earn', change: 100, award: 1, details: null, at: 1_000_000 + Math.floor(i / 5) });
        if (i % 10 === 0) lot.run(id, customer, 1_000_000 + Math.floor(i / 5));
        ids.push(id);
      }
      // An undo of the first row, before the step.
      insert.run({ id: 'tx_undo1', customer: customers[0], kind: 'reversal', change: -100, award: 0, details: JSON.stringify({ reverses: ids[0] }), at: 2_000_000 });
    })();
    const rows = () => db.prepare('SELECT rowid, * FROM transactions ORDER BY rowid').all();
    const history = (customer: string) => db.prepare('SELECT id FROM transactions WHERE customer_id = ? ORDER BY created_at DESC, rowid DESC').pluck().all(customer);
    const slots = () => db.prepare('SELECT * FROM ledger_slots ORDER BY slot').all();
    const lots = () => db.prepare('SELECT * FROM award_lots ORDER BY transaction_id').all();
    const indexes = () => db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' ORDER BY name").all() as { name: string; sql: string | null }[];
    const before = { rows: rows(), histories: customers.map(history), slots: slots(), lots: lots(), indexes: indexes() };
    assert.ok(before.indexes.some((i) => i.name === 'sqlite_autoindex_transactions_1'));

    migrate(db, migrations.filter((s) => s.version <= step));
    assert.equal(version(db), step);
    assert.deepEqual(rows(), before.rows, 'every row, with its rowid and id');
    assert.deepEqual(customers.map(history), before.histories, "each customer's history in the same order");
    assert.deepEqual(slots(), before.slots);
    assert.deepEqual(lots(), before.lots);
    assert.deepEqual(indexes(), before.indexes.filter((i) => i.name !== 'sqlite_autoindex_transactions_1'), 'the id index alone is gone');
    assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
    assert.deepEqual(db.pragma('foreign_key_check'), []);

    // A row is still undone once only, and an undo still takes the row's sums out of the dashboard.
    const undo = (id: string, of: string, customer: string) =>
      insert.run({ id, customer, kind: 'reversal', change: -100, award: 0, details: JSON.stringify({ reverses: of }), at: 2_000_001 });
    assert.throws(() => undo('tx_undo2', ids[0]!, customers[0]!), /UNIQUE constraint failed/);
    const slotOf = (at: number) => db.prepare('SELECT awarded, awards FROM ledger_slots WHERE slot = ?').get(Math.floor(at / 900000));
    const awardedBefore = slotOf(1_000_000 + 4000) as { awarded: number; awards: number };
    undo('tx_undo3', ids[20_000 - 1]!, customers[(20_000 - 1) % 4]!);
    assert.deepEqual(slotOf(1_000_000 + 4000), { awarded: awardedBefore.awarded - 100, awards: awardedBefore.awards - 1 });

    // A customer's lots go with their rows; the others' stay.
    const lotsOf = (customer: string) => db.prepare('SELECT count(*) FROM award_lots WHERE customer_id = ?').pluck().get(customer);
    assert.equal(lotsOf(customers[2]!), 1000);
    db.prepare('DELETE FROM customers WHERE id = ?').run(customers[2]);
    assert.equal(lotsOf(customers[2]!), 0);
    assert.equal(lotsOf(customers[0]!), 1000);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    db.close();
  });

  it('keys award lots by customer and age: the lots with units left in the order they are used, the used-up ones gone, and they go with their customer', () => {
    const step = stepNamed(/award lots keyed by customer/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_lots' });
    const [a, b] = [insertCustomer(db, { cardId: 'card_lots' }), insertCustomer(db, { cardId: 'card_lots' })];
    const tx = db.prepare(`INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, created_at) VALUES (?, 'org_a', ?, 1, 'earn', 100, 100, 1, 'api', ?)`);
    const lot = db.prepare('INSERT INTO award_lots (transaction_id, customer_id, awarded_at, expires_at, inactive_days, remaining) VALUES (?, ?, ?, ?, ?, ?)');
    // Written out of order: two of the same millisecond, a used-up one, another customer's.
    for (const [id, customer, at, expiresAt, inactiveDays, remaining] of [
      ['tx_3', a, 20, 900, null, 100],
      ['tx_1', a, 10, 800, null, 0],
      ['tx_2', a, 20, 900, null, 50],
      ['tx_4', b, 5, null, 30, 100],
    ] as const) {
      tx.run(id, customer, at);
      lot.run(id, customer, at, expiresAt, inactiveDays, remaining);
    }

    migrate(db, migrations.filter((s) => s.version <= step));
    const lotsOf = (customer: string) => db.prepare('SELECT transaction_id, awarded_at, expires_at, inactive_days, remaining FROM award_lots WHERE customer_id = ? ORDER BY awarded_at, transaction_id').all(customer);
    assert.deepEqual(lotsOf(a), [
      { transaction_id: 'tx_2', awarded_at: 20, expires_at: 900, inactive_days: null, remaining: 50 },
      { transaction_id: 'tx_3', awarded_at: 20, expires_at: 900, inactive_days: null, remaining: 100 },
    ]);
    assert.deepEqual(lotsOf(b), [{ transaction_id: 'tx_4', awarded_at: 5, expires_at: null, inactive_days: 30, remaining: 100 }]);
    assert.match((db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'award_lots'").get() as { sql: string }).sql, /\) WITHOUT ROWID$/);
    assert.throws(() => lot.run('tx_9', a, 30, null, null, 0), /CHECK/, 'a used-up lot is deleted, never kept at 0');
    db.prepare('DELETE FROM customers WHERE id = ?').run(a);
    assert.deepEqual(lotsOf(a), [], 'the lots go with their customer');
    db.close();
  });

  it("counts each counter award's counter awards in the 26 hours before it, on the old ledger and for every new one", () => {
    const step = stepNamed(/counter awards: the size in their index/);
    const db = databaseBefore(step);
    insertOrgAndCard(db, { id: 'card_counter' });
    const [a, b] = [insertCustomer(db, { cardId: 'card_counter' }), insertCustomer(db, { cardId: 'card_counter' })];
    const hour = 3_600_000;
    const tx = db.prepare(`INSERT INTO transactions (id, org_id, customer_id, livemode, kind, change, balance_after, is_award, source, created_at) VALUES (?, 'org_a', ?, 1, ?, 100, 100, ?, ?, ?)`);
    const before = [
      ['tx_a1', a, 'earn', 1, 'scan', 0],
      ['tx_a2', a, 'earn', 1, 'scan', 10 * hour],
      ['tx_api', a, 'earn', 1, 'api', 11 * hour], // not at the counter: neither counted nor counting
      ['tx_undo', a, 'reversal', 0, 'scan', 11 * hour], // no award
      ['tx_a3', a, 'earn', 1, 'scan', 26 * hour - 1], // a1 still within 26 hours
      ['tx_a4', a, 'earn', 1, 'scan', 26 * hour], // a1 exactly 26 hours before: out
      ['tx_b1', b, 'earn', 1, 'scan', 26 * hour], // another customer's
    ] as const;
    for (const row of before) tx.run(...row);

    migrate(db, migrations.filter((s) => s.version <= step));
    const counts = () => Object.fromEntries((db.prepare('SELECT id, counter_awards_before AS n FROM transactions ORDER BY rowid').all() as { id: string; n: number }[]).map((r) => [r.id, r.n]));
    assert.deepEqual(counts(), { tx_a1: 0, tx_a2: 1, tx_api: 0, tx_undo: 0, tx_a3: 2, tx_a4: 2, tx_b1: 0 });
    tx.run('tx_a5', a, 'earn', 1, 'scan', 27 * hour);
    tx.run('tx_a6', a, 'earn', 1, 'api', 27 * hour);
    tx.run('tx_b2', b, 'earn', 1, 'scan', 27 * hour);
    assert.deepEqual(counts(), { tx_a1: 0, tx_a2: 1, tx_api: 0, tx_undo: 0, tx_a3: 2, tx_a4: 2, tx_b1: 0, tx_a5: 3, tx_a6: 0, tx_b2: 1 }, 'the trigger counts a new one as the step counted the old');
    db.close();
  });

  it('leaves no CHECK on a new database that lists three values or more', () => {
    const db = freshDb();
    migrate(db);
    const listed = (db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").all() as { name: string; sql: string }[])
      .filter((t) => /CHECK \(\w+ IN \('[^']*'(, '[^']*'){2,}\)\)/.test(t.sql))
      .map((t) => t.name);
    assert.deepEqual(listed, []);
    // Each written row builds no temporary B-tree for its CHECK (the reversal trigger's own query aside).
    for (const c of listedChecks) {
      const ops = db.prepare(`EXPLAIN UPDATE ${c.table} SET ${c.column} = ? WHERE id = ?`).all('x', 'y') as { opcode: string }[];
      assert.deepEqual(ops.filter((o) => o.opcode === 'OpenEphemeral'), [], c.table);
    }
    db.close();
  });
});

describe('listedChecksAsComparisons', () => {
  const cases = [
    { sql: "s TEXT CHECK (s IN ('a', 'b', 'c'))", want: "s TEXT CHECK (s = 'a' OR s = 'b' OR s = 'c')" },
    { sql: "x INT, s TEXT NOT NULL CHECK (s IN ('api', 'scan', 'signup', 'console')),\n y INT", want: "x INT, s TEXT NOT NULL CHECK (s = 'api' OR s = 'scan' OR s = 'signup' OR s = 'console'),\n y INT" },
    { sql: "m TEXT CHECK (m IN ('live', 'test'))", want: "m TEXT CHECK (m IN ('live', 'test'))", name: 'two values: SQLite compares them already' },
    { sql: "a TEXT CHECK (a IN ('x', 'y', 'z')), b TEXT CHECK (b IN ('p', 'q', 'r'))", want: "a TEXT CHECK (a = 'x' OR a = 'y' OR a = 'z'), b TEXT CHECK (b = 'p' OR b = 'q' OR b = 'r')" },
    { sql: "n INT CHECK (n IN (1, 2, 3))", want: "n INT CHECK (n IN (1, 2, 3))", name: 'numbers: none in this schema, left alone' },
  ];
  for (const c of cases) {
    it(c.name ?? c.sql, () => assert.equal(listedChecksAsComparisons(c.sql), c.want));
  }
});
