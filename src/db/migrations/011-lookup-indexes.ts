import type { MigrationStep } from './step';

export default {
  version: 11,
  name: 'lookups and the webhook queue read only the rows they need',
  sql: `
DROP INDEX customers_email;
DROP INDEX customers_phone;
-- customers_org_time (version 6) gives an org's customers in created_at order, which the email and
-- phone lookups ask for, so SQLite took it for them and read every customer of the org: at a
-- million customers a lookup or an enrolment with an email read a million rows. With created_at in
-- the contact indexes, a lookup reads only the rows with that email or phone, already in order.
CREATE INDEX customers_email ON customers (org_id, livemode, email_norm, created_at) WHERE email_norm IS NOT NULL;
CREATE INDEX customers_phone ON customers (org_id, livemode, phone_norm, created_at) WHERE phone_norm IS NOT NULL;

-- The delivery worker reads each endpoint's queue in order (webhooks/deliveries-repo.ts): the rows
-- it takes and no others, however long a backlog grows. Across endpoints it read every due row
-- and sorted them, on every claim; the index it used goes (one index less to write per delivery).
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, next_attempt_at) WHERE status = 'pending';
DROP INDEX webhook_deliveries_due;
`,
} satisfies MigrationStep;
