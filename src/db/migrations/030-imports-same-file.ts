import type { MigrationStep } from './step';

export default {
  version: 30,
  name: 'the finished imports of a file found by their index',
  sql: `
DROP INDEX imports_same_file;
-- An import that would create the customers of an earlier one asks for the finished imports (done
-- or stopped) of the same file to the card. An index of the done ones alone cannot answer that, and
-- the lookup read every imported row instead.
CREATE INDEX imports_same_file ON imports (card_id, livemode, file_sha256) WHERE status IN ('done', 'stopped');
`,
} satisfies MigrationStep;
