import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// Customers who stopped the reminder and birthday emails (migration 26), and when.

function createUnsubscribesRepo(db: Db) {
  const insert = db.prepare('INSERT INTO mail_unsubscribes (customer_id, unsubscribed_at) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const at = db.prepare<[string], number>('SELECT unsubscribed_at FROM mail_unsubscribes WHERE customer_id = ?').pluck();
  const remove = db.prepare('DELETE FROM mail_unsubscribes WHERE customer_id = ?');
  return {
    /** Records it; an earlier unsubscribe keeps its time. */
    add: (customerId: string, now: number) => insert.run(customerId, now).changes === 1,
    /** When the customer unsubscribed; undefined when they did not. */
    at: (customerId: string) => at.get(customerId),
    remove: (customerId: string) => remove.run(customerId).changes === 1,
  };
}

export const unsubscribesRepo = perConnection(createUnsubscribesRepo);
