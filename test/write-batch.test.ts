import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { wakeAfterCommit } from '../src/db/after-commit';
import { openDatabase, type Db } from '../src/db/open';
import { transactionRefusingFirst } from '../src/db/transactions';
import { BatchCommitError, writeBatches } from '../src/db/write-batch';
import { cardsRepo } from '../src/cards/repo';
import { createRowCache } from '../src/db/row-cache';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';

// Group commit (src/db/write-batch.ts): the units of one turn of the event loop share one
// transaction, each write stays all or nothing, nobody hears of a write before it is committed,
// and whatever runs outside a unit sees the connection as if there were no batch.

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('write batches on a connection', () => {
  let dir: string;
  let db: Db;
  // Another connection, as another process (or the disk after a kill -9) sees the database.
  let other: Database.Database;
  const rows = () => (other.prepare('SELECT name FROM items ORDER BY name').all() as { name: string }[]).map((r) => r.name);

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'wl-batch-'));
    const file = path.join(dir, 'batch.db');
    db = openDatabase(file);
    db.exec(`
      CREATE TABLE parents (id TEXT PRIMARY KEY);
      CREATE TABLE items (name TEXT PRIMARY KEY, parent TEXT REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED);`);
    other = new Database(file, { readonly: true });
  });
  after(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => db.exec('DELETE FROM items'));

  const insert = (name: string, parent: string | null = null) => db.transaction(() => db.prepare('INSERT INTO items (name, parent) VALUES (?, ?)').run(name, parent))();

  it('commits the writes of one turn together, after the turn, and settles each unit only then', async () => {
    const units = ['a', 'b', 'c'].map((name) => {
      const unit = writeBatches(db).unit();
      unit.write(() => insert(name));
      return unit;
    });
    assert.equal(db.inTransaction, true, 'one transaction holds all three');
    assert.deepEqual(rows(), [], 'nothing is committed within the turn');
    let settled = 0;
    const all = Promise.all(units.map((u) => u.settled()!.then(() => settled++)));
    await Promise.resolve();
    assert.equal(settled, 0, 'no unit settles before the commit');
    await all;
    assert.deepEqual(rows(), ['a', 'b', 'c']);
    assert.equal(db.inTransaction, false);
  });

  it('a refused write rolls back alone: the others of its batch are kept', async () => {
    const kept = writeBatches(db).unit();
    kept.write(() => insert('kept'));
    const refused = writeBatches(db).unit();
    assert.throws(
      () =>
        refused.write(() =>
          db.transaction(() => {
            insert('half');
            throw new Error('refused');
          })(),
        ),
      /refused/,
    );
    await Promise.all([kept.settled(), refused.settled()]);
    assert.deepEqual(rows(), ['kept']);
  });

  it('a failed commit fails every unit of the batch and keeps none of its writes', async () => {
    const fine = writeBatches(db).unit();
    fine.write(() => insert('fine'));
    // A deferred foreign key is checked at COMMIT: the whole batch's commit fails.
    const breaking = writeBatches(db).unit();
    breaking.write(() => insert('orphan', 'no-such-parent'));
    await assert.rejects(fine.settled()!, BatchCommitError);
    await assert.rejects(breaking.settled()!, BatchCommitError);
    assert.deepEqual(rows(), []);
    assert.equal(db.inTransaction, false);
    // The connection goes on: the next batch commits.
    const next = writeBatches(db).unit();
    next.write(() => insert('next'));
    await next.settled();
    assert.deepEqual(rows(), ['next']);
  });

  // transactionRefusingFirst: a balance change's transaction, with no savepoint inside a batch.
  const insertRefusingFirst = (names: string[], failAfter: number | null) =>
    transactionRefusingFirst(db, () => {
      names.forEach((name, i) => {
        if (i === failAfter) throw new Error('refused');
        db.prepare('INSERT INTO items (name) VALUES (?)').run(name);
      });
      if (failAfter === names.length) throw new Error('failed after writing');
    });

  it('a refusing-first write that refuses before writing leaves the rest of its batch standing', async () => {
    const kept = writeBatches(db).unit();
    kept.write(() => insert('kept'));
    const refused = writeBatches(db).unit();
    assert.throws(() => refused.write(() => insertRefusingFirst(['never'], 0)), /refused/);
    // A statement that fails (here on the primary key) changed nothing either.
    const clash = writeBatches(db).unit();
    assert.throws(() => clash.write(() => insertRefusingFirst(['kept'], null)), /UNIQUE/);
    const after = writeBatches(db).unit();
    after.write(() => insertRefusingFirst(['after'], null));
    await Promise.all([kept.settled(), refused.settled(), clash.settled(), after.settled()]);
    assert.deepEqual(rows(), ['after', 'kept']);
  });

  it('a refusing-first write that fails after writing rolls the whole batch back, and the next batch goes on', async () => {
    const before = writeBatches(db).unit();
    before.write(() => insert('before'));
    const failing = writeBatches(db).unit();
    assert.throws(() => failing.write(() => insertRefusingFirst(['half', 'never'], 2)), /failed after writing/);
    // Even when the caller swallows the error, the half-written change is not kept.
    const swallowed = writeBatches(db).unit();
    swallowed.write(() => {
      try {
        insertRefusingFirst(['other-half'], 1);
      } catch {
        // a caller that goes on
      }
    });
    // A unit that comes after the failure starts a new batch rather than joining the doomed one.
    const later = writeBatches(db).unit();
    later.write(() => insert('later'));
    await assert.rejects(before.settled()!, BatchCommitError);
    await assert.rejects(failing.settled()!, BatchCommitError);
    await assert.rejects(swallowed.settled()!, BatchCommitError);
    await later.settled();
    assert.deepEqual(rows(), ['later']);
    assert.equal(db.inTransaction, false);
  });

  it('a refusing-first write inside a transaction function spoils it: it rolls back even if the error is caught', () => {
    assert.throws(
      () =>
        db.transaction(() => {
          insert('outer');
          try {
            insertRefusingFirst(['half'], 1);
          } catch {
            // swallowed
          }
        })(),
      /rolled back: a write in it failed after writing part of its rows/,
    );
    assert.deepEqual(rows(), []);
    // Outside any transaction it is a transaction of its own, all or nothing.
    assert.throws(() => insertRefusingFirst(['alone', 'too'], 2), /failed after writing/);
    insertRefusingFirst(['alone'], null);
    assert.deepEqual(rows(), ['alone']);
  });

  // Queued writes: run one after another just before the batch commits.
  it('runs queued writes in order just before the commit, after the turn; each promise carries its result or refusal', async () => {
    const ran: string[] = [];
    const queue = (name: string, refuse = false) => {
      const unit = writeBatches(db).unit();
      const result = unit.queueWrite(() =>
        db.transaction(() => {
          ran.push(name);
          insert(name);
          if (refuse) throw new Error(`refused ${name}`);
          return name.toUpperCase();
        })(),
      );
      return { unit, result };
    };
    const first = queue('q1');
    const refused = queue('q2', true);
    const last = queue('q3');
    assert.deepEqual(ran, [], 'nothing runs when it is queued');
    assert.equal(db.inTransaction, true, 'the batch is open, waiting for the turn to end');
    await Promise.resolve();
    assert.deepEqual(ran, [], 'nor in a microtask of the turn');
    assert.equal(await first.result, 'Q1');
    assert.deepEqual(ran, ['q1', 'q2', 'q3'], 'in the order they were queued');
    await assert.rejects(refused.result, /refused q2/);
    assert.equal(await last.result, 'Q3');
    await Promise.all([first.unit.settled(), refused.unit.settled(), last.unit.settled()]);
    assert.deepEqual(rows(), ['q1', 'q3'], 'the refusal rolled back alone');
  });

  it('a queued write that spoils the batch fails it; the writes queued after it never run', async () => {
    const before = writeBatches(db).unit();
    const beforeResult = before.queueWrite(() => insert('before'));
    const failing = writeBatches(db).unit();
    const failingResult = failing.queueWrite(() => insertRefusingFirst(['half'], 1));
    let ranAfter = false;
    const after = writeBatches(db).unit();
    const afterResult = after.queueWrite(() => {
      ranAfter = true;
      insert('after');
    });
    await beforeResult;
    await assert.rejects(failingResult, /failed after writing/);
    await assert.rejects(afterResult, BatchCommitError);
    assert.equal(ranAfter, false);
    for (const unit of [before, failing, after]) await assert.rejects(unit.settled()!, BatchCommitError);
    assert.deepEqual(rows(), []);
    const next = writeBatches(db).unit();
    await next.queueWrite(() => insert('next'));
    await next.settled();
    assert.deepEqual(rows(), ['next']);
  });

  it('a queued read runs at the end of the turn too, after the work queued before it in its batch', async () => {
    const writer = writeBatches(db).unit();
    const written = writer.queueWrite(() => insert('w'));
    const reader = writeBatches(db).unit();
    let ran = false;
    const read = reader.queueRead(() => {
      ran = true;
      return (db.prepare('SELECT name FROM items').all() as { name: string }[]).map((r) => r.name);
    });
    await Promise.resolve();
    assert.equal(ran, false);
    assert.deepEqual(await read, ['w'], 'it joined the write batch, after the write queued before it');
    await Promise.all([written, writer.settled(), reader.settled()]);
    // Alone, reads share a read batch.
    const alone = [writeBatches(db).unit(), writeBatches(db).unit()];
    const counts = alone.map((unit) => unit.queueRead(() => (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n));
    assert.deepEqual(await Promise.all(counts), [1, 1]);
    await Promise.all(alone.map((unit) => unit.settled()));
    assert.equal(db.inTransaction, false);
  });

  it('anything outside a unit runs the queued writes and commits them before it goes on', async () => {
    const unit = writeBatches(db).unit();
    const queued = unit.queueWrite(() => insert('queued'));
    insert('outside');
    assert.deepEqual(rows(), ['outside', 'queued']);
    assert.equal(db.inTransaction, false);
    await queued;
    await unit.settled();
    // Inside a transaction of another user of the connection a queued write runs at once, in it.
    db.transaction(() => {
      void writeBatches(db).unit().queueWrite(() => insert('inside'));
      assert.equal((db.prepare("SELECT count(*) AS n FROM items WHERE name = 'inside'").get() as { n: number }).n, 1);
    })();
  });

  it('anything outside a unit commits the open batch first, so it never sees or joins uncommitted rows', async () => {
    const unit = writeBatches(db).unit();
    unit.write(() => insert('batched'));
    // A worker's transaction, a console page, a job: they run after the batch has committed.
    insert('outside');
    assert.deepEqual(rows(), ['batched', 'outside'], 'the batch committed before the outside write, which committed on its own');
    assert.equal(db.inTransaction, false);
    await unit.settled();
    // A plain statement does the same.
    const second = writeBatches(db).unit();
    second.write(() => insert('again'));
    assert.equal((db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n, 3);
    assert.equal(db.inTransaction, false, 'the statement outside the unit committed the batch');
    await second.settled();
  });

  it('wakes workers only once the batch has committed', async () => {
    let seenAtWake: string[] | null = null;
    const unit = writeBatches(db).unit();
    unit.write(() => {
      insert('woken');
      wakeAfterCommit(db, 'test', () => (seenAtWake = rows()));
    });
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(seenAtWake, null, 'not from a microtask inside the turn');
    await unit.settled();
    await nextTurn();
    assert.deepEqual(seenAtWake, ['woken']);
  });

  it('reads alone share a read transaction to the end of the turn; a read joining a write batch waits for its commit', async () => {
    const reader = writeBatches(db).unit();
    reader.read(() => db.prepare('SELECT count(*) FROM items').get());
    const second = writeBatches(db).unit();
    second.read(() => db.prepare('SELECT count(*) FROM items').get());
    assert.equal(db.inTransaction, true, 'one read transaction for both');
    await Promise.all([reader.settled(), second.settled()]);
    assert.equal(writeBatches(db).unit().settled(), null, 'a unit that ran nothing waits for nothing');

    // A write after a read in the same turn: the read transaction ends, a write transaction begins.
    const writer = writeBatches(db).unit();
    writer.write(() => insert('w'));
    const late = writeBatches(db).unit();
    const seen = late.read(() => (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n);
    assert.equal(seen, 1, 'the read sees the batch it joined');
    let lateSettled = false;
    const waiting = late.settled()!.then(() => (lateSettled = true));
    await Promise.resolve();
    assert.equal(lateSettled, false, 'what it read is not committed yet');
    await Promise.all([waiting, writer.settled()]);
    assert.deepEqual(rows(), ['w']);
  });
});

describe('cached rows and the batches', () => {
  it('are checked against other connections’ commits once per batch, and again in the next one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wl-cache-'));
    const file = path.join(dir, 'cache.db');
    const db = openDatabase(file);
    // Counts what reaches SQLite: the caches' data_version reads among it.
    let versionReads = 0;
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      const statement = prepare(sql);
      if (!/data_version/.test(sql)) return statement;
      const get = statement.get.bind(statement);
      statement.get = ((...args: unknown[]) => (versionReads++, get(...(args as [])))) as typeof statement.get;
      return statement;
    }) as typeof db.prepare;
    db.exec("CREATE TABLE items (name TEXT PRIMARY KEY, price INTEGER); INSERT INTO items VALUES ('tea', 250)");
    const writer = new Database(file);
    try {
      const price = db.prepare('SELECT price FROM items WHERE name = ?').pluck();
      const first = createRowCache<{ price: number }>(db);
      const second = createRowCache<{ price: number }>(db);
      const read = (cache: typeof first) => writeBatches(db).unit().read(() => cache.get('tea', () => ({ price: price.get('tea') as number }))!.price);

      assert.deepEqual([read(first), read(second), read(first)], [250, 250, 250]);
      assert.equal(versionReads, 1, 'one read for the three lookups of one batch');
      // Another process commits while the batch is open: the batch keeps reading its snapshot.
      writer.prepare("UPDATE items SET price = 300 WHERE name = 'tea'").run();
      assert.equal(read(first), 250);
      await nextTurn();
      assert.deepEqual([read(first), read(second)], [300, 300], 'the next batch reads the change');
      assert.equal(versionReads, 2);
    } finally {
      writer.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('group commit behind the API', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  it('answers concurrent writes only once they are committed: at each answer, another connection sees the row', async () => {
    const reader = new Database(app.config.dbFile, { readonly: true });
    const onDisk = reader.prepare('SELECT 1 FROM customers WHERE id = ?').pluck();
    // Looked at the moment the server hands each answer to the socket (this test shares its process).
    const seen: boolean[] = [];
    const end = ServerResponse.prototype.end;
    ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
      if (this.req.method === 'POST' && typeof args[0] === 'string' && args[0].includes('passUserId')) {
        seen.push(onDisk.get((JSON.parse(args[0]) as { passUserId: string }).passUserId) === 1);
      }
      return end.apply(this, args as Parameters<typeof end>);
    } as typeof end;
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: `batch-${i}`, cardId: org.cards.points } })),
      );
      assert.deepEqual(answers.map((a) => a.status), Array(20).fill(201));
      assert.deepEqual(seen, Array(20).fill(true));
    } finally {
      ServerResponse.prototype.end = end;
      reader.close();
    }
  });

  it('a card changed and then rolled back is read as it is, not from a cache of the undone change', () => {
    const cards = cardsRepo(app.db);
    const before = cards.findById(org.cards.points)!;
    assert.throws(
      () =>
        app.db.transaction(() => {
          cards.update({ ...before, name: 'Never saved' });
          assert.equal(cards.findById(org.cards.points)!.name, 'Never saved', 'inside its transaction the change shows');
          throw new Error('undo');
        })(),
      /undo/,
    );
    assert.equal(cards.findById(org.cards.points)!.name, before.name);
  });

  it('a card changed by another process is read anew at the next request', async () => {
    await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: 'club-1', cardId: org.cards.levels } });
    const level = async () => (await app.request('GET', '/api/v1/customers/club-1', { key: org.keys.live })).body.balance.level;
    assert.equal(await level(), 'Bronze');
    const writer = new Database(app.config.dbFile);
    try {
      const levels = [{ name: 'Newcomer', minPoints: 0 }, { name: 'Silver', minPoints: 10000 }];
      writer.prepare('UPDATE cards SET levels = ? WHERE id = ?').run(JSON.stringify(levels), org.cards.levels);
    } finally {
      writer.close();
    }
    assert.equal(await level(), 'Newcomer');
  });
});
