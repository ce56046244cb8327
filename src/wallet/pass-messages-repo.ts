// SQL of what passes show of the shop's messages (wallet_pass_messages) and of the notifying
// updates each Google pass had from us (wallet_google_notifications).
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export interface StoredPassMessage {
  id: string;
  header: string;
  body: string;
  setAt: number;
}

function createPassMessagesRepo(db: Db) {
  const byCustomer = db.prepare<[string], { message_id: string; header: string; body: string; set_at: number }>(
    'SELECT message_id, header, body, set_at FROM wallet_pass_messages WHERE customer_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO wallet_pass_messages (customer_id, message_id, header, body, set_at) VALUES (@customerId, @id, @header, @body, @now)
     ON CONFLICT (customer_id) DO UPDATE SET message_id = excluded.message_id, header = excluded.header, body = excluded.body, set_at = excluded.set_at`,
  );
  const notifiedSince = db.prepare<{ customerId: string; since: number }, { n: number }>(
    'SELECT count(*) AS n FROM wallet_google_notifications WHERE customer_id = @customerId AND sent_at > @since',
  );
  const insertNotification = db.prepare('INSERT INTO wallet_google_notifications (customer_id, sent_at) VALUES (@customerId, @now)');
  const forgetNotifications = db.prepare('DELETE FROM wallet_google_notifications WHERE customer_id = @customerId AND sent_at <= @before');

  return {
    find(customerId: string): StoredPassMessage | undefined {
      const row = byCustomer.get(customerId);
      return row && { id: row.message_id, header: row.header, body: row.body, setAt: row.set_at };
    },
    set(customerId: string, message: { id: string; header: string; body: string }, now: number) {
      upsert.run({ customerId, id: message.id, header: message.header, body: message.body, now });
    },
    notifiedSince: (customerId: string, since: number) => notifiedSince.get({ customerId, since })!.n,
    /** Records a notifying update now and forgets those older than `before`, which no longer count. */
    recordNotification(customerId: string, now: number, before: number) {
      forgetNotifications.run({ customerId, before });
      insertNotification.run({ customerId, now });
    },
  };
}

export const passMessagesRepo = perConnection(createPassMessagesRepo);
