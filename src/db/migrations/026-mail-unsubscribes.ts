import type { MigrationStep } from './step';

export default {
  version: 26,
  name: 'mail unsubscribes: customers who stopped the reminder and birthday emails',
  sql: `
-- Customers who followed the link in an expiry reminder or a birthday email and stopped those
-- emails, and when. Their card email, which they ask for themselves, is still sent on request.
CREATE TABLE mail_unsubscribes (
  customer_id      TEXT PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  unsubscribed_at  INTEGER NOT NULL
) WITHOUT ROWID;
`,
} satisfies MigrationStep;
