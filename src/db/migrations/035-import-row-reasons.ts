import type { MigrationStep } from './step';

// A report row's message is English (the API's and the CLI's words); the console words it in the
// admin's language from the same reason as values. Rows written before keep only their message.
export default {
  version: 35,
  name: 'import report rows keep their reason as values',
  sql: `
-- The message's reason as values, JSON { id, params } (src/lib/reasons.ts): what the console words
-- the row from in the admin's language. NULL for a created row, and for rows reported before it was
-- kept (their English message is all there is).
ALTER TABLE import_rows ADD COLUMN reason TEXT;
`,
} satisfies MigrationStep;
