import type { MigrationStep } from './step';

export default {
  version: 16,
  name: "a customer's ledger index ends in the row number its readers order by",
  sql: `
DROP INDEX transactions_customer;
-- transactions_customer was (customer_id, created_at DESC, id DESC). Every read that walks it orders
-- by (created_at DESC, rowid DESC): the id did not give that order, so each history page sorted its
-- rows of equal time in a temporary B-tree, and it made the index half as large again. Each balance change writes an entry on a random page of this index
-- (the customer's), so fewer, fuller pages are fewer to write. An index ends in the rowid, so
-- (customer_id, created_at) walked backwards is exactly the order the reads ask for.
CREATE INDEX transactions_customer ON transactions (customer_id, created_at);
`,
} satisfies MigrationStep;
