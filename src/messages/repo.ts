// SQL of messages and their delivery rows, and the audience query: which customers of a card a
// message reaches now, with the passes each holds.
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { notReversedSql } from '../db/reversals';
import type { Audience, Channel, DeliveryFigures, DeliveryStatus, Message } from './model';

interface RawMessage {
  id: string;
  org_id: string;
  livemode: number;
  card_id: string;
  customer_id: string | null;
  audience: string | null;
  header: string;
  body: string;
  recipients: number;
  source: 'api' | 'console';
  created_at: number;
}

const mapMessage = (r: RawMessage): Message => ({
  id: r.id,
  orgId: r.org_id,
  livemode: r.livemode === 1,
  cardId: r.card_id,
  customerId: r.customer_id,
  audience: r.audience === null ? null : (JSON.parse(r.audience) as Audience),
  header: r.header,
  body: r.body,
  recipients: r.recipients,
  source: r.source,
  createdAt: r.created_at,
});

/** The audience as SQL bounds; null leaves a bound out. Balances in hundredths, times in ms. */
export interface AudienceBounds {
  cardId: string;
  livemode: boolean;
  minBalance: number | null;
  belowBalance: number | null;
  /** An earn at or after this time. */
  visitedSince: number | null;
  /** No earn at or after this time, and joined before it. */
  lapsedSince: number | null;
  /** Leaves out customers an audience message reached at or after this time; null: nobody left out. */
  messagedSince: number | null;
}

/** A customer an audience reaches, with the passes they hold and the message those show now. */
export interface Recipient {
  customerId: string;
  apple: boolean;
  google: boolean;
  web: boolean;
  /** The words their passes show now (wallet_pass_messages), read with them: a pass notifies only for new words. */
  shows: { header: string; body: string } | null;
}

interface RawRecipient {
  id: string;
  apple: number;
  google: number;
  web: number;
  shown_header: string | null;
  shown_body: string | null;
}

const mapRecipient = (r: RawRecipient): Recipient => ({
  customerId: r.id,
  apple: r.apple === 1,
  google: r.google === 1,
  web: r.web === 1,
  shows: r.shown_header === null || r.shown_body === null ? null : { header: r.shown_header, body: r.shown_body },
});

/** A delivery row the worker sends, with its message's words. */
export interface DueDelivery {
  id: number;
  messageId: string;
  customerId: string;
  channel: Exclude<Channel, 'web'>;
  mayNotify: boolean;
  attempts: number;
  header: string;
  body: string;
}

const earnedSince = (since: string) =>
  `EXISTS (SELECT 1 FROM transactions t WHERE t.customer_id = c.id AND t.created_at >= ${since} AND t.kind = 'earn' AND t.is_award = 1 AND ${notReversedSql('t')})`;

// Each bound is a parameter: one prepared statement serves every audience. The customers are read
// through customers_card (card, mode); the other tests are index probes per customer. A pass is an
// Apple registration, a Google object its holder saved, or a web pass its holder opened.
const AUDIENCE_SQL = `
  SELECT c.id,
         EXISTS (SELECT 1 FROM wallet_apple_registrations r WHERE r.customer_id = c.id) AS apple,
         EXISTS (SELECT 1 FROM wallet_google_objects g WHERE g.customer_id = c.id AND g.saved_at IS NOT NULL) AS google,
         EXISTS (SELECT 1 FROM web_pass_opens w WHERE w.customer_id = c.id) AS web,
         (@messagedSince IS NOT NULL AND EXISTS (SELECT 1 FROM message_deliveries d WHERE d.customer_id = c.id AND d.created_at >= @messagedSince AND d.audience = 1)) AS messaged
  FROM customers c
  WHERE c.card_id = @cardId AND c.livemode = @livemode AND c.erased_at IS NULL
    AND (@minBalance IS NULL OR c.balance >= @minBalance)
    AND (@belowBalance IS NULL OR c.balance < @belowBalance)
    AND (@visitedSince IS NULL OR ${earnedSince('@visitedSince')})
    AND (@lapsedSince IS NULL OR (c.created_at < @lapsedSince AND NOT ${earnedSince('@lapsedSince')}))`;

type BoundParams = Omit<AudienceBounds, 'livemode'> & { livemode: number };
const params = (b: AudienceBounds): BoundParams => ({ ...b, livemode: b.livemode ? 1 : 0 });

