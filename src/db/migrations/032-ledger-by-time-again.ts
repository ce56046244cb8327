import type { MigrationStep } from './step';

export default {
  version: 32,
  name: 'the ledger by time again: the books and the watch list read a period of the whole ledger',
  sql: `
-- The books (a card's month) and the watch list (the awards of a period) read every row of an org
-- in a time range; without this index each read scanned the whole ledger. One page more per
-- balance change, the price of reading a month in a few milliseconds at 100,000 customers.
CREATE INDEX transactions_org_time ON transactions (org_id, livemode, created_at);
`,
} satisfies MigrationStep;
