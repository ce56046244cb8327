import type { MigrationStep } from './step';

export default {
  version: 10,
  name: 'counter: reversals (undo) and staff awards indexed',
  sql: `
-- The counter's undo writes a reversal row naming the row it undoes in details.reverses. At most one
-- reversal per row, enforced here; the same expression finds whether an award was reversed.
CREATE UNIQUE INDEX transactions_reversal ON transactions (json_extract(details, '$.reverses')) WHERE kind = 'reversal';
-- The counter's daily cap per staff member (and per-staff reports) read a member's rows by time.
CREATE INDEX transactions_staff ON transactions (staff_id, created_at) WHERE staff_id IS NOT NULL;

-- An undone row (the counter's reversal) counts for nothing on the dashboard: the reversal takes the
-- row's own sums back out of the quarter hour, channel, staff member and card they were added to,
-- and the test-customer sweep takes out only what still counts.
CREATE TRIGGER transactions_slots_reversal AFTER INSERT ON transactions WHEN new.kind = 'reversal' BEGIN
  UPDATE ledger_slots SET awarded = ledger_slots.awarded - g.awarded, awards = ledger_slots.awards - g.awards, rewards = ledger_slots.rewards - g.rewards
    FROM (SELECT o.org_id, o.livemode, o.created_at / 900000 AS slot, o.source, coalesce(o.staff_id, '') AS staff_id, c.card_id,
                 CASE WHEN o.is_award = 1 THEN o.change ELSE 0 END AS awarded, o.is_award AS awards, CASE WHEN o.kind = 'redeem' AND json_extract(o.details, '$.reward') IS NOT NULL THEN 1 ELSE 0 END AS rewards
          FROM transactions o JOIN customers c ON c.id = o.customer_id
          WHERE o.id = json_extract(new.details, '$.reverses') AND (o.is_award = 1 OR (o.kind = 'redeem' AND json_extract(o.details, '$.reward') IS NOT NULL))) AS g
    WHERE ledger_slots.org_id = g.org_id AND ledger_slots.livemode = g.livemode AND ledger_slots.slot = g.slot
      AND ledger_slots.source = g.source AND ledger_slots.staff_id = g.staff_id AND ledger_slots.card_id = g.card_id;
END;

DROP TRIGGER customers_slots_forget;
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