function createMessagesRepo(db: Db) {
  const insertMessage = db.prepare(
    `INSERT INTO messages (id, org_id, livemode, card_id, customer_id, audience, header, body, recipients, source, created_at)
     VALUES (@id, @orgId, @livemode, @cardId, @customerId, @audience, @header, @body, @recipients, @source, @createdAt)`,
  );
  const byId = db.prepare<{ id: string; orgId: string; livemode: number }, RawMessage>('SELECT * FROM messages WHERE id = @id AND org_id = @orgId AND livemode = @livemode');
  const recentOfOrg = db.prepare<{ orgId: string; livemode: number; limit: number }, RawMessage>(
    'SELECT * FROM messages WHERE org_id = @orgId AND livemode = @livemode ORDER BY created_at DESC, rowid DESC LIMIT @limit',
  );
  const recentToCustomer = db.prepare<{ customerId: string; limit: number }, RawMessage>(
    'SELECT * FROM messages WHERE customer_id = @customerId ORDER BY created_at DESC, rowid DESC LIMIT @limit',
  );
  const audience = db.prepare<BoundParams, RawRecipient>(
    `SELECT a.id, a.apple, a.google, a.web, pm.header AS shown_header, pm.body AS shown_body
     FROM (${AUDIENCE_SQL}) a LEFT JOIN wallet_pass_messages pm ON pm.customer_id = a.id
     WHERE (a.apple OR a.google OR a.web) AND NOT a.messaged`,
  );
  const reach = db.prepare<BoundParams, { customers: number; apple: number | null; google: number | null; web: number | null; messaged: number | null }>(
    `SELECT count(*) - coalesce(sum(messaged), 0) AS customers,
            sum(apple AND NOT messaged) AS apple, sum(google AND NOT messaged) AS google, sum(web AND NOT messaged) AS web, sum(messaged) AS messaged
     FROM (${AUDIENCE_SQL}) WHERE apple OR google OR web`,
  );
  const passesOf = db.prepare<{ id: string }, RawRecipient>(
    `SELECT @id AS id,
            EXISTS (SELECT 1 FROM wallet_apple_registrations WHERE customer_id = @id) AS apple,
            EXISTS (SELECT 1 FROM wallet_google_objects WHERE customer_id = @id AND saved_at IS NOT NULL) AS google,
            EXISTS (SELECT 1 FROM web_pass_opens WHERE customer_id = @id) AS web,
            (SELECT header FROM wallet_pass_messages WHERE customer_id = @id) AS shown_header,
            (SELECT body FROM wallet_pass_messages WHERE customer_id = @id) AS shown_body`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO message_deliveries (message_id, customer_id, channel, status, may_notify, audience, attempts, next_attempt_at, created_at, updated_at)
     VALUES (@messageId, @customerId, @channel, @status, @mayNotify, @audience, 0, @nextAttemptAt, @at, @now)`,
  );
  const figures = db.prepare<[string], { status: DeliveryStatus; n: number }>('SELECT status, count(*) AS n FROM message_deliveries WHERE message_id = ? GROUP BY status');

  const due = db.prepare<{ now: number; limit: number }, { id: number; message_id: string; customer_id: string; channel: 'apple' | 'google'; may_notify: number; attempts: number; header: string; body: string }>(
    `SELECT d.id, d.message_id, d.customer_id, d.channel, d.may_notify, d.attempts, m.header, m.body
     FROM message_deliveries d JOIN messages m ON m.id = d.message_id
     WHERE d.status = 'pending' AND d.next_attempt_at <= @now AND (d.lease_until IS NULL OR d.lease_until <= @now)
     ORDER BY d.next_attempt_at, d.id LIMIT @limit`,
  );
  const lease = db.prepare('UPDATE message_deliveries SET lease_until = @leaseUntil WHERE id = @id');
  const finish = db.prepare(
    `UPDATE message_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = NULL, lease_until = NULL, error = @error, updated_at = @now
     WHERE id = @id AND status = 'pending'`,
  );
  const retry = db.prepare(
    `UPDATE message_deliveries SET attempts = attempts + 1, next_attempt_at = @nextAttemptAt, lease_until = NULL, error = @error, updated_at = @now
     WHERE id = @id AND status = 'pending'`,
  );
  const pending = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM message_deliveries WHERE status = 'pending'");
  // The shop's messages to one customer: written to them alone, or reaching their passes as one of an audience.
  const ofCustomer = db.prepare<{ id: string }, { id: string; header: string; body: string; personal: number; created_at: number; passes: string }>(
    `SELECT m.id, m.header, m.body, m.customer_id IS NOT NULL AS personal, m.created_at,
            (SELECT json_group_array(json_object('wallet', d.channel, 'status', d.status)) FROM message_deliveries d WHERE d.message_id = m.id AND d.customer_id = @id) AS passes
     FROM messages m
     WHERE m.customer_id = @id OR m.id IN (SELECT message_id FROM message_deliveries WHERE customer_id = @id)
     ORDER BY m.created_at, m.rowid`,
  );
  // Erasure: a message written to this customer alone may name them; it goes, with its delivery
  // rows and its place on their passes (void now anyway, so they show no audience message either).
  const dropToCustomer = db.prepare('DELETE FROM messages WHERE customer_id = @id');
  const dropPassMessage = db.prepare('DELETE FROM wallet_pass_messages WHERE customer_id = @id');
  const deliveriesOf = db.prepare<[string], { customer_id: string; channel: Channel; status: DeliveryStatus; attempts: number; error: string | null }>(
    'SELECT customer_id, channel, status, attempts, error FROM message_deliveries WHERE message_id = ? ORDER BY id',
  );

  return {
    insert(message: Message) {
      insertMessage.run({ ...message, livemode: message.livemode ? 1 : 0, audience: message.audience === null ? null : JSON.stringify(message.audience) });
    },
    find(namespace: { orgId: string; livemode: boolean }, id: string): Message | undefined {
      const row = byId.get({ id, orgId: namespace.orgId, livemode: namespace.livemode ? 1 : 0 });
      return row && mapMessage(row);
    },
    recent: (namespace: { orgId: string; livemode: boolean }, limit: number) => recentOfOrg.all({ orgId: namespace.orgId, livemode: namespace.livemode ? 1 : 0, limit }).map(mapMessage),
    recentTo: (customerId: string, limit: number) => recentToCustomer.all({ customerId, limit }).map(mapMessage),
    /** The customers the bounds reach now, each with the passes they hold. */
    audience: (bounds: AudienceBounds): Recipient[] => audience.all(params(bounds)).map(mapRecipient),
    reach(bounds: AudienceBounds) {
      const row = reach.get(params(bounds))!;
      return { customers: row.customers, passes: { apple: row.apple ?? 0, google: row.google ?? 0, web: row.web ?? 0 }, alreadyMessagedToday: row.messaged ?? 0 };
    },
    /** The passes one customer holds. */
    passesOf: (customerId: string): Recipient => mapRecipient(passesOf.get({ id: customerId })!),
    /** `at`: the message's time (the data's clock, what the daily cap counts); `now`: the server's, which the queue runs on. */
    insertDelivery(row: { messageId: string; customerId: string; channel: Channel; status: DeliveryStatus; mayNotify: boolean; audience: boolean; at: number; now: number }) {
      const { messageId, customerId, channel, status, at, now } = row;
      insertDelivery.run({ messageId, customerId, channel, status, mayNotify: row.mayNotify ? 1 : 0, audience: row.audience ? 1 : 0, nextAttemptAt: status === 'pending' ? now : null, at, now });
    },
    figures(messageId: string): DeliveryFigures {
      const counts: DeliveryFigures = { passes: 0, pending: 0, delivered: 0, shown: 0, failed: 0 };
      for (const row of figures.all(messageId)) {
        counts[row.status] = row.n;
        counts.passes += row.n;
      }
      return counts;
    },
    deliveries: (messageId: string) => deliveriesOf.all(messageId).map((r) => ({ customerId: r.customer_id, channel: r.channel, status: r.status, attempts: r.attempts, error: r.error })),

    /** Due, unleased rows, leased to the caller until `leaseUntil`; call inside a transaction. */
    claimDue(now: number, leaseUntil: number, limit: number): DueDelivery[] {
      const rows = due.all({ now, limit });
      for (const row of rows) lease.run({ id: row.id, leaseUntil });
      return rows.map((r) => ({ id: r.id, messageId: r.message_id, customerId: r.customer_id, channel: r.channel, mayNotify: r.may_notify === 1, attempts: r.attempts, header: r.header, body: r.body }));
    },
    finish(id: number, status: Exclude<DeliveryStatus, 'pending'>, error: string | null, now: number) {
      finish.run({ id, status, error: error?.slice(0, 500) ?? null, now });
    },
    retry(id: number, nextAttemptAt: number, error: string, now: number) {
      retry.run({ id, nextAttemptAt, error: error.slice(0, 500), now });
    },
    pendingCount: () => pending.get()!.n,
    /** Every message that reached the customer, oldest first, with what each of their passes made of it. */
    ofCustomer: (customerId: string) =>
      ofCustomer.all({ id: customerId }).map((m) => ({
        messageId: m.id,
        header: m.header,
        body: m.body,
        toThemAlone: m.personal === 1,
        createdAt: m.created_at,
        passes: JSON.parse(m.passes) as { wallet: Channel; status: DeliveryStatus }[],
      })),
    /** The messages written to the customer alone, and the message their passes show. */
    dropOfCustomer: (customerId: string) => dropPassMessage.run({ id: customerId }).changes + dropToCustomer.run({ id: customerId }).changes,
  };
}

export const messagesRepo = perConnection(createMessagesRepo);
