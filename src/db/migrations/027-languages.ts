import type { MigrationStep } from './step';

export default {
  version: 27,
  name: 'languages: the customer’s and the admin’s',
  sql: `
-- The language the customer chose or was served on the sign-up page (en, de, fr, es, it, nl):
-- their pass and emails use it. NULL: the shop's language (org setting). No CHECK: the program
-- validates it, and a new language must not need a rebuild of this table.
ALTER TABLE customers ADD COLUMN language TEXT;

-- The language of the console for this admin (en or de). NULL: German when the shop's language
-- is German, else English.
ALTER TABLE admins ADD COLUMN language TEXT;
`,
} satisfies MigrationStep;
