import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// customer_birthdays (migration 21): each customer's birthday (month and day) on a card with a
// birthday treat, when the answer was set, and the last year it was paid.

export interface BirthdayRow {
  customerId: string;
  monthDay: string;
  setAt: number;
  paidYear: number | null;
}

function createBirthdaysRepo(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO customer_birthdays (customer_id, month_day, set_at) VALUES (@customerId, @monthDay, @setAt)
     ON CONFLICT (customer_id) DO UPDATE SET month_day = excluded.month_day, set_at = excluded.set_at`,
  );
  const remove = db.prepare('DELETE FROM customer_birthdays WHERE customer_id = ?');
  const removeForCard = db.prepare('DELETE FROM customer_birthdays WHERE customer_id IN (SELECT id FROM customers WHERE card_id = ?)');
  // The answers already given, as if given when the customer enrolled: the answer has been there since.
  const backfill = db.prepare(
    `INSERT INTO customer_birthdays (customer_id, month_day, set_at)
     SELECT id, substr(json_extract(custom_fields, @path), 6, 5), created_at FROM customers
     WHERE card_id = @cardId AND erased_at IS NULL AND json_extract(custom_fields, @path) GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'`,
  );
  const monthDayOf = db.prepare<[string], { month_day: string }>('SELECT month_day FROM customer_birthdays WHERE customer_id = ?');
  // Customers of a card whose birthday is that day, by passUserId from `after` on: that day's range
  // of customer_birthdays_day, in its order (the day's birthdays, not the card's customers).
  const onDay = db.prepare<{ monthDay: string; cardId: string; livemode: number; after: string; limit: number }, { customer_id: string; month_day: string; set_at: number; paid_year: number | null }>(
    `SELECT b.customer_id, b.month_day, b.set_at, b.paid_year FROM customer_birthdays b INDEXED BY customer_birthdays_day CROSS JOIN customers c ON c.id = b.customer_id
     WHERE b.month_day = @monthDay AND b.customer_id > @after AND c.card_id = @cardId AND c.livemode = @livemode AND c.erased_at IS NULL
     ORDER BY b.customer_id LIMIT @limit`,
  );
  const markPaid = db.prepare('UPDATE customer_birthdays SET paid_year = @year WHERE customer_id = @customerId');
  const current = db.prepare<[string], { customer_id: string; month_day: string; set_at: number; paid_year: number | null }>(
    'SELECT customer_id, month_day, set_at, paid_year FROM customer_birthdays WHERE customer_id = ?',
  );
  const map = (r: { customer_id: string; month_day: string; set_at: number; paid_year: number | null }): BirthdayRow => ({ customerId: r.customer_id, monthDay: r.month_day, setAt: r.set_at, paidYear: r.paid_year });
  return {
    monthDay: (customerId: string): string | undefined => monthDayOf.get(customerId)?.month_day,
    set: (customerId: string, monthDay: string, setAt: number) => upsert.run({ customerId, monthDay, setAt }),
    remove: (customerId: string) => remove.run(customerId),
    /** Every birthday of the card's customers read again from their answers to `questionKey` (none: removed). */
    reset(cardId: string, questionKey: string | null) {
      removeForCard.run(cardId);
      if (questionKey !== null) backfill.run({ cardId, path: `$.${questionKey}` });
    },
    onDay: (input: { monthDay: string; cardId: string; livemode: boolean; after: string; limit: number }) =>
      onDay.all({ monthDay: input.monthDay, cardId: input.cardId, livemode: input.livemode ? 1 : 0, after: input.after, limit: input.limit }).map(map),
    find: (customerId: string) => {
      const row = current.get(customerId);
      return row && map(row);
    },
    markPaid: (customerId: string, year: number) => markPaid.run({ customerId, year }),
  };
}

export const birthdaysRepo = perConnection(createBirthdaysRepo);
