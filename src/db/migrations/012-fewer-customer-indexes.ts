import type { MigrationStep } from './step';

export default {
  version: 12,
  name: 'two customer indexes in random order fewer to write per enrolment',
  sql: `
-- Install codes are found through a range of the install_code UNIQUE index (wallet/repo.ts): the
-- selector index held the same codes a second time, one more random page to write per enrolment.
DROP INDEX customers_install_selector;

-- A card's fan-out walks its customers in (livemode, created_at, id) order, where a new customer
-- lands at the end of its card's range. In id order (customers_card_id), each new customer went
-- to a random page: a page read and a page written per enrolment on a large database. The id only
-- orders customers created in the same millisecond, and unlike the rowid it is kept through a VACUUM. The fan-out's position becomes those three values, and a fan-out in
-- progress starts over in the new order (a pass it queued already is queued again, which only
-- sends its update once more).
CREATE INDEX customers_card_fanout ON customers (card_id, livemode, created_at, id);
DROP INDEX customers_card_id;
-- How far the fan-out got, in customers_card_fanout's order: (after_livemode, after_created_at,
-- after_customer); (-1, 0, '') before the first customer.
ALTER TABLE wallet_card_fanouts ADD COLUMN after_livemode INTEGER NOT NULL DEFAULT -1;
ALTER TABLE wallet_card_fanouts ADD COLUMN after_created_at INTEGER NOT NULL DEFAULT 0;
UPDATE wallet_card_fanouts SET after_customer = '';
`,
} satisfies MigrationStep;
