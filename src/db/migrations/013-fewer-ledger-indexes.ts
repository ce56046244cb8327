import type { MigrationStep } from './step';

export default {
  version: 13,
  name: 'two ledger and outbox indexes in random order fewer to write per balance change; undone rows found by one probe',
  sql: `
-- Each balance change wrote one entry into each index keyed by its customer: a random page of each
-- (a café's customers earn in no order), written to the WAL at the commit and again by the
-- checkpoint. transactions_customer (customer_id, created_at) already reads a customer's rows in
-- time order, so the award reads use it (loyalty/repo.ts): a customer's awards in a limit's period,
-- or the newest award, found by walking back from the newest row.
DROP INDEX transactions_awards;

DROP INDEX events_customer;
-- Events are found by customer only to remove a test customer's (customers/purge-repo.ts): a live
-- event's entry was written and never read.
CREATE INDEX events_test_customer ON events (customer_id) WHERE livemode = 0 AND customer_id IS NOT NULL;

DROP TRIGGER customers_slots_forget;
-- Made again with the reversal index probed per row instead of read whole: the unary + drops the
-- id column's TEXT affinity, without which the indexed expression (which has none) could not be
-- looked up and SQLite read every reversal of the database for each row it checked.
CREATE TRIGGER customers_slots_forget BEFORE DELETE ON customers BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT created_at / 900000 AS slot, source, coalesce(staff_id, '') AS staff_id,
                 sum(CASE WHEN is_award = 1 THEN change ELSE 0 END) AS awarded, sum(is_award) AS awards, sum(CASE WHEN kind = 'redeem' AND json_extract(details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END) AS rewards
          FROM transactions t WHERE customer_id = old.id AND (is_award = 1 OR (kind = 'redeem' AND json_extract(details, '$.reward') IS NOT NULL))
            AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.kind = 'reversal' AND json_extract(r.details, '$.reverses') = +t.id)
          GROUP BY 1, 2, 3) AS g
    WHERE ledger_slots.org_id = old.org_id AND ledger_slots.livemode = old.livemode AND ledger_slots.card_id = old.card_id
      AND ledger_slots.slot = g.slot AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id;
END;

`,
} satisfies MigrationStep;
