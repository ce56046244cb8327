import type { MigrationStep } from './step';

export default {
  version: 22,
  name: 'imports: the file read once, the dry run kept with its draft, refused rows with their values',
  sql: `
-- The file's header row (JSON array), kept with the report: the refused rows' CSV repeats it.
ALTER TABLE imports ADD COLUMN header TEXT;
-- The first values of each column (JSON), shown by the mapping form; NULL once the import starts.
ALTER TABLE imports ADD COLUMN samples TEXT;
-- The last dry run of a draft, made once and then shown and downloaded as it is: check_report (JSON:
-- the mapping it checked, its counts, the first refused rows) and check_csv (every refused row with
-- its values and the reason). NULL once the import starts.
ALTER TABLE imports ADD COLUMN check_report TEXT;
ALTER TABLE imports ADD COLUMN check_csv TEXT;
-- A refused row's cells (JSON array), so the owner can download the refused rows, fix them and import
-- them again; NULL for other outcomes, and cleared 30 days after the import finished (the hourly
-- sweep finds them by this index, never by reading every report).
ALTER TABLE import_rows ADD COLUMN cells TEXT;
CREATE INDEX import_rows_cells ON import_rows (import_id) WHERE cells IS NOT NULL;
`,
} satisfies MigrationStep;
