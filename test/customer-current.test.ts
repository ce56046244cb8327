import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { customersRepo } from '../src/customers/repo';
import type { Customer } from '../src/customers/model';
import { writeBatches } from '../src/db/write-batch';
import { earn, redeem } from '../src/loyalty/service';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { insertCustomer } from './support/customers';

// A balance change reads its customer again inside its transaction, unless the copy it was given
// is provably current: the last customer the repo read, in the transaction still open, with
// nothing written on the connection since (viewStamp, src/db/write-batch.ts). The API's earn reads the
// customer and changes its balance in one synchronous step, so it reads once; any write, commit
// or rollback in between makes the copy stale, and it is read again.

describe('a customer copy is used as current only when nothing can have changed it', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  const fresh = (balance = 0): Customer => insertCustomer(app, { orgId: org.orgId, cardId: org.cards.points, balance });
  const repo = () => customersRepo(app.db);
  const ns = () => ({ orgId: org.orgId, livemode: true });

  // Each case reads a copy of customer `c` inside a transaction, does `between`, and asks for
  // the current customer. `same`: the copy itself comes back; otherwise a new read, whose balance
  // is `balance` (hundredths).
  const cases: { name: string; between: (c: Customer, other: Customer) => void; same: boolean; balance: number }[] = [
    { name: 'nothing in between', between: () => {}, same: true, balance: 500 },
    { name: 'a read of another table', between: () => void app.db.prepare('SELECT count(*) FROM cards').get(), same: true, balance: 500 },
    // The repo remembers only the last customer it read.
    { name: 'a read of another customer', between: (_c, o) => void repo().findById(ns(), o.id), same: false, balance: 500 },
    { name: 'a write to another customer', between: (_c, o) => repo().setBalance(o.id, 100, app.clock.now()), same: false, balance: 500 },
    { name: 'a write to this customer', between: (c) => repo().setBalance(c.id, 700, app.clock.now()), same: false, balance: 700 },
    { name: 'a write through exec', between: (c) => app.db.exec(`UPDATE customers SET balance = 900 WHERE id = '${c.id}'`), same: false, balance: 900 },
    { name: 'a write through get (RETURNING)', between: (c) => app.db.prepare('UPDATE customers SET balance = 1100 WHERE id = ? RETURNING id').get(c.id), same: false, balance: 1100 },
    { name: 'a savepoint that wrote and rolled back', between: (c) => assert.throws(() => app.db.transaction(() => {
      repo().setBalance(c.id, 1300, app.clock.now());
      throw new Error('refused');
    })()), same: false, balance: 500 },
    { name: 'a balance change through the service', between: (c) => redeem(app.deps, { customer: c, source: 'console', type: 'points', amount: 200 }), same: false, balance: 300 },
  ];
  for (const { name, between, same, balance } of cases) {
    it(`${name}: ${same ? 'the copy itself' : 'read again'}`, () => {
      const seeded = fresh(500);
      const other = fresh();
      app.db.transaction(() => {
        const copy = repo().findById(ns(), seeded.id)!;
        between(copy, other);
        const current = repo().current(copy)!;
        assert.equal(current === copy, same);
        assert.equal(current.balance, balance);
      })();
    });
  }

  it('a copy read in an earlier transaction, or outside one, is read again', () => {
    const c = fresh(500);
    const earlier = app.db.transaction(() => repo().findById(ns(), c.id)!)();
    const outside = repo().findById(ns(), c.id)!;
    app.db.transaction(() => {
      assert.notEqual(repo().current(earlier), earlier);
      assert.notEqual(repo().current(outside), outside);
    })();
  });

  it('outside a transaction it is read again: another process may have written meanwhile', () => {
    const c = fresh(500);
    const copy = repo().findById(ns(), c.id)!;
    const cli = new Database(app.config.dbFile);
    try {
      cli.prepare('UPDATE customers SET balance = 800 WHERE id = ?').run(c.id);
    } finally {
      cli.close();
    }
    const current = repo().current(copy)!;
    assert.notEqual(current, copy);
    assert.equal(current.balance, 800);
  });

  it('one that is gone is undefined', () => {
    const c = fresh();
    app.db.transaction(() => {
      const copy = repo().findById(ns(), c.id)!;
      repo().remove(c.id);
      assert.equal(repo().current(copy), undefined);
    })();
  });

  it('in one write batch, each earn starts from the balance the one before it left', () => {
    const c = fresh();
    const unit = writeBatches(app.db).unit();
    const balances = unit.write(() => {
      // Both copies are read before either earn: the second earn must not trust its copy.
      const first = repo().findById(ns(), c.id)!;
      const second = repo().findById(ns(), c.id)!;
      const a = earn(app.deps, { customer: first, source: 'api', type: 'points', basis: { from: 'amount', amount: 300 } });
      const b = earn(app.deps, { customer: second, source: 'api', type: 'points', basis: { from: 'amount', amount: 400 } });
      return [a.previousBalance, a.transaction.balanceAfter, b.previousBalance, b.transaction.balanceAfter];
    });
    assert.deepEqual(balances, [0, 300, 300, 700]);
    assert.equal(app.db.prepare('SELECT balance FROM customers WHERE id = ?').pluck().get(c.id), 700);
  });
});
