import type { MigrationStep } from './step';

export default {
  version: 20,
  name: 'the first day: archived cards, customers who opened their web pass',
  sql: `
-- A card closed to new members: its sign-up form is closed and the counter does not
-- offer it, while its customers' passes keep updating. NULL while the card is active.
ALTER TABLE cards ADD COLUMN archived_at INTEGER;

-- When a customer first opened their web pass: the console shows "Uses the web pass" for a customer
-- no wallet holds a pass for. Written once per customer (the page's balance refreshes write nothing).
CREATE TABLE web_pass_opens (
  customer_id      TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  first_opened_at  INTEGER NOT NULL
) WITHOUT ROWID;
`,
} satisfies MigrationStep;
