import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { inTransaction } from '../db/transaction';
import type { Clock } from '../lib/clock';

// Which customers opened their web pass (migration 20): the console tells "Uses the web pass"
// from "Not installed yet" for a customer no wallet app holds a pass for. One row per customer,
// written at the first opening of the page; every later opening, and the page's balance
// refreshes, only read.

function createWebPassOpensRepo(db: Db) {
  const has = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM web_pass_opens WHERE customer_id = ?');
  const firstOpened = db.prepare<[string], number>('SELECT first_opened_at FROM web_pass_opens WHERE customer_id = ?').pluck();
  const insert = db.prepare('INSERT OR IGNORE INTO web_pass_opens (customer_id, first_opened_at) VALUES (?, ?)');
  const among = db.prepare<[string], string>('SELECT customer_id FROM json_each(?) j JOIN web_pass_opens w ON w.customer_id = j.value').pluck();
  return {
    has: (customerId: string) => has.get(customerId)!.n > 0,
    firstOpenedAt: (customerId: string) => firstOpened.get(customerId),
    insert: (customerId: string, at: number) => insert.run(customerId, at),
    among: (ids: readonly string[]) => new Set(ids.length ? among.all(JSON.stringify(ids)) : []),
  };
}

const repo = perConnection(createWebPassOpensRepo);

/** The customer opened their web pass now; remembered the first time only. */
export function noteWebPassOpened(deps: { db: Db; clock: Clock }, customerId: string): void {
  if (repo(deps.db).has(customerId)) return;
  inTransaction(deps.db, () => repo(deps.db).insert(customerId, deps.clock.now()));
}

/** Which of these customers have opened their web pass. */
export const webPassUsersAmong = (db: Db, ids: readonly string[]): Set<string> => repo(db).among(ids);

/** When the customer first opened their web pass; undefined when never. */
export const webPassFirstOpenedAt = (db: Db, customerId: string): number | undefined => repo(db).firstOpenedAt(customerId);
